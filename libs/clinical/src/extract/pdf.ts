import { open, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  getDocument,
  OPS,
  PDFDataRangeTransport,
  type PDFDocumentProxy,
  type PDFPageProxy,
} from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ocrInto } from './ocr-page';
import { layoutText, type PageText, type TextPiece } from './pdf-layout';
import { emptyPart, type ExtractContext, type PartialResult } from './types';

/** Fewer visible characters than this on a page that shows a picture: treated as a scan. */
const MIN_TEXT_LAYER_CHARS = 16;
/** Scans are rendered at 300 dpi (what Tesseract reads best), the long side capped for huge pages. */
const OCR_DPI = 300;
const MAX_RENDER_SIDE = 4200;
/** Bytes fetched from the file per range request. */
const RANGE_CHUNK = 256 * 1024;

const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));
const IMAGE_OPS = new Set<number>([OPS.paintImageXObject, OPS.paintInlineImageXObject, OPS.paintImageXObjectRepeat]);

/**
 * Hands pdf.js the byte ranges it asks for, read from the spooled file: only the parts of a PDF
 * that are needed are ever in memory, not the whole file.
 */
class FileRangeTransport extends PDFDataRangeTransport {
  constructor(
    private readonly file: FileHandle,
    length: number,
    initial: Uint8Array,
  ) {
    super(length, initial);
  }

  override requestDataRange(begin: number, end: number): void {
    const chunk = new Uint8Array(end - begin);
    this.file
      .read(chunk, 0, chunk.length, begin)
      .then(({ bytesRead }) => this.onDataRange(begin, chunk.subarray(0, bytesRead)))
      .catch(() => this.onDataRange(begin, new Uint8Array(0)));
  }
}

/** PDF: the text layer page by page; pages without one (scans) are rendered and OCRed. */
export async function extractPdf(ctx: ExtractContext): Promise<PartialResult> {
  const part = emptyPart();
  const file = await open(ctx.path, 'r');
  let doc: PDFDocumentProxy | undefined;
  // The file is closed on every path, also when it cannot even be measured or pdf.js refuses it.
  const task = await (async () => {
    const { size } = await file.stat();
    const initial = new Uint8Array(Math.min(size, RANGE_CHUNK));
    await file.read(initial, 0, initial.length, 0);
    return getDocument({
      range: new FileRangeTransport(file, size, initial),
      rangeChunkSize: RANGE_CHUNK,
      disableAutoFetch: true,
      disableStream: true,
      // Fonts, character maps and image decoders from the package itself: nothing from the network.
      standardFontDataUrl: join(PDFJS_DIR, 'standard_fonts') + '/',
      cMapUrl: join(PDFJS_DIR, 'cmaps') + '/',
      wasmUrl: join(PDFJS_DIR, 'wasm') + '/',
      // Font names ("...-Bold"): headings and table header rows are told by their typography.
      fontExtraProperties: true,
      verbosity: 0,
    });
  })().catch(async (error: unknown) => {
    await file.close();
    throw error;
  });
  try {
    try {
      doc = await task.promise;
    } catch (error) {
      part.problems.push({ filename: ctx.filename, reason: pdfOpenProblem(error) });
      return part;
    }
    const pages = Math.min(doc.numPages, ctx.limits.pdfPages);
    if (doc.numPages > pages) {
      part.problems.push({
        filename: ctx.filename,
        reason: `Only the first ${pages} of ${doc.numPages} pages were read.`,
      });
    }
    let ocrPages = 0;
    // Text layers are laid out together at the end: running headers and footers repeat across pages.
    const laid: PageText[] = [];
    for (let n = 1; n <= pages; n++) {
      ctx.signal?.throwIfAborted();
      const page = await doc.getPage(n);
      try {
        const ops = await page.getOperatorList();
        const text = await pageText(page);
        if (text.chars >= MIN_TEXT_LAYER_CHARS || !ops.fnArray.some((fn) => IMAGE_OPS.has(fn))) {
          if (text.chars > 0) laid.push({ page: n, height: text.height, pieces: text.pieces });
          continue;
        }
        ocrPages++;
        const image = ctx.ocr ? await renderPage(doc, page) : Buffer.alloc(0);
        await ocrInto(part, ctx, image, n);
      } catch (error) {
        if (ctx.signal?.aborted) throw error;
        ctx.logger.warn('pdf_page_failed', { page: n, error: error instanceof Error ? error.name : 'unknown' });
        part.problems.push({ filename: ctx.filename, reason: `Page ${n} could not be read: it is damaged.` });
      } finally {
        page.cleanup();
      }
    }
    for (const { page, text } of layoutText(laid)) part.texts.push({ filename: ctx.filename, page, text, ocr: false });
    part.texts.sort((a, b) => (a.page ?? 0) - (b.page ?? 0));
    ctx.logger.info('pdf_read', { pages, ocrPages });
    return part;
  } finally {
    await task.destroy().catch(() => undefined);
    await file.close();
  }
}

function pdfOpenProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'PasswordException') {
    return 'This PDF is protected by a password, so it could not be read. Upload a copy without the password.';
  }
  return 'This PDF is damaged and could not be read.';
}

const BOLD_FONT = /bold|black|heavy|semibold|demi|extrabold|ultrabold|[-,](bd|hv)\b/i;

/** The page's text runs with their positions, sizes and whether their font is bold. */
async function pageText(page: PDFPageProxy): Promise<{ pieces: TextPiece[]; chars: number; height: number }> {
  const content = await page.getTextContent();
  const bold = new Map<string, boolean>();
  const isBold = (fontName: string): boolean => {
    let known = bold.get(fontName);
    if (known === undefined) {
      // Loaded by the operator list; the font's own name says its weight ("ABCDEF+Arial-BoldMT").
      const font = page.commonObjs.has(fontName)
        ? (page.commonObjs.get(fontName) as { name?: string; bold?: boolean; black?: boolean })
        : undefined;
      known = !!font && (font.bold === true || font.black === true || BOLD_FONT.test(font.name ?? ''));
      bold.set(fontName, known);
    }
    return known;
  };
  const pieces: TextPiece[] = [];
  let chars = 0;
  for (const item of content.items) {
    if (!('str' in item) || !item.str) continue;
    const [a = 0, b = 0, c = 0, d = 0, x = 0, y = 0] = item.transform as number[];
    const size = Math.hypot(c, d) || Math.hypot(a, b) || item.height;
    chars += item.str.replace(/\s/g, '').length;
    pieces.push({ str: item.str, x, y, width: item.width, size, bold: isBold(item.fontName) });
  }
  const [, bottom = 0, , top = 0] = page.view;
  return { pieces, chars, height: top - bottom };
}

/** The page as a PNG at 300 dpi, for OCR. */
async function renderPage(doc: PDFDocumentProxy, page: PDFPageProxy): Promise<Buffer> {
  const base = page.getViewport({ scale: 1 });
  const scale = Math.min(OCR_DPI / 72, MAX_RENDER_SIDE / Math.max(base.width, base.height));
  const viewport = page.getViewport({ scale });
  const factory = doc.canvasFactory as {
    create(w: number, h: number): { canvas: { toBuffer(mime: 'image/png'): Buffer }; context: unknown };
    destroy(c: unknown): void;
  };
  const target = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
  try {
    await page.render({ canvas: target.canvas as never, canvasContext: target.context as never, viewport }).promise;
    return target.canvas.toBuffer('image/png');
  } finally {
    factory.destroy(target);
  }
}
