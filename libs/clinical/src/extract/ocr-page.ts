import type { ExtractedText } from '../model';
import type { ExtractContext, PartialResult } from './types';

/** Below this mean confidence (0-100) OCR output is mostly guesses: the page counts as unread. */
export const MIN_OCR_CONFIDENCE = 40;

/** Where a picture sits: "page 3" of a PDF, or the whole image file (null). */
function place(page: number | null): string {
  return page === null ? 'This picture' : `Page ${page}`;
}

/**
 * OCRs one picture (PNG/JPEG bytes) into `part`: its text, or a problem the patient can act on
 * when OCR is off, fails, or reads nothing trustworthy.
 */
export async function ocrInto(
  part: PartialResult,
  ctx: ExtractContext,
  image: Buffer,
  page: number | null,
): Promise<void> {
  if (!ctx.ocr) {
    part.problems.push({
      filename: ctx.filename,
      reason: `${place(page)} is a scan and was not read: reading scans is turned off.`,
    });
    return;
  }
  let outcome;
  try {
    outcome = await ctx.ocr.recognize(image, ctx.signal);
  } catch (error) {
    if (ctx.signal?.aborted) throw error;
    ctx.logger.warn('ocr_failed', { error: error instanceof Error ? error.name : 'unknown' });
    part.problems.push({
      filename: ctx.filename,
      reason: `${place(page)} could not be read: the scan could not be processed.`,
    });
    return;
  }
  const confidence = Math.round(outcome.confidence);
  ctx.logger.info('ocr_page', { confidence, words: outcome.words });
  if (outcome.words === 0 || confidence < MIN_OCR_CONFIDENCE) {
    part.problems.push({ filename: ctx.filename, reason: `${place(page)} could not be read: the scan is unclear.` });
    return;
  }
  const text: ExtractedText = { filename: ctx.filename, page, text: outcome.text, ocr: true, confidence };
  part.texts.push(text);
}
