import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { SummaryItem } from '@medfolio/contracts';
import { extractDocument } from '../extract/extract';
import { corpusSummaries } from '../fhir/testing/corpus';
import { formatBirthDate, printable, summaryPdfFilename, summaryToPdf } from './summary-pdf';

let corpus: Map<string, SummaryItem>;
let dir: string;
beforeAll(async () => {
  corpus = await corpusSummaries();
  dir = await mkdtemp(join(tmpdir(), 'summary-pdf-'));
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The first page's text layer as it is, running footer included. */
async function pageTextLayer(path: string): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(await readFile(path)), verbosity: 0 });
  try {
    const content = await (await (await task.promise).getPage(1)).getTextContent();
    return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  } finally {
    await task.destroy();
  }
}

/** The PDF read back as the product reads uploads (pdf.js): its pages' text, and its page size. */
async function readBack(pdf: Buffer): Promise<{ pages: string[]; size: { width: number; height: number } }> {
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const path = join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(path, pdf);
  const read = await extractDocument({ documentId: 'd', filename: 'summary.pdf', path }, { ocr: false });
  expect(read.problems).toEqual([]);
  const loaded = await PDFDocument.load(pdf);
  expect(loaded.getPageCount()).toBe(read.texts.length);
  return { pages: read.texts.map((t) => t.text.replace(/\s+/g, ' ')), size: loaded.getPage(0).getSize() };
}

const link = { label: 'For the clinic', expiresAt: new Date('2026-12-24T10:00:00Z') };
const QR = 'https://medfolio.example/summary/AbCdEfGhIjKlMnOpQrStUv';

describe('summaryToPdf', () => {
  it('prints a corpus summary on one A4 and one Letter page with its facts, the link and its expiry', async () => {
    const summary = corpus.get('discharge-summary') as SummaryItem;
    const a4 = await readBack(
      await summaryToPdf(summary, {
        size: 'a4',
        qrText: QR,
        link,
        patientName: 'Ada Example',
        patientBirthDate: '1961-03-07',
      }),
    );
    expect(a4.size).toEqual({ width: 595.28, height: 841.89 });
    expect(a4.pages).toHaveLength(1);
    const text = a4.pages[0] ?? '';
    for (const expected of [
      'Patient Summary',
      'Ada Example',
      'Date of birth: 7 March 1961',
      'Current Medical Conditions',
      'Atrial fibrillation',
      'Medications',
      'Apixaban 5 mg',
      'Allergies',
      'Lisinopril',
      'For the clinic',
      'Link valid until 24 December 2026 at 10:00 UTC',
    ]) {
      expect(text).toContain(expected);
    }
    // With an SHL after '#' the QR text is long (about 350 characters): a bigger code, still one page.
    const longQr = `${QR}#shlink:/${'eyJ1cmwiOiJodHRwczovL21lZGZvbGlv'.repeat(10)}`;
    const letter = await readBack(
      await summaryToPdf(summary, { size: 'letter', qrText: longQr, link: { ...link, expiresAt: null } }),
    );
    expect(letter.size).toEqual({ width: 612, height: 792 });
    expect(letter.pages).toHaveLength(1);
    expect(letter.pages[0]).toContain('Link does not expire');
    expect(letter.pages[0]).not.toContain('Date of birth');
  });

  it('fits every corpus summary on one page, says "None known" and "Not recorded", and leaves hidden facts out', async () => {
    for (const [name, summary] of corpus) {
      const { pages } = await readBack(await summaryToPdf(summary, { size: 'a4', qrText: QR, link }));
      expect({ name, pages: pages.length }).toEqual({ name, pages: 1 });
    }
    const lab = (await readBack(await summaryToPdf(corpus.get('lab-report') as SummaryItem, { size: 'a4' }))).pages[0];
    expect(lab).toContain('Not recorded');
    const summary = structuredClone(corpus.get('urgent-care-none-known') as SummaryItem);
    const condition = summary.sections.find((s) => s.key === 'current_conditions')?.facts[0];
    if (!condition) throw new Error('the case has a condition');
    condition.hidden = true;
    const page = (await readBack(await summaryToPdf(summary, { size: 'letter', qrText: QR }))).pages[0];
    expect(page).toContain('None known (No Known Allergies)');
    expect(page).not.toContain(condition.text);
  });

  it('goes over several numbered pages only when the summary cannot fit on one', async () => {
    const summary = structuredClone(corpus.get('discharge-summary') as SummaryItem);
    const meds = summary.sections.find((s) => s.key === 'medications');
    const model = meds?.facts[0];
    if (!meds || !model) throw new Error('the case has medications');
    meds.facts = Array.from({ length: 140 }, (_, i) => ({
      ...model,
      id: `m${i}`,
      text: `Medicine number ${i + 1} 10 mg by mouth daily`,
    }));
    const pdf = await summaryToPdf(summary, { size: 'a4', qrText: QR, link });
    const { pages } = await readBack(pdf);
    const path0 = join(dir, 'numbered.pdf');
    await writeFile(path0, pdf);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    // The reader drops running footers and page numbers (extract/pdf-layout.ts): the page's own text layer has it.
    expect(pages[0]).not.toContain('Page 1 of');
    expect(await pageTextLayer(path0)).toContain(`Page 1 of ${pages.length}`);
    expect(pages.join(' ')).toContain('Medicine number 140 10 mg');
  });

  it("prints what the embedded font has as itself and the rest as '?', and names the file without ids", () => {
    expect(printable('Temp 38 °C – “high” ≥ 38 → see note ✓ 肺炎')).toBe('Temp 38 °C – “high” ≥ 38 → see note ✓ ??');
    expect(printable('Zoë Ångström-Łukasiewicz, Ελένη, Дмитрий\u00a0肺\n')).toBe('Zoë Ångström-Łukasiewicz, Ελένη, Дмитрий ? ');
    expect([formatBirthDate('1961-03-07'), formatBirthDate('1961-03'), formatBirthDate('1961')]).toEqual([
      '7 March 1961',
      'March 1961',
      '1961',
    ]);
    expect(summaryPdfFilename('letter', new Date('2026-11-24T10:00:00Z'))).toBe(
      'Medfolio_summary_2026-11-24_letter.pdf',
    );
  });
});
