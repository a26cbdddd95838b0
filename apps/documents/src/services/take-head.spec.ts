import { randomBytes } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { takeHead } from './upload.service';

/** A byte stream that delivers `data` in pieces of `piece` bytes, one per tick. */
function trickle(data: Buffer, piece: number): Readable {
  const out = new PassThrough();
  let offset = 0;
  const next = () => {
    if (offset >= data.length) return void out.end();
    out.write(data.subarray(offset, offset + piece));
    offset += piece;
    setImmediate(next);
  };
  setImmediate(next);
  return out;
}

describe('takeHead', () => {
  it('reads the head of a long stream and gives back that same stream, whole', async () => {
    const data = randomBytes(200_000);
    const stream = trickle(data, 1000);
    const { head, body } = await takeHead(stream, 4096);
    expect(head.length).toBeGreaterThanOrEqual(4096);
    expect(head.equals(data.subarray(0, head.length))).toBe(true);
    expect(body).toBe(stream); // no extra stage for the rest of the file
    expect((await buffer(body)).equals(data)).toBe(true);
  });

  it.each([0, 1, 4095])('a file of %i bytes, ended within its head, comes back whole', async (length) => {
    const data = randomBytes(length);
    const { head, body } = await takeHead(trickle(data, 700), 4096);
    expect(head.equals(data)).toBe(true);
    expect((await buffer(body)).equals(data)).toBe(true);
  });

  it('fails when the stream fails before its head is read', async () => {
    const stream = new PassThrough();
    stream.write(Buffer.alloc(10));
    setImmediate(() => stream.destroy(new Error('cut off')));
    await expect(takeHead(stream, 4096)).rejects.toThrow('cut off');
  });
});
