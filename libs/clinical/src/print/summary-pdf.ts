// The printable summary: one A4 or Letter page where it fits (the font shrinks a little before a
// second page is used), with the share link's QR code and expiry, so a patient can hand a doctor
// paper that opens the latest summary. Made with pdfkit (text layout and wrapping built in); the
// QR modules come from uqr, the encoder the web app draws its QR with, drawn as vector squares.
import PDFDocument from 'pdfkit';
import { encode } from 'uqr';
import type { SummaryFact, SummaryItem, SummarySectionItem } from '@medfolio/contracts';

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

/**
 * The standard PDF fonts carry Windows-1252 (WinAnsi) only: other characters print as '?', and a
 * few common ones get their nearest equivalent first, so nothing prints as garbage.
 */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
export function printable(text: string): string {
  return text
    .normalize('NFC')
    .replace(/[\u2010-\u2012]/g, '-')
    .replace(/[\u2190-\u21ff]/g, '->')
    .replace(/[\u2264]/g, '<=')
    .replace(/[\u2265]/g, '>=')
    .replace(/[\u00a0\u2000-\u200b\u202f]/g, ' ')
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/./gu, (c) => {
      const code = c.codePointAt(0) ?? 0;
      return (code >= 0x20 && code <= 0x7e) || (code >= 0xa1 && code <= 0xff) || WIN_ANSI_EXTRA.has(c) ? c : '?';
    });
}

function formatDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** A FHIR-style date (YYYY, YYYY-MM or YYYY-MM-DD, maybe with a time) as printed; anything else as given. */
export function formatBirthDate(value: string): string {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value.trim());
  if (!match) return printable(value);
  const [, year, month, day] = match;
  if (day) return formatDate(new Date(`${year}-${month}-${day}T00:00:00Z`));
  if (month)
    return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${year}-${month}-01T00:00:00Z`),
    );
  return year ?? value;
}

function formatDateTime(date: Date): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
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

/** The height the sections take at a body font size (same calls as the drawing, so the same result). */
function measure(doc: Doc, blocks: Block[], size: number, width: number): number {
  let height = 0;
  for (const block of blocks) {
    doc.font('Helvetica-Bold').fontSize(size + 2);
    height += doc.heightOfString(block.heading, { width }) + size * 0.35;
    for (const line of block.lines) {
      doc.font(block.quiet ? 'Helvetica-Oblique' : 'Helvetica').fontSize(size);
      height += doc.heightOfString(line, { width: width - 12 }) + size * 0.2;
    }
    height += size * 0.8;
  }
  return height;
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

/** The summary as a PDF (bytes). Hidden facts are left out, as on the shared page. */
export async function summaryToPdf(summary: SummaryItem, options: SummaryPdfOptions): Promise<Buffer> {
  const [pageWidth, pageHeight] = PAGE[options.size];
  const now = options.now ?? new Date();
  const brand = options.brand ?? 'Medfolio';
  const doc = new PDFDocument({
    size: [pageWidth, pageHeight],
    margin: MARGIN,
    autoFirstPage: true,
    bufferPages: true,
    info: { Title: `${brand} patient summary`, Creator: brand, Producer: brand, CreationDate: now },
  });
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

  // Header: title, patient, date; the QR and the link's expiry on the right.
  doc
    .font('Helvetica-Bold')
    .fontSize(20)
    .fillColor('#111111')
    .text('Patient Summary', MARGIN, MARGIN, { width: headerTextWidth });
  doc.moveDown(0.2);
  if (options.patientName)
    doc.font('Helvetica').fontSize(12).text(printable(options.patientName), { width: headerTextWidth });
  if (options.patientBirthDate)
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(`Date of birth: ${formatBirthDate(options.patientBirthDate)}`, { width: headerTextWidth });
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#444444')
    .text(`Printed ${formatDate(now)} from ${brand}. Summary updated ${formatDate(new Date(summary.updated_at))}.`, {
      width: headerTextWidth,
    });
  if (hasQr) {
    doc.text('Scan the code for the latest version of this summary.', { width: headerTextWidth });
  }
  if (!reviewedByPatient(summary)) {
    doc.moveDown(0.3);
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .fillColor('#8a4b00')
      .text(summary.status === 'unreviewed' ? NOT_REVIEWED_TEXT : VERSION_NOT_REVIEWED_TEXT, { width: headerTextWidth });
    if (summary.status === 'unreviewed') {
      doc
        .font('Helvetica')
        .fontSize(9)
        .fillColor('#444444')
        .text('Nothing from their records is shown until they review and confirm it; ask the patient.', { width: headerTextWidth });
    }
  }
  let headerBottom = doc.y;
  if (hasQr && options.qrText) {
    const qrX = pageWidth - MARGIN - qrSize;
    drawQr(doc, options.qrText, qrX, MARGIN, qrSize);
    const caption = options.link
      ? `${printable(options.link.label)}\n${options.link.expiresAt ? `Link valid until ${formatDateTime(options.link.expiresAt)}` : 'Link does not expire'}`
      : '';
    doc
      .font('Helvetica')
      .fontSize(7.5)
      .fillColor('#444444')
      .text(caption, qrX - 8, MARGIN + qrSize + 4, { width: qrSize + 16, align: 'center' });
    headerBottom = Math.max(headerBottom, doc.y);
  }
  const top = headerBottom + 10;
  doc
    .moveTo(MARGIN, top - 5)
    .lineTo(pageWidth - MARGIN, top - 5)
    .lineWidth(0.5)
    .strokeColor('#999999')
    .stroke();

  // Sections: the largest font that fits on this page; if none does, 9 pt over several pages.
  const blocks = blocksOf(summary);
  const room = pageHeight - MARGIN - FOOTER_HEIGHT - top;
  const size = BODY_SIZES.find((s) => measure(doc, blocks, s, contentWidth) <= room) ?? 9;
  doc.x = MARGIN;
  doc.y = top;
  for (const block of blocks) {
    doc
      .font('Helvetica-Bold')
      .fontSize(size + 2)
      .fillColor('#111111')
      .text(block.heading, MARGIN, doc.y, { width: contentWidth });
    doc.y += size * 0.35;
    for (const line of block.lines) {
      doc
        .font(block.quiet ? 'Helvetica-Oblique' : 'Helvetica')
        .fontSize(size)
        .fillColor(block.quiet ? '#555555' : '#111111');
      if (!block.quiet)
        doc
          .save()
          .circle(MARGIN + 4, doc.y + size * 0.45, size * 0.14)
          .fill('#333333')
          .restore();
      doc.text(line, MARGIN + 12, doc.y, { width: contentWidth - 12 });
      doc.y += size * 0.2;
    }
    doc.y += size * 0.8;
  }

  // Footer on every page: what this is, and the page number when there is more than one.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const review = reviewedByPatient(summary) ? ' and reviewed by the patient' : ', not yet reviewed by the patient';
    const footer = `Built by ${brand} from the patient's own records${review}; check important facts with the source documents.${range.count > 1 ? `  Page ${i + 1} of ${range.count}.` : ''}`;
    // Writing below the bottom margin must not start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(7)
      .fillColor('#666666')
      .text(footer, MARGIN, pageHeight - MARGIN - 12, { width: contentWidth, lineBreak: true });
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}

/** A file name for the download: `<brand>_summary_<date>_<size>.pdf` (no names, no ids). */
export function summaryPdfFilename(size: PaperSize, now = new Date(), brand = 'Medfolio'): string {
  return `${brand}_summary_${now.toISOString().slice(0, 10)}_${size}.pdf`;
}
