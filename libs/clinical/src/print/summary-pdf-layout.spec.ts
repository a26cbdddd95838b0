// The printed summary checked by readers this project did not write: poppler's pdftotext
// (word boxes), pdfinfo (pages, Tagged) and pdffonts (embedded fonts), qpdf --check (structure), and
// pdf.js (the structure tree a screen reader walks). Long and short summaries, A4 and Letter.
// Needs the Debian packages poppler-utils and qpdf; skips, saying so, only when a tool is absent.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import type { SummaryItem } from '@medfolio/contracts';
import { corpusSummaries } from '../fhir/testing/corpus';
import { PAPER_SIZES, summaryToPdf, type PaperSize } from './summary-pdf';

const TOOLS = ['pdftotext', 'pdfinfo', 'pdffonts', 'qpdf'] as const;
const missing = TOOLS.filter((tool) => spawnSync(tool, ['-v']).error !== undefined);
if (missing.length > 0)
  console.warn(`summary-pdf-layout.spec: SKIPPED, ${missing.join(', ')} not installed (apt-get install -y poppler-utils qpdf)`);
const describeWithTools = missing.length === 0 ? describe : describe.skip;
const run = promisify(execFile);

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}
interface Page {
  width: number;
  height: number;
  words: Word[];
}

let dir: string;
let corpus: Map<string, SummaryItem>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'summary-pdf-layout-'));
  corpus = await corpusSummaries();
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

async function save(pdf: Buffer, name: string): Promise<string> {
  const path = join(dir, `${name}.pdf`);
  await writeFile(path, pdf);
  return path;
}

const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name] ?? '');

/** Every page's words with their boxes (points, y down), as `pdftotext -bbox` reads them. */
async function wordBoxes(path: string): Promise<Page[]> {
  const { stdout } = await run('pdftotext', ['-bbox', path, '-'], { maxBuffer: 64 * 1024 * 1024 });
  return [...stdout.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)].map(([, width, height, body]) => ({
    width: Number(width),
    height: Number(height),
    words: [...(body ?? '').matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)<\/word>/g)].map(
      ([, xMin, yMin, xMax, yMax, text]) => ({ text: unescape(text ?? ''), xMin: Number(xMin), yMin: Number(yMin), xMax: Number(xMax), yMax: Number(yMax) }),
    ),
  }));
}

const overlap = (a: Word, b: Word, slack = 0.5) =>
  a.xMin < b.xMax - slack && b.xMin < a.xMax - slack && a.yMin < b.yMax - slack && b.yMin < a.yMax - slack;

/** What is wrong with the pages' layout: words on words, text in or below the footer, a bullet with no text beside it. */
function layoutProblems(pages: Page[]): string[] {
  const problems: string[] = [];
  pages.forEach((page, index) => {
    const at = `page ${index + 1}`;
    const footerStart = page.words.find((w) => w.text === 'Built' && w.xMin < 50 && w.yMin > page.height * 0.8);
    if (!footerStart) {
      problems.push(`${at}: no footer`);
      return;
    }
    const footerTop = footerStart.yMin;
    for (const word of page.words) {
      if (word.xMin < 0 || word.xMax > page.width || word.yMin < 0 || word.yMax > page.height) problems.push(`${at}: "${word.text}" off the page`);
      // Above the footer with a gap, or a line of the footer itself (at or below its first line, starting where it starts).
      const inFooter = word.yMin >= footerTop - 0.5;
      if (!inFooter && word.yMax > footerTop - 1) problems.push(`${at}: "${word.text}" runs into the footer`);
    }
    for (let i = 0; i < page.words.length; i++)
      for (let j = i + 1; j < page.words.length; j++) {
        const [a, b] = [page.words[i] as Word, page.words[j] as Word];
        if (overlap(a, b)) problems.push(`${at}: "${a.text}" overlaps "${b.text}"`);
      }
    for (const bullet of page.words.filter((w) => w.text === '\u2022')) {
      const beside = page.words.some((w) => w !== bullet && w.text !== '\u2022' && w.xMin > bullet.xMax && w.xMin - bullet.xMax < 12 && Math.abs(w.yMin - bullet.yMin) < 1);
      if (!beside) problems.push(`${at}: a bullet with no text beside it at y ${bullet.yMin.toFixed(1)}`);
    }
  });
  return problems;
}

