import { crc32, deflateSync } from 'node:zlib';

import sharp from 'sharp';

/**
 * Test pictures made on the fly (no binary fixtures in the repository): solid colours from sharp,
 * and a few hand-made PNGs for the cases sharp would refuse to write.
 */
export function solidImage(format: 'jpeg' | 'png' | 'webp' | 'gif', width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } })
    .toFormat(format)
    .toBuffer();
}

/** A PNG carrying EXIF with a GPS position (and a camera make), like a photo straight off a phone. */
export function pngWithGpsExif(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: 'green' } })
    .withExif({
      IFD0: { Make: 'TestCamera' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '11/1 34/1 0/1' },
    })
    .png()
    .toBuffer();
}

/** Whether an EXIF block (as sharp's metadata().exif gives it) has a GPS IFD pointer (tag 0x8825). */
export function exifHasGps(exif: Buffer): boolean {
  const littleEndian = exif.indexOf('II*\0');
  const tiffStart = littleEndian >= 0 ? littleEndian : exif.indexOf('MM\0*');
  if (tiffStart < 0) return false;
  return exif.includes(Buffer.from(littleEndian >= 0 ? [0x25, 0x88] : [0x88, 0x25]), tiffStart);
}

/**
 * A JPEG 800x400 whose top half is red and bottom half blue, stored with EXIF orientation 6
 * ("rotate 90 degrees clockwise to display"): displayed upright, blue is on the left, red on the right.
 */
export async function sidewaysJpeg(): Promise<Buffer> {
  const width = 800;
  const height = 400;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels[(y * width + x) * 3 + (y < height / 2 ? 0 : 2)] = 255;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/**
 * A real decompression bomb: a 1-bit black PNG of `width` x `height`. A few kilobytes on the wire;
 * decoded, one byte (or more) per pixel.
 */
export function blackPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 + zero bits per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small valid PNG whose header is rewritten to declare `width` x `height` (CRC fixed up). */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await solidImage('png', 16, 16));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
