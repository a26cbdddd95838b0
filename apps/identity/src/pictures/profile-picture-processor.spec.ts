import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

import { refusal } from '@medfolio/testing';
import sharp from 'sharp';

import { NOT_AN_IMAGE_MESSAGE, ProfilePictureProcessor } from './profile-picture-processor';
import { blackPng, exifHasGps, pngDeclaring, pngWithGpsExif, sidewaysJpeg, solidImage } from './testing/test-images';

const MB = 1024 * 1024;
const limits = { maxBytes: 5 * MB };
const processor = new ProfilePictureProcessor();

/** Streams `data` in pieces, like an upload. */
function upload(data: Buffer, pieceSize = 16 * 1024): Readable {
  return Readable.from(
    (function* pieces() {
      for (let offset = 0; offset < data.length; offset += pieceSize) yield data.subarray(offset, offset + pieceSize);
    })(),
  );
}

async function pixelAt(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return [...data.subarray(offset, offset + 3)];
}

describe('ProfilePictureProcessor', () => {
  it.each([
    ['a JPEG', 'jpeg', 1200, 800],
    ['a PNG', 'png', 300, 500],
    ['a WebP', 'webp', 640, 640],
    ['a GIF', 'gif', 120, 90],
  ] as const)('turns %s into a 400x400 WebP', async (_name, format, width, height) => {
    const result = await processor.process(upload(await solidImage(format, width, height)), limits);

    expect(result).toMatchObject({ contentType: 'image/webp', width: 400, height: 400 });
    const written = await sharp(result.data).metadata();
    expect(written).toMatchObject({ format: 'webp', width: 400, height: 400 });
  });

  it('can produce JPEG instead, transparent areas turned white', async () => {
    const transparent = await sharp({
      create: { width: 50, height: 50, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();

    const result = await new ProfilePictureProcessor({ format: 'jpeg' }).process(upload(transparent), limits);

    expect(result.contentType).toBe('image/jpeg');
    expect(await sharp(result.data).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 400 });
    const [r, g, b] = await pixelAt(result.data, 200, 200);
    expect(Math.min(r!, g!, b!)).toBeGreaterThan(245);
  });

  it('removes all metadata: the EXIF GPS position of the upload does not survive', async () => {
    const input = await pngWithGpsExif();
    const inputExif = (await sharp(input).metadata()).exif;
    expect(inputExif && exifHasGps(inputExif)).toBe(true);

    const { data } = await processor.process(upload(input), limits);

    const written = await sharp(data).metadata();
    expect(written.exif).toBeUndefined();
    expect(written.xmp).toBeUndefined();
    expect(written.icc).toBeUndefined();
    expect(data.includes('Exif')).toBe(false);
    expect(data.includes('TestCamera')).toBe(false);
  });

  it('turns a sideways photo upright by its EXIF orientation, then crops the centre', async () => {
    const { data } = await processor.process(upload(await sidewaysJpeg()), limits);

    const [leftR, , leftB] = await pixelAt(data, 50, 200);
    const [rightR, , rightB] = await pixelAt(data, 350, 200);
    expect(leftB).toBeGreaterThan(200);
    expect(leftR).toBeLessThan(50);
    expect(rightR).toBeGreaterThan(200);
    expect(rightB).toBeLessThan(50);
  });

  it('keeps the centre of a wide picture', async () => {
    const thirds = await sharp({ create: { width: 1200, height: 400, channels: 3, background: 'lime' } })
      .composite([
        { input: { create: { width: 400, height: 400, channels: 3, background: 'red' } }, left: 0, top: 0 },
        { input: { create: { width: 400, height: 400, channels: 3, background: 'blue' } }, left: 800, top: 0 },
      ])
      .png()
      .toBuffer();

    const { data } = await processor.process(upload(thirds), limits);

    for (const x of [10, 390]) {
      const [r, g, b] = await pixelAt(data, x, 200);
      expect({ r: r! < 50, g: g! > 200, b: b! < 50 }).toEqual({ r: true, g: true, b: true });
    }
  });

  describe('refuses what is not an accepted image, whatever its name', () => {
    it.each([
      ['a PDF', () => Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n')],
      [
        'an SVG (e.g. uploaded as photo.png)',
        () =>
          Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><script>alert(1)</script></svg>',
          ),
      ],
      [
        'an HTML file',
        () => Buffer.from('<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>'),
      ],
      ['random bytes', () => randomBytes(4096)],
      ['an empty file', () => Buffer.alloc(0)],
      [
        'a PNG signature followed by HTML',
        () =>
          Buffer.concat([
            Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
            Buffer.from('<html><script>alert(1)</script></html>'),
          ]),
      ],
      [
        'a TIFF (an image, but not one we accept)',
        () =>
          sharp({ create: { width: 20, height: 20, channels: 3, background: 'red' } })
            .tiff()
            .toBuffer(),
      ],
      ['a truncated JPEG', async () => (await solidImage('jpeg', 800, 600)).subarray(0, 1500)],
    ])('%s', async (_name, make) => {
      const error = await refusal(processor.process(upload(await make()), limits));

      expect(error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message: NOT_AN_IMAGE_MESSAGE });
    });
  });

  it('stops reading an oversized upload at the limit (bounded memory)', async () => {
    const pieceSize = 64 * 1024;
    let produced = 0;
    const endless = new Readable({
      read() {
        produced += pieceSize;
        this.push(Buffer.alloc(pieceSize, 0xff));
      },
    });

    const error = await refusal(processor.process(endless, { maxBytes: 1 * MB }));

    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The picture is too large (at most 1 MB).' });
    expect(endless.destroyed).toBe(true);
    expect(produced).toBeLessThanOrEqual(1 * MB + 2 * pieceSize + endless.readableHighWaterMark);
  });

  it('counts the bytes actually read: exactly the limit is accepted, one more byte is not', async () => {
    const image = await solidImage('png', 64, 64);

    await expect(processor.process(upload(image, 100), { maxBytes: image.length })).resolves.toMatchObject({
      width: 400,
    });
    const error = await refusal(processor.process(upload(image, 100), { maxBytes: image.length - 1 }));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a PNG declaring 30000x30000 pixels from its header, quickly', async () => {
    const started = Date.now();

    const error = await refusal(processor.process(upload(await pngDeclaring(30_000, 30_000)), limits));

    expect(error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The picture has too many pixels (at most 50 megapixels).',
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses a real decompression bomb (a few KB of PNG, 225 megapixels) without decoding it', async () => {
    const bomb = blackPng(15_000, 15_000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const started = Date.now();

    const error = await refusal(processor.process(upload(bomb), limits));

    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('applies a configured pixel limit', async () => {
    const small = new ProfilePictureProcessor({ maxInputPixels: 1_000_000 });

    await expect(small.process(upload(await solidImage('png', 1000, 1000)), limits)).resolves.toMatchObject({
      width: 400,
    });
    const error = await refusal(small.process(upload(await solidImage('png', 1001, 1000)), limits));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});
