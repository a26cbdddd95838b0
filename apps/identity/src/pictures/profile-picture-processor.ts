import type { Readable } from 'node:stream';

import { DomainError } from '@medfolio/contracts';
import sharp from 'sharp';

import { detectImageType, type ImageType } from './image-signature';
import { readAtMost } from './read-bounded';

/** Every stored profile picture is this square, whatever was uploaded. */
export const PROFILE_PICTURE_SIZE = 400;

export const NOT_AN_IMAGE_MESSAGE = 'Please choose an image file (JPEG, PNG, WebP or GIF).';

/**
 * Largest picture decoded, in pixels (width x height): 50 megapixels covers the photos of current
 * phones and cameras. Decoding needs memory for every pixel, and a few kilobytes of PNG can declare
 * billions of them (a "decompression bomb"), so the size is checked from the header first.
 */
export const DEFAULT_MAX_INPUT_PIXELS = 50_000_000;

export interface ProfilePictureLimits {
  /** Largest upload read, in bytes; more is PAYLOAD_TOO_LARGE. */
  maxBytes: number;
}

export interface ProcessedProfilePicture {
  data: Buffer;
  contentType: 'image/webp' | 'image/jpeg';
  width: typeof PROFILE_PICTURE_SIZE;
  height: typeof PROFILE_PICTURE_SIZE;
}

export interface ProfilePictureProcessorOptions {
  /** Output format; WebP (default) is about a third smaller than JPEG at the same quality. */
  format?: 'webp' | 'jpeg';
  /** See {@link DEFAULT_MAX_INPUT_PIXELS}. */
  maxInputPixels?: number;
  /** Encoder quality, 1-100; default 82. */
  quality?: number;
}

/** The names sharp uses for the formats we accept, to check it read the file as what it claims to be. */
const SHARP_FORMAT: Record<ImageType, string> = { jpeg: 'jpeg', png: 'png', webp: 'webp', gif: 'gif' };

/**
 * Turns an uploaded file into a profile picture we are willing to store and serve: only real JPEG,
 * PNG, WebP or GIF content (checked from the bytes, never the filename or the declared type),
 * decoded with limits, turned upright by its EXIF orientation, cropped to a centred 400x400 square
 * and re-encoded. Re-encoding is the point: the output is pixels we produced, with no metadata
 * (camera, date, GPS position), no script or polyglot payload, no animation.
 */
export class ProfilePictureProcessor {
  private readonly format: 'webp' | 'jpeg';
  private readonly maxInputPixels: number;
  private readonly quality: number;

  constructor(options: ProfilePictureProcessorOptions = {}) {
    this.format = options.format ?? 'webp';
    this.maxInputPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
    this.quality = options.quality ?? 82;
  }

  /**
   * Reads at most `limits.maxBytes` from `input` and answers the 400x400 picture. Fails with
   * PAYLOAD_TOO_LARGE (too many bytes or pixels) or UNSUPPORTED_MEDIA_TYPE (not an accepted image,
   * or a damaged one).
   */
  async process(input: Readable, limits: ProfilePictureLimits): Promise<ProcessedProfilePicture> {
    return this.processBytes(await readAtMost(input, limits.maxBytes));
  }

  /** As {@link process}, for an upload already read (and bounded) by the caller. */
  async processBytes(bytes: Buffer): Promise<ProcessedProfilePicture> {
    const type = await detectImageType(bytes);
    if (type === undefined) throw notAnImage();

    await this.checkHeader(bytes, type);

    const image = sharp(bytes, {
      // Refuse (rather than guess at) damaged data, including a truncated file.
      failOn: 'error',
      // Checked above already; kept as the decoder's own guard.
      limitInputPixels: this.maxInputPixels,
      autoOrient: true,
      // First frame only: an animated GIF/WebP becomes a still picture.
      pages: 1,
    });
    let pipeline = image.resize(PROFILE_PICTURE_SIZE, PROFILE_PICTURE_SIZE, { fit: 'cover', position: 'centre' });
    // No withMetadata()/keepExif(): sharp then writes no EXIF, XMP or ICC data, converting to sRGB.
    pipeline =
      this.format === 'webp'
        ? pipeline.webp({ quality: this.quality })
        : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: this.quality, mozjpeg: true });
    let data: Buffer;
    try {
      data = await pipeline.toBuffer();
    } catch {
      // Damaged pixel data (truncated file, bad compressed stream) only shows while decoding.
      throw notAnImage();
    }
    return {
      data,
      contentType: this.format === 'webp' ? 'image/webp' : 'image/jpeg',
      width: PROFILE_PICTURE_SIZE,
      height: PROFILE_PICTURE_SIZE,
    };
  }

  /**
   * Reads only the header: the decoder must agree on the format (so no other loader is ever picked
   * for these bytes), and the declared size must be within the pixel limit before any pixel is
   * decoded.
   */
  private async checkHeader(bytes: Buffer, type: ImageType): Promise<void> {
    let metadata: sharp.Metadata;
    try {
      // No pixel limit for this header-only read (with one, sharp refuses a too large picture as an
      // unreadable one); the limit is applied just below, with its own message.
      metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
    } catch {
      throw notAnImage();
    }
    if (metadata.format !== SHARP_FORMAT[type] || !metadata.width || !metadata.height) throw notAnImage();
    if (metadata.width * metadata.height > this.maxInputPixels) {
      throw new DomainError(
        'PAYLOAD_TOO_LARGE',
        `The picture has too many pixels (at most ${Number((this.maxInputPixels / 1_000_000).toFixed(1))} megapixels).`,
      );
    }
  }
}

function notAnImage(): DomainError {
  return new DomainError('UNSUPPORTED_MEDIA_TYPE', NOT_AN_IMAGE_MESSAGE);
}
