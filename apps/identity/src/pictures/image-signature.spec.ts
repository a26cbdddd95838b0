import { detectImageType } from './image-signature';

const bytes = (...parts: (string | number[])[]): Buffer =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('detectImageType', () => {
  it.each([
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF')],
    ['png', bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR', [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0], [0, 0, 0, 0])],
    ['webp', bytes('RIFF', [0x10, 0, 0, 0], 'WEBPVP8 ')],
    ['gif', bytes('GIF87a', [1, 0])],
    ['gif', bytes('GIF89a', [1, 0])],
  ])('recognises %s', async (type, data) => {
    await expect(detectImageType(data)).resolves.toBe(type);
  });

  it.each([
    ['PDF', bytes('%PDF-1.7\n')],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['SVG with an XML declaration', bytes('<?xml version="1.0"?><svg>')],
    ['HTML', bytes('<!DOCTYPE html>')],
    ['TIFF', bytes('II*\0', [8, 0, 0, 0])],
    ['a RIFF that is not WebP (WAV)', bytes('RIFF', [0x10, 0, 0, 0], 'WAVEfmt ')],
    ['a PNG signature cut short', bytes([0x89], 'PNG\r\n')],
    ['JPEG magic after a leading byte', bytes([0x00, 0xff, 0xd8, 0xff])],
    ['nothing', Buffer.alloc(0)],
  ])('refuses %s', async (_name, data) => {
    await expect(detectImageType(data)).resolves.toBeUndefined();
  });
});
