import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

import { STREAM_BUFFER_BYTES } from '../blob-storage';
import { HashingStream } from '../hashing-stream';
import { DecryptStream } from './decrypt-stream';
import { EncryptStream } from './encrypt-stream';
import { createHeader, deriveFileKey, sealFrame } from './encrypted-format';

const masterKey = randomBytes(32);
const CHUNK = 1024;
const BLOB = 'records/p1/scan.pdf';

/** The file format written directly: header, then sealFrame for each whole chunk, then the final frame. */
function expected(header: ReturnType<typeof createHeader>, plaintext: Buffer): Buffer {
  const fileKey = deriveFileKey(masterKey, header, BLOB);
  const frames = [header.bytes];
  let index = 0;
  let offset = 0;
  for (; plaintext.length - offset >= CHUNK; offset += CHUNK) frames.push(sealFrame(fileKey, header, index++, false, plaintext.subarray(offset, offset + CHUNK)));
  frames.push(sealFrame(fileKey, header, index, true, plaintext.subarray(offset)));
  return Buffer.concat(frames);
}

/** `data` cut into pieces of the given sizes, cycling through them. */
function pieces(data: Buffer, sizes: number[]): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0, i = 0; offset < data.length; i += 1) {
    const size = sizes[i % sizes.length] as number;
    out.push(data.subarray(offset, offset + size));
    offset += size;
  }
  return out;
}

describe('EncryptStream', () => {
  it.each([0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK, 3 * CHUNK + 17])(
    '%i bytes in pieces of any size give exactly the format, and decrypt back',
    async (length) => {
      const plaintext = randomBytes(length);
      const header = createHeader('k1', 'application/pdf', CHUNK);
      for (const sizes of [[length || 1], [1], [7, 1000, 3], [CHUNK], [CHUNK + 5, 2]]) {
        const encrypted = await buffer(Readable.from(pieces(plaintext, sizes)).pipe(new EncryptStream(header, masterKey, BLOB)));
        expect(encrypted.equals(expected(header, plaintext))).toBe(true);
        const decrypted = await buffer(
          Readable.from([encrypted.subarray(header.bytes.length)]).pipe(new DecryptStream(header, deriveFileKey(masterKey, header, BLOB), 'key')),
        );
        expect(decrypted.equals(plaintext)).toBe(true);
      }
    },
  );

  it('lets each stage of a stored upload hold STREAM_BUFFER_BYTES, so the stages overlap (not one network chunk each)', () => {
    const stages = [new HashingStream(), new EncryptStream(createHeader('k1', 'application/pdf', CHUNK), masterKey, BLOB)];
    for (const stage of stages) {
      expect(stage.writableHighWaterMark).toBe(STREAM_BUFFER_BYTES);
      expect(stage.readableHighWaterMark).toBe(STREAM_BUFFER_BYTES);
    }
  });

  it('does not change the pieces it was given (they are held by reference, never written to)', async () => {
    const plaintext = randomBytes(2 * CHUNK + 100);
    const copy = Buffer.from(plaintext);
    await buffer(Readable.from(pieces(plaintext, [300])).pipe(new EncryptStream(createHeader('k1', 'application/pdf', CHUNK), masterKey, BLOB)));
    expect(plaintext.equals(copy)).toBe(true);
  });
});
