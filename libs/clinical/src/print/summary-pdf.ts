// The printable summary: one A4 or Letter page where it fits (the font shrinks a little before a
// second page is used), with the share link's QR code and expiry, so a patient can hand a doctor
// paper that opens the latest summary. Made with pdfkit (text layout and wrapping built in); the
// QR modules come from uqr, the encoder the web app draws its QR with, drawn as vector squares.
//
// Accessible and self-contained: a tagged PDF 1.7 marked as PDF/UA-1 (a structure tree of
// headings, lists and paragraphs in reading order, the QR a Figure with alternative text, the rule,
// running header and footer marked as artifacts, the document's language and title), and DejaVu Sans
// Condensed embedded (subset), so a reader needs no fonts of its own and characters beyond
// Windows-1252 print as themselves. Pages are laid out here, item by item, never by pdfkit's own page
// breaks: an item that does not fit above the footer goes whole to the next page, a heading with it.
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { encode } from 'uqr';
import type { SummaryFact, SummaryItem, SummarySectionItem, TrendSeries } from '@medfolio/contracts';

export type PaperSize = 'a4' | 'letter';
export const PAPER_SIZES: readonly PaperSize[] = ['a4', 'letter'];

export interface SummaryPdfOptions {
  size: PaperSize;
  /** What the QR code encodes (the share link's page, with its SHL after '#' when it is one); none: no QR. */
  qrText?: string | null;
  /** The share link's label and expiry, printed under the QR. */
  link?: { label: string; expiresAt: Date | null } | null;
  /** The patient's name, when known. */
  patientName?: string | null;
  /** The patient's date of birth (ISO `YYYY-MM-DD`, or a partial `YYYY`/`YYYY-MM`), when known. */
  patientBirthDate?: string | null;
  /** Printed as the date of the page; default now. */
  now?: Date;
  brand?: string;
}

/** Points, portrait. */
const PAGE: Record<PaperSize, [number, number]> = { a4: [595.28, 841.89], letter: [612, 792] };
const MARGIN = 42;
/** The QR's side in points: 104 (37 mm); 132 (47 mm) for long texts (an SHL), so a module stays about 0.6 mm. */
const QR_SIZE = 104;
const QR_SIZE_LONG = 132;
const FOOTER_HEIGHT = 30;
/** Body font sizes tried, largest first, for the summary to fit on one page. */
const BODY_SIZES = [10, 9.5, 9, 8.5, 8, 7.5];

/** The embedded fonts (DejaVu, free licence: the dejavu-fonts-ttf package's LICENSE). */
const FONT_FILES = {
  body: 'DejaVuSansCondensed.ttf',
  bold: 'DejaVuSansCondensed-Bold.ttf',
  quiet: 'DejaVuSansCondensed-Oblique.ttf',
} as const;
type FontName = keyof typeof FONT_FILES;

/** A font as fontkit (pdfkit's font engine) parses it: pdfkit takes it as is, so it is parsed once per process. */
interface FontkitFont {
  layout: (...args: unknown[]) => unknown;
  hasGlyphForCodePoint(codePoint: number): boolean;
}

let fonts: { faces: Record<FontName, FontkitFont>; covers: (codePoint: number) => boolean } | undefined;

/** The fonts (read and parsed once per process) and which characters all three faces can draw. */
function loadFonts(): NonNullable<typeof fonts> {
  if (fonts) return fonts;
  const fontkit = require('fontkit') as { create(data: Buffer): FontkitFont };
  const read = (file: string) => fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
  const faces = { body: read(FONT_FILES.body), bold: read(FONT_FILES.bold), quiet: read(FONT_FILES.quiet) };
  const all = Object.values(faces);
  const known = new Map<number, boolean>();
  const covers = (codePoint: number) => {
    let has = known.get(codePoint);
    if (has === undefined) {
      has = all.every((face) => face.hasGlyphForCodePoint(codePoint));
      known.set(codePoint, has);
    }
    return has;
  };
  fonts = { faces, covers };
  return fonts;
}

/**
 * Text as the embedded fonts can print it: one line, spaces made plain, and a character none of the
 * faces has (CJK, emoji) as '?' rather than an empty box.
 */
export function printable(text: string): string {
  const { covers } = loadFonts();
  return text
    .normalize('NFC')
    .replace(/[\u00a0\u2000-\u200b\u202f]/g, ' ')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/./gu, (c) => {
      const code = c.codePointAt(0) ?? 0;
      return code >= 0x20 && code !== 0x7f && covers(code) ? c : '?';
    });
}

