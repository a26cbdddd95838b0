import { Readable } from 'node:stream';
import { DomainError } from '@medfolio/contracts';
import { fileParts, MULTIPART_MESSAGES } from './file-parts';

const BOUNDARY = 'test-boundary';
const CONTENT_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

function body(parts: { field: string; filename?: string; data: string | Buffer }[], end = true): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.field}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    pieces.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n`),
      Buffer.from(part.data),
      Buffer.from('\r\n'),
    );
  }
  if (end) pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

/** Streams the body in small pieces, as a network would. */
function stream(data: Buffer, piece = 7): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += piece) yield data.subarray(i, i + piece);
    })(),
  );
}

async function collect(source: Readable, files = 5): Promise<{ field: string; filename: string; text: string }[]> {
  const out = [];
  for await (const part of fileParts(source, CONTENT_TYPE, { files })) {
    const chunks: Buffer[] = [];
    for await (const chunk of part.stream) chunks.push(chunk as Buffer);
    out.push({ field: part.field, filename: part.filename, text: Buffer.concat(chunks).toString() });
  }
  return out;
}

describe('fileParts', () => {
  it('gives the files one after the other as streams, skipping text fields', async () => {
    const data = body([
      { field: 'files', filename: 'a.pdf', data: 'first file' },
      { field: 'note', data: 'ignored text' },
      { field: 'files', filename: 'b.png', data: Buffer.alloc(100_000, 0x61) },
    ]);
    const parts = await collect(stream(data, 1000));
    expect(parts.map((p) => [p.field, p.filename, p.text.length])).toEqual([
      ['files', 'a.pdf', 10],
      ['files', 'b.png', 100_000],
    ]);
  });

  it('refuses a body that is not multipart, or has no boundary', async () => {
    for (const type of [undefined, 'application/json', 'multipart/form-data']) {
      const iteration = fileParts(stream(Buffer.from('x')), type, { files: 5 });
      await expect(iteration.next()).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: MULTIPART_MESSAGES.notMultipart,
      });
    }
  });

  it('refuses one file more than allowed', async () => {
    const data = body([1, 2, 3].map((i) => ({ field: 'files', filename: `${i}.pdf`, data: `${i}` })));
    await expect(collect(stream(data), 2)).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Too many files: at most 2 can be uploaded at once.',
    });
  });

  it('fails the file being read when the body breaks off', async () => {
    const data = body([{ field: 'files', filename: 'a.pdf', data: Buffer.alloc(50_000, 0x62) }], false).subarray(
      0,
      30_000,
    );
    const source = new Readable({ read: () => undefined });
    source.push(data);
    const reading = collect(source);
    setTimeout(() => source.destroy(new Error('connection reset')), 20);
    const error = await reading.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).message).toBe(MULTIPART_MESSAGES.aborted);
  });

  it('answers malformed multipart with a clear message', async () => {
    const data = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="a.pdf"\r\n\r\nno end`,
    );
    await expect(collect(stream(data))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
