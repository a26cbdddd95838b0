// Builders for the files the extraction tests read: every document is made here from text written
// for the tests (no real person), so each test shows what it feeds the reader.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, PDFName, PDFHexString, PDFNumber, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { ZipFile } from 'yazl';

/** A4 in PDF points. */
const A4 = { width: 595.28, height: 841.89 };

/** A PDF with a text layer: one entry of `pages` per page, one line per string. */
export async function pdfWithText(pages: string[][]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([A4.width, A4.height]);
    lines.forEach((line, i) => page.drawText(line, { x: 56, y: A4.height - 72 - i * 18, size: 12, font }));
  }
  return Buffer.from(await pdf.save());
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A picture of printed lines, as a scanner or phone would give: black serif text on white.
 * Default size is A4 at 300 dpi (2480 x 3508).
 */
export async function pngOfText(lines: string[], size = { width: 2480, height: 3508 }, fontPx = 44): Promise<Buffer> {
  const rows = lines
    .map(
      (line, i) =>
        `<text x="200" y="${300 + i * fontPx * 1.6}" font-family="DejaVu Serif" font-size="${fontPx}">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="white"/>${rows}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A PDF whose pages are only images (a scan: no text layer). */
export async function scannedPdf(pageImages: Buffer[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const png of pageImages) {
    const image = await pdf.embedPng(png);
    const page = pdf.addPage([A4.width, A4.height]);
    page.drawImage(image, { x: 0, y: 0, width: A4.width, height: A4.height });
  }
  return Buffer.from(await pdf.save());
}

/**
 * A PDF protected by a user password (Standard security handler, revision 2). The password
 * check values are random, so no password opens it, the empty one included: what a reader meets
 * with a password-protected statement it was not given the password for.
 */
export async function encryptedPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage([A4.width, A4.height]);
  const random = (n: number) =>
    PDFHexString.of(Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + 11) % 256)).toString('hex'));
  const encrypt = pdf.context.obj({
    Filter: PDFName.of('Standard'),
    V: PDFNumber.of(1),
    R: PDFNumber.of(2),
    O: random(32),
    U: random(32),
    P: PDFNumber.of(-4),
  });
  pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt);
  pdf.context.trailerInfo.ID = pdf.context.obj([random(16), random(16)]);
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/** A zip of the given files, deflated (or stored for `store`). */
export function zipOf(entries: { name: string; data: Buffer | string; store?: boolean }[]): Promise<Buffer> {
  const zip = new ZipFile();
  for (const entry of entries) {
    zip.addBuffer(Buffer.isBuffer(entry.data) ? entry.data : Buffer.from(entry.data), entry.name, {
      compress: !entry.store,
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A Word (.docx) document: paragraphs, then an optional table (first row as header). */
export function docxOf(paragraphs: string[], table?: string[][], documentXml?: string): Promise<Buffer> {
  const para = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  const tbl = table
    ? `<w:tbl>${table.map((row) => `<w:tr>${row.map((cell) => `<w:tc>${para(cell)}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`
    : '';
  const body =
    documentXml ??
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${paragraphs.map(para).join('')}${tbl}</w:body></w:document>`;
  return zipOf([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    },
    { name: 'word/document.xml', data: body },
  ]);
}

/** A temporary folder for a test's files; `cleanup` removes it. */
export function tempFiles(): { write(name: string, data: Buffer | string): string; dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'medfolio-extract-test-'));
  return {
    dir,
    write(name, data) {
      const path = join(dir, name);
      writeFileSync(path, data);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export const FIXTURES = join(__dirname, 'fixtures');
