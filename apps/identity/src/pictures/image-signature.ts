import { fileTypeFromBuffer } from 'file-type';

/** The picture formats we accept, as detected from the bytes (never from a filename or a header). */
export type ImageType = 'jpeg' | 'png' | 'webp' | 'gif';

/** file-type's MIME types of the formats we accept; an animated PNG is a PNG (only its first frame is kept). */
const ACCEPTED: Readonly<Record<string, ImageType>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/apng': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/**
 * Recognises JPEG, PNG, WebP and GIF by their signatures (file-type, as the documents service
 * does). Anything else (PDF, SVG, HTML, TIFF, HEIC, ...) is undefined: the image decoder can read
 * more formats than we want to accept, and some of them (SVG with its external references, PDF)
 * are not something to feed it from strangers.
 */
export async function detectImageType(data: Uint8Array): Promise<ImageType | undefined> {
  const detected = await fileTypeFromBuffer(data);
  return detected ? ACCEPTED[detected.mime] : undefined;
}