// Made once: a formatter costs far more to make than to use.
const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const MONTH = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

function formatDate(date: Date): string {
  return DATE.format(date);
}

/** A FHIR-style date (YYYY, YYYY-MM or YYYY-MM-DD, maybe with a time) as printed; anything else as given. */
export function formatBirthDate(value: string): string {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value.trim());
  if (!match) return printable(value);
  const [, year, month, day] = match;
  if (day) return formatDate(new Date(`${year}-${month}-${day}T00:00:00Z`));
  if (month)
    return MONTH.format(new Date(`${year}-${month}-01T00:00:00Z`));
  return year ?? value;
}

function formatDateTime(date: Date): string {
  return `${DATE_TIME.format(date)} UTC`;
}

function factLine(fact: SummaryFact): string {
  const parts = [fact.text];
  if (fact.status && fact.status !== 'unknown' && !fact.text.toLowerCase().includes(fact.status))
    parts.push(`(${fact.status})`);
  if (fact.certainty === 'possible') parts.push('(possible)');
  const when = fact.onset
    ? fact.end
      ? `${fact.onset} to ${fact.end}`
      : `since ${fact.onset}`
    : fact.end
      ? `until ${fact.end}`
      : '';
  if (when && !fact.text.includes(fact.onset ?? '\u0000')) parts.push(`- ${when}`);
  if (fact.category === 'allergy' && fact.details) {
    const d = [fact.details['reaction'], fact.details['severity']].filter(Boolean).join(', ');
    if (d && !fact.text.includes(d)) parts.push(`(${d})`);
  }
  return printable(parts.join(' '));
}

interface Block {
  heading: string;
  lines: string[];
  /** "None known" / "Not recorded": printed in grey italics. */
  quiet: boolean;
}

/** Said at the top, and no section, when the patient has not reviewed any summary yet (a share link before review). */
export const NOT_REVIEWED_TEXT = 'The patient has not reviewed this summary yet.';
/** Said at the top when this version is not the one the patient confirmed (the owner's own print of a newer build). */
export const VERSION_NOT_REVIEWED_TEXT = 'This version has not been reviewed by the patient yet.';

/** Whether the patient confirmed exactly this version (only then does the page say "reviewed by the patient"). */
export function reviewedByPatient(summary: SummaryItem): boolean {
  return summary.status !== 'unreviewed' && summary.confirmed_version !== null && summary.confirmed_version === summary.version;
}

function blocksOf(summary: SummaryItem): Block[] {
  if (summary.status === 'unreviewed') return [];
  return summary.sections.map((section: SummarySectionItem) => {
    const facts = section.facts.filter((f) => !f.hidden);
    if (facts.length > 0) return { heading: printable(section.title), lines: facts.map(factLine), quiet: false };
    if (section.state === 'none_known') {
      const said = section.none_known?.text;
      return {
        heading: printable(section.title),
        lines: [printable(said ? `None known (${said})` : 'None known')],
        quiet: true,
      };
    }
    return { heading: printable(section.title), lines: ['Not recorded'], quiet: true };
  });
}

type Doc = InstanceType<typeof PDFDocument>;
type Struct = ReturnType<Doc['struct']>;

/** Space after a heading, between list items and after a section, as fractions of the body size. */
const GAP = { heading: 0.35, item: 0.2, section: 0.8 } as const;
/** The bullet's column: items are indented this much. */
const INDENT = 12;

/** One thing placed on a page: a section heading or one of its lines, at its top y. */
interface Placed {
  block: Block;
  /** -1: the heading; otherwise the line's index. */
  line: number;
  page: number;
  y: number;
  height: number;
}

interface Frame {
  width: number;
  /** Where the sections start on page 1 (under the header) and on later pages (under the running header). */
  firstTop: number;
  nextTop: number;
  /** Nothing of the sections below this (the footer's top, less a gap). */
  bottom: number;
}

function headingHeight(doc: Doc, text: string, size: number, width: number): number {
  return doc.font('bold').fontSize(size + 2).heightOfString(text, { width });
}

function lineHeight(doc: Doc, block: Block, line: string, size: number, width: number): number {
  return doc
    .font(block.quiet ? 'quiet' : 'body')
    .fontSize(size)
    .heightOfString(line, { width: width - INDENT });
}

