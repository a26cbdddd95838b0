import sharp from 'sharp';
import { ocrInto } from './ocr-page';
import { emptyPart, type ExtractContext, type PartialResult } from './types';

/** Photos and scans (JPEG, PNG): turned upright, made grey, and OCRed. */
export async function extractImage(ctx: ExtractContext): Promise<PartialResult> {
  const part = emptyPart();
  let png: Buffer;
  try {
    // EXIF orientation applied (phone photos), colour dropped: Tesseract reads grey best.
    png = ctx.ocr ? await sharp(ctx.path).rotate().grayscale().png().toBuffer() : Buffer.alloc(0);
    if (!ctx.ocr) await sharp(ctx.path).metadata();
  } catch {
    part.problems.push({ filename: ctx.filename, reason: 'This picture is damaged and could not be read.' });
    return part;
  }
  await ocrInto(part, ctx, png, null);
  return part;
}
