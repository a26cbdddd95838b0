import { Transform, type TransformCallback } from 'node:stream';
import { DomainError } from '@medfolio/contracts';
import { STREAM_BUFFER_BYTES } from '@medfolio/storage';
import { ContentProblem, type StreamScan, type StructureCheck } from './content-problem';
import { quoted, refused } from './kinds';

/**
 * Sits between the upload and storage: passes every byte straight on, counts them against the
 * size limit and feeds them to the format's structure check. A problem (too large, damaged,
 * disguised) errors the stream at once, and the final checks run before the stream ends, so
 * storage never sees the end of a file we refuse: its write is aborted (S3 multipart upload aborted,
 * temporary file removed) and nothing is kept. `failure` holds the refusal for the caller.
 * With a `scan` (the antivirus), each chunk goes to it too before it passes on, and its verdict is
 * awaited before the stream ends, so an infected file is never complete in storage either.
 */
export class ContentInspector extends Transform {
  private bytes = 0;
  /** Why the file was refused (a DomainError naming it), once it was. */
  failure: DomainError | undefined;

  constructor(
    private readonly filename: string,
    private readonly check: StructureCheck,
    private readonly maxBytes: number,
    private readonly scan?: StreamScan,
  ) {
    super({ highWaterMark: STREAM_BUFFER_BYTES });
  }

  get size(): number {
    return this.bytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return callback(this.fail(tooLarge(this.filename, this.maxBytes)));
    try {
      this.check.update(chunk);
    } catch (error) {
      return callback(this.fail(error));
    }
    if (!this.scan) return callback(null, chunk);
    this.scan.write(chunk).then(
      () => callback(null, chunk),
      (error: unknown) => callback(this.fail(error)),
    );
  }

  override _flush(callback: TransformCallback): void {
    Promise.resolve()
      .then(() => this.check.finish())
      .then(() => this.scan?.finish())
      .then(
        () => callback(),
        (error: unknown) => callback(this.fail(error)),
      );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.scan?.abort();
    callback(error);
  }

  private fail(error: unknown): Error {
    if (error instanceof ContentProblem) this.failure = refused(this.filename, error.reason);
    else if (error instanceof DomainError) this.failure = error;
    return this.failure ?? (error instanceof Error ? error : new Error(String(error)));
  }
}

export function tooLarge(filename: string, maxBytes: number): DomainError {
  return new DomainError(
    'PAYLOAD_TOO_LARGE',
    `${quoted(filename)} is larger than ${formatSize(maxBytes)}, the most a file may be.`,
  );
}

/** "100 MB", "1.5 GB" (1 MB = 1024 x 1024 bytes, as the web app shows sizes). */
export function formatSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1024 ? `${Number((mb / 1024).toFixed(1))} GB` : `${Number(mb.toFixed(1))} MB`;
}