/**
 * Where each heading and line goes at a body font size: the same measure the drawing uses, so a
 * page count found here is the page count printed. An item that does not fit above the footer
 * starts the next page whole, and a heading never ends a page (it moves with its first line).
 */
function paginate(doc: Doc, blocks: Block[], size: number, frame: Frame): { placed: Placed[]; pages: number } {
  const placed: Placed[] = [];
  let page = 0;
  let y = frame.firstTop;
  const fits = (height: number) => y + height <= frame.bottom;
  const newPage = () => {
    page++;
    y = frame.nextTop;
  };
  for (const block of blocks) {
    const heading = headingHeight(doc, block.heading, size, frame.width);
    const first = block.lines[0] === undefined ? 0 : lineHeight(doc, block, block.lines[0], size, frame.width);
    const atTop = y === (page === 0 ? frame.firstTop : frame.nextTop);
    if (!atTop && !fits(heading + size * GAP.heading + first)) newPage();
    placed.push({ block, line: -1, page, y, height: heading });
    y += heading + size * GAP.heading;
    block.lines.forEach((line, index) => {
      const height = lineHeight(doc, block, line, size, frame.width);
      if (index > 0 && !fits(height)) newPage();
      placed.push({ block, line: index, page, y, height });
      y += height + size * GAP.item;
    });
    y += size * GAP.section;
  }
  return { placed, pages: page + 1 };
}

function drawQr(doc: Doc, text: string, x: number, y: number, size: number): void {
  const { data } = encode(text, { ecc: 'M', border: 0 });
  const modules = data.length;
  const cell = size / modules;
  doc.save().fillColor('#000000');
  for (let row = 0; row < modules; row++) {
    let col = 0;
    const cells = data[row] ?? [];
    while (col < modules) {
      if (!cells[col]) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules && cells[col]) col++;
      // A hair wider than the cell, so neighbouring squares leave no seam when printed.
      doc.rect(x + start * cell, y + row * cell, (col - start) * cell + 0.05, cell + 0.05);
    }
  }
  doc.fill();
  doc.restore();
}

/** The patient as the page names them: "Name, born 7 March 1961", either part when known. */
function patientLine(options: SummaryPdfOptions): string | null {
  const name = options.patientName ? printable(options.patientName) : '';
  const born = options.patientBirthDate ? `born ${formatBirthDate(options.patientBirthDate)}` : '';
  return [name, born].filter(Boolean).join(', ') || null;
}

