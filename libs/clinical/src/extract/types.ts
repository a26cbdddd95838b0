import type { ExtractionProblem, ExtractionResult } from '../model';
import type { OcrScheduler } from './ocr';

/** One uploaded document, spooled by the service to a temporary file. */
export interface ExtractSource {
  documentId: string;
  filename: string;
  /** What the upload declared; informative only: the format is decided by content. */
  contentType?: string;
  /** Local file holding the document's bytes. */
  path: string;
}

export interface ExtractLimits {
  /** Zip: bytes actually inflated over all entries (counted while inflating, not as declared). */
  zipTotalBytes: number;
  /** Zip: largest inflated/compressed ratio of one entry, checked while inflating. */
  zipEntryRatio: number;
  /** Zip: most entries read. */
  zipEntries: number;
  /** Structured records (XML, JSON) and Word files are parsed whole: the largest read into memory. */
  maxParsedBytes: number;
  /** PDF: most pages read. */
  pdfPages: number;
}

export const DEFAULT_LIMITS: ExtractLimits = {
  zipTotalBytes: 200 * 1024 * 1024,
  zipEntryRatio: 100,
  zipEntries: 200,
  maxParsedBytes: 32 * 1024 * 1024,
  pdfPages: 2000,
};

/** Receives only counts, formats and reasons: never document text. */
export interface ExtractLogger {
  info(event: string, fields?: Record<string, string | number | boolean>): void;
  warn(event: string, fields?: Record<string, string | number | boolean>): void;
}

export interface ExtractOptions {
  /** Turn OCR off (scans and images then become problems). Default on. */
  ocr?: boolean;
  /** Shared OCR scheduler; without one a private scheduler is made and shut down afterwards. */
  ocrScheduler?: OcrScheduler;
  /** OCR workers for a private scheduler. Default 1. */
  ocrConcurrency?: number;
  limits?: Partial<ExtractLimits>;
  signal?: AbortSignal;
  logger?: ExtractLogger;
}

/** What each extractor is given: the file, its display name (zip paths included) and the shared state. */
export interface ExtractContext {
  path: string;
  /** As in SourceRef.filename: "records.zip › ccd.xml" inside a zip. */
  filename: string;
  documentId: string;
  limits: ExtractLimits;
  /** Null when OCR is off. */
  ocr: OcrScheduler | null;
  signal: AbortSignal | undefined;
  logger: ExtractLogger;
  /** 0 for the upload, 1 for a file inside a zip. */
  depth: number;
}

/** What one extractor adds to the result (the dispatcher fills documentId and filename). */
export type PartialResult = Pick<ExtractionResult, 'texts' | 'facts' | 'noneKnown' | 'problems'> & {
  documentDate?: string;
};

export function emptyPart(): PartialResult {
  return { texts: [], facts: [], noneKnown: [], problems: [] };
}

export function problemPart(filename: string, reason: string): PartialResult {
  const part = emptyPart();
  part.problems.push({ filename, reason } satisfies ExtractionProblem);
  return part;
}

export const silentLogger: ExtractLogger = { info: () => undefined, warn: () => undefined };

/** Thrown by an extractor for a file it cannot read; the message is shown to the patient. */
export class UnreadableError extends Error {}
