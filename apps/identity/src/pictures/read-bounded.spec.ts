import { Readable } from 'node:stream';

import { formatMegabytes, readAtMost } from './read-bounded';

describe('readAtMost', () => {
  it('concatenates buffers, typed arrays and strings', async () => {
    const input = Readable.from([Buffer.from('ab'), new Uint8Array([0x63]), 'd']);

    await expect(readAtMost(input, 4)).resolves.toEqual(Buffer.from('abcd'));
  });

  it('fails with PAYLOAD_TOO_LARGE and destroys the stream past the limit', async () => {
    const input = Readable.from([Buffer.alloc(3), Buffer.alloc(3)]);

    await expect(readAtMost(input, 5)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(input.destroyed).toBe(true);
  });

  it('passes on an error of the source stream', async () => {
    const input = new Readable({ read: () => undefined });
    input.destroy(new Error('connection reset'));

    await expect(readAtMost(input, 5)).rejects.toThrow('connection reset');
  });
});

describe('formatMegabytes', () => {
  it.each([
    [5 * 1024 * 1024, '5 MB'],
    [512 * 1024, '0.5 MB'],
    [10.25 * 1024 * 1024, '10.3 MB'],
  ])('%d bytes are %s', (bytes, text) => {
    expect(formatMegabytes(bytes)).toBe(text);
  });
});