/** The summary as a PDF (bytes). Hidden facts are left out, as on the shared page. */
export async function summaryToPdf(summary: SummaryItem, options: SummaryPdfOptions): Promise<Buffer> {
  const [pageWidth, pageHeight] = PAGE[options.size];
  const now = options.now ?? new Date();
  const brand = options.brand ?? 'Medfolio';
  const patient = patientLine(options);
  const title = `Patient Summary${patient ? `: ${patient}` : ''}`;
  const { faces } = loadFonts();
  const doc = new PDFDocument({
    size: [pageWidth, pageHeight],
    // The body face from the start (pdfkit would otherwise parse Helvetica's metrics for every document).
    font: faces.body as unknown as string,
    margin: MARGIN,
    autoFirstPage: true,
    bufferPages: true,
    pdfVersion: '1.7',
    // @types/pdfkit knows only the PDF/A names; pdfkit 0.20 also takes 'PDF/UA' (PDF/UA-1 identification in the XMP).
    subset: 'PDF/UA' as PDFKit.Mixins.PDFSubsets,
    tagged: true,
    lang: 'en-GB',
    displayTitle: true,
    info: { Title: title, Subject: `${brand} patient summary`, Creator: brand, Producer: brand, CreationDate: now },
  });
  // pdfkit takes a parsed fontkit font as a font source (PDFFontFactory.open); @types/pdfkit lists only files and bytes.
  for (const name of Object.keys(faces) as FontName[]) doc.registerFont(name, faces[name] as unknown as Buffer);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const contentWidth = pageWidth - 2 * MARGIN;
  const hasQr = Boolean(options.qrText);
  const qrSize = (options.qrText?.length ?? 0) > 200 ? QR_SIZE_LONG : QR_SIZE;
  const headerTextWidth = contentWidth - (hasQr ? qrSize + 16 : 0);
  const root = doc.struct('Document');
  doc.addStructure(root);
  /** A paragraph (or heading) of the structure tree, drawn by `draw`. */
  const tagged = (parent: Struct, type: string, draw: () => void) => parent.add(doc.struct(type, {}, draw));
  /** Drawn, but no part of the content (layout, repeated headers and footers). */
  const artifact = (type: 'Layout' | 'Pagination', draw: () => void) => {
    doc.markContent('Artifact', { type });
    draw();
    doc.endMarkedContent();
  };

  // Header: title, patient, date; the QR and the link's expiry on the right.
  tagged(root, 'H1', () => {
    doc.font('bold').fontSize(20).fillColor('#111111').text('Patient Summary', MARGIN, MARGIN, { width: headerTextWidth });
  });
  doc.moveDown(0.2);
  if (options.patientName) {
    const name = printable(options.patientName);
    tagged(root, 'P', () => {
      doc.font('body').fontSize(12).text(name, { width: headerTextWidth });
    });
  }
  if (options.patientBirthDate) {
    const born = `Date of birth: ${formatBirthDate(options.patientBirthDate)}`;
    tagged(root, 'P', () => {
      doc.font('body').fontSize(10).text(born, { width: headerTextWidth });
    });
  }
  tagged(root, 'P', () => {
    doc
      .font('body')
      .fontSize(9)
      .fillColor('#444444')
      .text(`Printed ${formatDate(now)} from ${brand}. Summary updated ${formatDate(new Date(summary.updated_at))}.`, {
        width: headerTextWidth,
      });
  });
  if (hasQr) {
    tagged(root, 'P', () => {
      doc.text('Scan the code for the latest version of this summary.', { width: headerTextWidth });
    });
  }
  if (!reviewedByPatient(summary)) {
    doc.moveDown(0.3);
    tagged(root, 'P', () => {
      doc
        .font('bold')
        .fontSize(11)
        .fillColor('#8a4b00')
        .text(summary.status === 'unreviewed' ? NOT_REVIEWED_TEXT : VERSION_NOT_REVIEWED_TEXT, { width: headerTextWidth });
    });
    if (summary.status === 'unreviewed') {
      tagged(root, 'P', () => {
        doc
          .font('body')
          .fontSize(9)
          .fillColor('#444444')
          .text('Nothing from their records is shown until they review and confirm it; ask the patient.', { width: headerTextWidth });
      });
    }
  }
  let headerBottom = doc.y;
  if (hasQr && options.qrText) {
    const qrText = options.qrText;
    const qrX = pageWidth - MARGIN - qrSize;
    root.add(
      doc.struct(
        'Figure',
        // bbox and placement: layout attributes pdfkit 0.20 writes, not yet in @types/pdfkit.
        {
          alt: 'QR code that opens the latest version of this summary',
          bbox: [qrX, MARGIN, qrX + qrSize, MARGIN + qrSize],
          placement: 'Block',
        } as PDFKit.Mixins.StructureElementOptions,
        () => drawQr(doc, qrText, qrX, MARGIN, qrSize),
      ),
    );
    const caption = options.link
      ? `${printable(options.link.label)}\n${options.link.expiresAt ? `Link valid until ${formatDateTime(options.link.expiresAt)}` : 'Link does not expire'}`
      : '';
    if (caption) {
      tagged(root, 'P', () => {
        doc
          .font('body')
          .fontSize(7.5)
          .fillColor('#444444')
          .text(caption, qrX - 8, MARGIN + qrSize + 4, { width: qrSize + 16, align: 'center' });
      });
      headerBottom = Math.max(headerBottom, doc.y);
    } else headerBottom = Math.max(headerBottom, MARGIN + qrSize);
  }
  const top = headerBottom + 10;
  artifact('Layout', () => {
    doc
      .moveTo(MARGIN, top - 5)
      .lineTo(pageWidth - MARGIN, top - 5)
      .lineWidth(0.5)
      .strokeColor('#999999')
      .stroke();
  });

  // Sections: the largest font that fits on this page; if none does, 9 pt over several pages.
  const blocks = blocksOf(summary);
  const running = `Patient Summary${patient ? ` for ${patient}` : ''} (continued)`;
  const runningHeight = doc.font('body').fontSize(8).heightOfString(running, { width: contentWidth });
  const frame: Frame = {
    width: contentWidth,
    firstTop: top,
    nextTop: MARGIN + runningHeight + 10,
    bottom: pageHeight - MARGIN - FOOTER_HEIGHT,
  };
  let layout: { size: number; placed: Placed[] } | undefined;
  for (const tried of BODY_SIZES) {
    const { placed: at, pages } = paginate(doc, blocks, tried, frame);
    if (pages === 1) {
      layout = { size: tried, placed: at };
      break;
    }
  }
  const { size, placed } = layout ?? { size: 9, placed: paginate(doc, blocks, 9, frame).placed };
  let page = 0;
  let section: Struct | null = null;
  let list: Struct | null = null;
  const closeSection = () => {
    list?.end();
    section?.end();
    list = null;
    section = null;
  };
  for (const item of placed) {
    while (item.page > page) {
      doc.addPage();
      page++;
      artifact('Pagination', () => {
        doc.font('body').fontSize(8).fillColor('#666666').text(running, MARGIN, MARGIN, { width: contentWidth });
      });
    }
    const { block } = item;
    // Never into the footer, whatever the measure said: an item taller than a whole page (no real
    // fact is) is cut there with an ellipsis. The half point absorbs rounding in the line sums.
    const room = { height: frame.bottom - item.y + 0.5, ellipsis: true };
    if (item.line === -1) {
      closeSection();
      const sect = doc.struct('Sect');
      root.add(sect);
      section = sect;
      tagged(sect, 'H2', () => {
        doc
          .font('bold')
          .fontSize(size + 2)
          .fillColor('#111111')
          .text(block.heading, MARGIN, item.y, { width: contentWidth, ...room });
      });
      continue;
    }
    const sect = section as Struct | null;
    if (!sect) continue;
    const line = block.lines[item.line] ?? '';
    if (block.quiet) {
      tagged(sect, 'P', () => {
        doc
          .font('quiet')
          .fontSize(size)
          .fillColor('#555555')
          .text(line, MARGIN + INDENT, item.y, { width: contentWidth - INDENT, ...room });
      });
      continue;
    }
    let items = list as Struct | null;
    if (!items) {
      items = doc.struct('L');
      sect.add(items);
      list = items;
    }
    // The bullet is text (a label a reader skips or announces), drawn on the same baseline as the item.
    const entry = doc.struct('LI');
    items.add(entry);
    tagged(entry, 'Lbl', () => {
      doc.font('body').fontSize(size).fillColor('#333333').text('\u2022', MARGIN + 2, item.y, { lineBreak: false });
    });
    tagged(entry, 'LBody', () => {
      doc
        .font('body')
        .fontSize(size)
        .fillColor('#111111')
        .text(line, MARGIN + INDENT, item.y, { width: contentWidth - INDENT, ...room });
    });
    entry.end();
  }
  closeSection();
  if (summary.trends?.length) {
    drawTrends(doc, root, summary.trends, {
      width: contentWidth,
      top: frame.nextTop,
      bottom: frame.bottom,
      newPage: () => {
        doc.addPage();
        artifact('Pagination', () => {
          doc.font('body').fontSize(8).fillColor('#666666').text(running, MARGIN, MARGIN, { width: contentWidth });
        });
      },
      tagged,
      artifact,
    });
  }
  root.end();

  // Footer on every page: what this is, and the page number when there is more than one.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const review = reviewedByPatient(summary) ? ' and reviewed by the patient' : ', not yet reviewed by the patient';
    const footer = `Built by ${brand} from the patient's own records${review}; check important facts with the source documents.${range.count > 1 ? `  Page ${i + 1} of ${range.count}.` : ''}`;
    // Writing below the bottom margin must not start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    artifact('Pagination', () => {
      doc
        .font('body')
        .fontSize(7)
        .fillColor('#666666')
        .text(footer, MARGIN, pageHeight - MARGIN - 12, { width: contentWidth, lineBreak: true });
    });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

