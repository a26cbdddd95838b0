import { readFile } from 'node:fs/promises';
import { createCanvas, loadImage, type Image } from '@napi-rs/canvas';
import { ocrInto } from './ocr-page';
import { emptyPart, type ExtractContext, type PartialResult } from './types';

/**
 * Photos and scans (JPEG, PNG): turned upright, made grey, and OCRed. Decoded with the canvas that
 * renders PDF pages for OCR already (Skia, @napi-rs/canvas), so the summary service needs no second
 * image library: its image stays within the size budget without sharp's libvips.
 */
export async function extractImage(ctx: ExtractContext): Promise<PartialResult> {
  const part = emptyPart();
  let png: Buffer;
  try {
    // loadImage applies the EXIF orientation (phone photos) and refuses what it cannot decode.
    const image = await loadImage(await readFile(ctx.path));
    png = ctx.ocr ? greyPng(image) : Buffer.alloc(0);
  } catch {
    part.problems.push({ filename: ctx.filename, reason: 'This picture is damaged and could not be read.' });
    return part;
  }
  await ocrInto(part, ctx, png, null);
  return part;
}

/** The picture in grey as PNG: colour dropped, Tesseract reads grey best. */
function greyPng(image: Image): Buffer {
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, image.width, image.height);
  context.filter = 'grayscale(1)';
  context.drawImage(image, 0, 0);
  return canvas.toBuffer('image/png');
}