async function info(path: string): Promise<Record<string, string>> {
  const { stdout } = await run('pdfinfo', [path]);
  return Object.fromEntries(
    stdout
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null)
      .map(([, key, value]) => [key, value]),
  );
}

/** pdffonts' rows: name, type and whether each font is embedded. */
async function fonts(path: string): Promise<{ name: string; type: string; embedded: boolean }[]> {
  const { stdout } = await run('pdffonts', [path]);
  return stdout
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => {
      const [name = '', ...rest] = line.trim().split(/\s+/);
      // name, type (one or more words), encoding, emb, sub, uni, object id, generation
      const tail = rest.slice(-6);
      return { name, type: rest.slice(0, -6).join(' '), embedded: tail[1] === 'yes' };
    });
}

interface StructNode {
  role?: string;
  alt?: string;
  children?: StructNode[];
  type?: string;
}

/** The structure tree's roles on a page in reading order, as pdf.js (Firefox's reader) gives it to assistive technology. */
async function structRoles(path: string, pageNumber: number): Promise<{ roles: string[]; alts: string[] }> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(await readFile(path)), verbosity: 0 });
  try {
    const tree = (await (await (await task.promise).getPage(pageNumber)).getStructTree()) as StructNode | null;
    const roles: string[] = [];
    const alts: string[] = [];
    const walk = (node: StructNode) => {
      if (node.role) roles.push(node.role);
      if (node.alt) alts.push(node.alt);
      node.children?.forEach(walk);
    };
    if (tree) walk(tree);
    return { roles, alts };
  } finally {
    await task.destroy();
  }
}

function longSummary(base: SummaryItem, count: number): SummaryItem {
  const summary = structuredClone(base);
  const meds = summary.sections.find((s) => s.key === 'medications');
  const model = meds?.facts[0];
  if (!meds || !model) throw new Error('the case has medications');
  meds.facts = Array.from({ length: count }, (_, i) => ({
    ...model,
    id: `m${i}`,
    text: `Medicine number ${i + 1} ${i % 7 === 0 ? 'taken with food in the morning and evening, and not with grapefruit juice or other interacting foods, as the pharmacist explained' : '10 mg by mouth daily'}`,
  }));
  return summary;
}

const QR = 'https://medfolio.example/summary/AbCdEfGhIjKlMnOpQrStUv';
const link = { label: 'For the clinic', expiresAt: new Date('2026-12-24T10:00:00Z') };
const patient = { patientName: 'Zoë Ångström-Łukasiewicz', patientBirthDate: '1961-03-07' };