const FLAG_TEXT: Record<string, string> = { low: 'Low', high: 'High', abnormal: 'Abnormal', normal: 'Normal' };

/** A reference range as the table shows it. */
function rangeCell(range: TrendSeries['points'][number]['range']): string {
  if (!range) return '';
  if (range.low !== null && range.high !== null) return `${range.low} – ${range.high}`;
  if (range.low !== null) return `≥ ${range.low}`;
  if (range.high !== null) return `≤ ${range.high}`;
  return range.text ?? '';
}

/**
 * The health trends a share link includes, from a new page: per series a heading (name and unit)
 * and a tagged table (Date, Value, Reference range, Flag; a header row repeated as an artifact on
 * each page the table runs onto), out-of-range values in bold.
 */
function drawTrends(
  doc: PDFKit.PDFDocument,
  root: Struct,
  trends: TrendSeries[],
  ctx: {
    width: number;
    top: number;
    bottom: number;
    newPage: () => void;
    tagged: (parent: Struct, type: string, draw: () => void) => void;
    artifact: (type: 'Layout' | 'Pagination', draw: () => void) => void;
  },
): void {
  const { width, bottom, tagged, artifact } = ctx;
  const size = 9;
  const rowHeight = 14;
  const columns = [0.24, 0.22, 0.34, 0.2].map((f) => f * width);
  const xs = columns.map((_, i) => MARGIN + columns.slice(0, i).reduce((a, b) => a + b, 0));
  const headers = ['Date', 'Value', 'Reference range', 'Flag'];
  ctx.newPage();
  let y = ctx.top;
  const sect = doc.struct('Sect');
  root.add(sect);
  tagged(sect, 'H2', () => {
    doc.font('bold').fontSize(12).fillColor('#111111').text('Health trends', MARGIN, y, { width });
  });
  y = doc.y + 2;
  tagged(sect, 'P', () => {
    doc
      .font('body')
      .fontSize(8.5)
      .fillColor('#444444')
      .text('Results the patient chose to share, oldest first, each test in one unit (converted where the records used another).', MARGIN, y, { width });
  });
  y = doc.y + 6;
  const headerRow = (parent: Struct | null) => {
    const draw = (i: number) => () => {
      doc.font('bold').fontSize(size).fillColor('#111111').text(headers[i] ?? '', (xs[i] ?? MARGIN) + 2, y + 2, { width: (columns[i] ?? 0) - 4, lineBreak: false, ellipsis: true });
    };
    if (parent) {
      const tr = doc.struct('TR');
      parent.add(tr);
      headers.forEach((_, i) => tagged(tr, 'TH', draw(i)));
      tr.end();
    } else artifact('Layout', () => headers.forEach((_, i) => draw(i)()));
    artifact('Layout', () => {
      doc.moveTo(MARGIN, y + rowHeight).lineTo(MARGIN + width, y + rowHeight).lineWidth(0.5).strokeColor('#999999').stroke();
    });
    y += rowHeight + 1;
  };
  for (const series of trends) {
    if (y + 2.5 * rowHeight + 20 > bottom) {
      ctx.newPage();
      y = ctx.top;
    }
    const heading = `${printable(series.name)}${series.unit ? ` (${printable(series.unit)})` : ''}`;
    tagged(sect, 'H3', () => {
      doc.font('bold').fontSize(10).fillColor('#111111').text(heading, MARGIN, y, { width });
    });
    y = doc.y + 3;
    const table = doc.struct('Table');
    sect.add(table);
    headerRow(table);
    for (const point of series.points) {
      if (y + rowHeight > bottom) {
        ctx.newPage();
        y = ctx.top;
        headerRow(null);
      }
      const out = point.flag === 'low' || point.flag === 'high' || point.flag === 'abnormal';
      const cells = [
        point.date ?? 'Undated',
        `${point.value}${series.unit ? ` ${printable(series.unit)}` : ''}`,
        rangeCell(point.range),
        point.flag ? (FLAG_TEXT[point.flag] ?? point.flag) : '',
      ];
      const tr = doc.struct('TR');
      table.add(tr);
      cells.forEach((text, i) =>
        tagged(tr, 'TD', () => {
          doc
            .font(out && (i === 1 || i === 3) ? 'bold' : 'body')
            .fontSize(size)
            .fillColor(out && (i === 1 || i === 3) ? '#8a1c00' : '#111111')
            .text(text, (xs[i] ?? MARGIN) + 2, y + 2, { width: (columns[i] ?? 0) - 4, lineBreak: false, ellipsis: true });
        }),
      );
      tr.end();
      y += rowHeight;
    }
    table.end();
    y += 8;
  }
  sect.end();
}

/** A file name for the download: `<brand>_summary_<date>_<size>.pdf` (no names, no ids). */
export function summaryPdfFilename(size: PaperSize, now = new Date(), brand = 'Medfolio'): string {
  return `${brand}_summary_${now.toISOString().slice(0, 10)}_${size}.pdf`;
}
