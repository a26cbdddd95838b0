import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

import { STREAM_BUFFER_BYTES } from './blob-storage';

/**
 * A pass-through stream that computes the SHA-256 and the byte count of what flows through it,
 * so a store can report both without buffering the file. Read them after the stream has ended.
 */
export class HashingStream extends Transform {
  private readonly hash = createHash('sha256');
  constructor() {
    super({ highWaterMark: STREAM_BUFFER_BYTES });
  }
  private byteCount = 0;
  private hexDigest: string | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.byteCount += chunk.length;
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.hexDigest = this.hash.digest('hex');
    callback();
  }

  /** Size and hex SHA-256 of everything that passed; throws if the stream has not finished. */
  result(): { size: number; sha256: string } {
    if (this.hexDigest === undefined) throw new Error('HashingStream.result() called before the stream finished');
    return { size: this.byteCount, sha256: this.hexDigest };
  }
}
