import { open } from 'node:fs/promises';
import type { ExtractionResult } from '../model';
import { extractDoc } from './doc';
import { extractDocx } from './docx';
import { extractImage } from './image';
import { OcrScheduler } from './ocr';
import { extractPdf } from './pdf';
import { extractStructured, sniffStructuredRecord, STRUCTURED_SNIFF_BYTES } from './structured';
import {
  DEFAULT_LIMITS,
  emptyPart,
  problemPart,
  silentLogger,
  type ExtractContext,
  type ExtractOptions,
  type ExtractSource,
  type PartialResult,
} from './types';
import { extractZip, zipKind } from './zip';

type Format = 'pdf' | 'image' | 'zip' | 'doc' | 'xml' | 'json' | 'unknown';

/** What a file is by its first bytes (magic numbers), never by its name or declared type. */
async function sniffFormat(path: string): Promise<{ format: Format; head: Buffer; complete: boolean }> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(STRUCTURED_SNIFF_BYTES);
    const { bytesRead } = await file.read(head, 0, head.length, 0);
    const bytes = head.subarray(0, bytesRead);
    const complete = bytesRead < head.length;
    const has = (hex: string, at = 0) => bytes.subarray(at, at + hex.length / 2).equals(Buffer.from(hex, 'hex'));
    // PDF readers accept the header anywhere in the first KiB, so a few junk bytes may precede it.
    if (bytes.subarray(0, 1024).includes('%PDF-')) return { format: 'pdf', head: bytes, complete };
    if (has('89504e470d0a1a0a') || has('ffd8ff')) return { format: 'image', head: bytes, complete };
    if (has('504b0304') || has('504b0506')) return { format: 'zip', head: bytes, complete };
    if (has('d0cf11e0a1b11ae1')) return { format: 'doc', head: bytes, complete };
    const text = bytes
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    if (text.startsWith('<')) return { format: 'xml', head: bytes, complete };
    if (text.startsWith('{')) return { format: 'json', head: bytes, complete };
    return { format: 'unknown', head: bytes, complete };
  } finally {
    await file.close();
  }
}

/** Reads one file (the upload, or a file inside it) by what its content is. */
async function readFile(ctx: ExtractContext): Promise<PartialResult> {
  const { format, head, complete } = await sniffFormat(ctx.path);
  const inZip = ctx.depth > 0;
  ctx.logger.info('extract_file', { format, depth: ctx.depth });
  switch (format) {
    case 'pdf':
      return extractPdf(ctx);
    case 'image':
      return extractImage(ctx);
    case 'doc':
      return extractDoc(ctx);
    case 'zip':
      if ((await zipKind(ctx.path)) === 'docx') return extractDocx(ctx);
      if (inZip) return problemPart(ctx.filename, 'A zip inside a zip is not opened: upload it on its own.');
      return extractZip(ctx, readFile);
    case 'xml':
    case 'json': {
      // Inside a zip, XML and JSON that are not records (manifests, metadata) are passed over quietly.
      if (inZip && !sniffStructuredRecord(head, complete)) return emptyPart();
      return extractStructured(ctx, format === 'xml' ? 'ccda' : 'fhir');
    }
    case 'unknown':
      return inZip ? emptyPart() : problemPart(ctx.filename, 'This kind of file cannot be read.');
  }
}

/**
 * Everything that can be read from one uploaded document: text page by page (PDF text layer, OCR
 * of scans and photos, Word), structured facts with their codes (C-CDA, FHIR), and, for what could
 * not be read, a problem whose reason the patient sees. A file that cannot be read never throws:
 * only an abort (options.signal) does.
 */
export async function extractDocument(source: ExtractSource, options: ExtractOptions = {}): Promise<ExtractionResult> {
  const ownOcr =
    options.ocr !== false && !options.ocrScheduler
      ? new OcrScheduler({ concurrency: options.ocrConcurrency ?? 1 })
      : undefined;
  const ctx: ExtractContext = {
    path: source.path,
    filename: source.filename,
    documentId: source.documentId,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    ocr: options.ocr === false ? null : (options.ocrScheduler ?? ownOcr ?? null),
    signal: options.signal,
    logger: options.logger ?? silentLogger,
    depth: 0,
  };
  const started = Date.now();
  let part: PartialResult;
  try {
    part = await readFile(ctx);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    // Unexpected: logged by kind only (messages can quote content), shown to the patient plainly.
    ctx.logger.warn('extract_failed', { error: error instanceof Error ? error.name : 'unknown' });
    part = problemPart(source.filename, 'This file could not be read.');
  } finally {
    await ownOcr?.shutdown();
  }
  ctx.logger.info('extract_done', {
    ms: Date.now() - started,
    texts: part.texts.length,
    facts: part.facts.length,
    problems: part.problems.length,
  });
  return {
    documentId: source.documentId,
    filename: source.filename,
    texts: part.texts,
    facts: part.facts,
    noneKnown: part.noneKnown,
    ...(part.documentDate ? { documentDate: part.documentDate } : {}),
    problems: part.problems,
  };
}