describeWithTools('summary PDF, read by poppler, qpdf and pdf.js', () => {
  it.each(PAPER_SIZES)('%s: short summaries on one page, long ones over numbered pages, never into the footer', async (size: PaperSize) => {
    const discharge = corpus.get('discharge-summary') as SummaryItem;
    const cases: [string, SummaryItem, number | 'several'][] = [
      ['discharge-summary', discharge, 1],
      ['urgent-care-none-known', corpus.get('urgent-care-none-known') as SummaryItem, 1],
      // On one page only at a smaller font.
      ['long-14', longSummary(discharge, 14), 1],
      // Just past one page at the smallest size, and well past it: each page break falls somewhere else.
      ['long-60', longSummary(discharge, 60), 'several'],
      ['long-140', longSummary(discharge, 140), 'several'],
    ];
    /** The height of the list items' words: the body font size, as the reader measures it. */
    const itemHeight = (pages: Page[]) => {
      const words = pages[0]?.words ?? [];
      const bullet = words.findIndex((w) => w.text === '\u2022');
      const word = words[bullet + 1];
      return word ? word.yMax - word.yMin : 0;
    };
    const heights = new Map<string, number>();
    for (const [name, summary, expectedPages] of cases) {
      const path = await save(await summaryToPdf(summary, { size, qrText: QR, link, ...patient }), `${size}-${name}`);
      const pages = await wordBoxes(path);
      const meta = await info(path);
      expect({ name, problems: layoutProblems(pages) }).toEqual({ name, problems: [] });
      expect({ name, pages: Number(meta['Pages']) }).toEqual({ name, pages: expectedPages === 'several' ? expect.any(Number) : expectedPages });
      if (expectedPages === 'several') expect(pages.length).toBeGreaterThan(1);
      heights.set(name, itemHeight(pages));
      expect(meta['Tagged']).toBe('yes');
      expect(meta['PDF version']).toBe('1.7');
      expect(meta['Title']).toBe('Patient Summary: Zoë Ångström-Łukasiewicz, born 7 March 1961');
      const text = pages.map((p) => p.words.map((w) => w.text).join(' ')).join(' ');
      expect(text).toContain('Zoë Ångström-Łukasiewicz');
      expect(text).toContain('Date of birth: 7 March 1961');
      // Every list item printed once, with its bullet.
      const items = summary.sections.flatMap((s) => s.facts.filter((f) => !f.hidden));
      expect(pages.flatMap((p) => p.words).filter((w) => w.text === '\u2022')).toHaveLength(items.length);
      if (pages.length > 1) {
        pages.forEach((page, i) => expect(page.words.map((w) => w.text).join(' ')).toContain(`Page ${i + 1} of ${pages.length}`));
        // Later pages say whose summary it is.
        expect(pages[1]?.words.map((w) => w.text).join(' ')).toContain('Patient Summary for Zoë Ångström-Łukasiewicz, born 7 March 1961 (continued)');
        const meds = summary.sections.find((s) => s.key === 'medications')?.facts ?? [];
        expect(text).toContain(`Medicine number ${meds.length} `);
      }
      const fontRows = await fonts(path);
      expect(fontRows.length).toBeGreaterThan(0);
      expect(fontRows.filter((f) => !f.embedded)).toEqual([]);
      expect(fontRows.every((f) => f.name.includes('DejaVuSansCondensed'))).toBe(true);
      const check = await run('qpdf', ['--check', path]);
      expect(check.stdout).toContain('No syntax or stream encoding errors found');
    }
    // The font shrank to keep long-14 on one page.
    expect(heights.get('long-14')).toBeLessThan((heights.get('discharge-summary') ?? 0) - 0.5);
  }, 120_000);

  it('has a structure tree in reading order: heading, paragraphs, the QR as a figure with alternative text, sections with lists', async () => {
    const path = await save(
      await summaryToPdf(corpus.get('discharge-summary') as SummaryItem, { size: 'a4', qrText: QR, link, ...patient }),
      'structure',
    );
    const { roles, alts } = await structRoles(path, 1);
    expect(roles[0]).toBe('Root');
    expect(roles).toEqual(expect.arrayContaining(['Document', 'H1', 'P', 'Figure', 'Sect', 'H2', 'L', 'LI', 'Lbl', 'LBody']));
    expect(roles.indexOf('H1')).toBeLessThan(roles.indexOf('H2'));
    expect(roles.filter((r) => r === 'LI').length).toBe(roles.filter((r) => r === 'LBody').length);
    expect(alts).toContain('QR code that opens the latest version of this summary');
    const { stdout } = await run('pdfinfo', ['-meta', path]);
    expect(stdout).toContain('<pdfuaid:part>1</pdfuaid:part>');
  });

  it('the checks fail a page whose last item runs into the footer and leaves a bullet behind (the A4 fault an outside check found)', async () => {
    // Drawn as the old layout did: a bullet, then text that pdfkit moved to the next page, and a line written over the footer.
    const doc = new PDFDocument({ size: 'A4', margin: 42 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise<void>((resolve) => doc.on('end', resolve));
    doc.font('Helvetica').fontSize(10).text('Atrial fibrillation', 54, 781);
    doc.text('\u2022', 44, 740, { lineBreak: false });
    doc.fontSize(7).text("Built by Medfolio from the patient's own records.", 42, 788, { lineBreak: false });
    doc.end();
    await ended;
    const path = await save(Buffer.concat(chunks), 'broken');
    const problems = layoutProblems(await wordBoxes(path));
    expect(problems).toEqual(
      expect.arrayContaining([expect.stringMatching(/"Atrial" runs into the footer|"Atrial" overlaps/), expect.stringMatching(/a bullet with no text beside it/)]),
    );
    expect((await info(path))['Tagged']).toBe('no');
    expect((await fonts(path)).some((f) => !f.embedded)).toBe(true);
  });
});
