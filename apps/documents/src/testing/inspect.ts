import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { classify, HEAD_BYTES } from '../content/classify';
import { ContentInspector } from '../content/inspector';
import type { ZipLimits } from '../content/zip-check';

/** The zip limits of the default configuration. */
export const ZIP_LIMITS: ZipLimits = { maxEntries: 1000, maxUncompressedBytes: 1024 * 1024 * 1024, maxRatio: 100 };

/**
 * Runs a whole file through what an upload does: classify the first HEAD_BYTES, then stream
 * everything through the inspector (in pieces of `piece` bytes, as a network would deliver it).
 * Resolves with the kind and the bytes that came out, or rejects with the refusal.
 */
export async function inspect(
  filename: string,
  data: Buffer,
  options: { maxBytes?: number; piece?: number; zip?: Partial<ZipLimits> } = {},
) {
  const { kind, check } = await classify(filename, data.subarray(0, HEAD_BYTES), { ...ZIP_LIMITS, ...options.zip });
  const inspector = new ContentInspector(filename, check, options.maxBytes ?? 100 * 1024 * 1024);
  const out: Buffer[] = [];
  const piece = options.piece ?? 16 * 1024;
  await pipeline(
    Readable.from(
      (function* () {
        for (let i = 0; i < data.length; i += piece) yield data.subarray(i, i + piece);
      })(),
    ),
    inspector,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  ).catch((error: unknown) => {
    throw inspector.failure ?? error;
  });
  return { kind, bytes: Buffer.concat(out) };
}
