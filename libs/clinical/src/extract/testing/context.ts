import type { OcrScheduler } from '../ocr';
import { extractStructured, type StructuredKind } from '../structured';
import { tempFiles } from './builders';
import { DEFAULT_LIMITS, type ExtractContext, type ExtractLimits, type ExtractLogger } from '../types';

/** Records what the code logged, so tests can check no document text reached the log. */
export function recordingLogger(): ExtractLogger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (event, fields) => void lines.push(JSON.stringify({ event, ...fields })),
    warn: (event, fields) => void lines.push(JSON.stringify({ event, ...fields })),
  };
}

/** The context one extractor is given, for a file at `path`. */
export function contextFor(
  path: string,
  filename: string,
  more: { ocr?: OcrScheduler | null; limits?: Partial<ExtractLimits>; logger?: ExtractLogger } = {},
): ExtractContext {
  return {
    path,
    filename,
    documentId: 'doc-1',
    limits: { ...DEFAULT_LIMITS, ...more.limits },
    ocr: more.ocr ?? null,
    signal: undefined,
    logger: more.logger ?? recordingLogger(),
    depth: 0,
  };
}

/**
 * Reads a structured record's text as `kind`, from a file named `filename` written for the test (the
 * files are removed after the describe block that calls this).
 */
export function structuredReader(kind: StructuredKind, filename: string) {
  const files = tempFiles();
  afterAll(() => files.cleanup());
  return (text: string, logger = recordingLogger()) =>
    extractStructured(contextFor(files.write(filename, text), filename, { logger }), kind);
}
