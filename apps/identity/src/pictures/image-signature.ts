/** The picture formats we accept, as detected from the bytes (never from a filename or a header). */
export type ImageType = 'jpeg' | 'png' | 'webp' | 'gif';

/** Bytes needed to recognise every accepted format. */
export const IMAGE_SIGNATURE_LENGTH = 12;

const startsWith = (data: Uint8Array, bytes: readonly number[], offset = 0): boolean =>
  data.length >= offset + bytes.length && bytes.every((byte, i) => data[offset + i] === byte);

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/**
 * Recognises JPEG, PNG, WebP and GIF by their magic bytes. Anything else (PDF, SVG, HTML, TIFF,
 * HEIC, ...) is undefined: the image decoder can read more formats than we want to accept, and some
 * of them (SVG with its external references, PDF) are not something to feed it from strangers.
 */
export function detectImageType(data: Uint8Array): ImageType | undefined {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a'))) return 'gif';
  return undefined;
}
