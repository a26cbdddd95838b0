import type { Readable } from 'node:stream';

import { DomainError } from '@medfolio/contracts';

/** "5 MB", "0.5 MB": the limit as a person would say it (1 MB = 1024 x 1024 bytes). */
export function formatMegabytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
}

export function pictureTooLarge(maxBytes: number): DomainError {
  return new DomainError('PAYLOAD_TOO_LARGE', `The picture is too large (at most ${formatMegabytes(maxBytes)}).`);
}

/**
 * Reads the whole stream into one buffer, but never more than `maxBytes`: as soon as the stream
 * goes past the limit it is destroyed (no further reading) and PAYLOAD_TOO_LARGE is thrown, so an
 * endless or huge upload costs at most `maxBytes` plus one chunk of memory. The caller should not
 * trust a declared Content-Length: only the bytes actually read count.
 */
export async function readAtMost(input: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving a for-await loop early (the throw) destroys the stream.
  for await (const chunk of input as AsyncIterable<unknown>) {
    const piece = toBuffer(chunk);
    size += piece.length;
    if (size > maxBytes) throw pictureTooLarge(maxBytes);
    chunks.push(piece);
  }
  return Buffer.concat(chunks, size);
}

function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (typeof chunk === 'string') return Buffer.from(chunk);
  throw new TypeError('The picture stream must deliver bytes');
}
