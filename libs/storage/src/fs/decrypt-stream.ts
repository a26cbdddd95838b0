import { Transform, type TransformCallback } from 'node:stream';

import { BlobIntegrityError } from '../errors';
import { ByteQueue } from './byte-queue';
import { type FileHeader, FRAME_HEADER_LENGTH, FRAME_OVERHEAD, openFrame, readFrameHeader } from './encrypted-format';

/**
 * Turns the frames of an encrypted file (everything after the header, which the caller has already
 * parsed to pick the key) back into plaintext. A frame's bytes are released only after its GCM tag
 * has been verified, so the consumer never receives unauthenticated data; at the first altered frame,
 * a missing final frame (truncation) or trailing bytes, the stream errors with BlobIntegrityError.
 * Memory stays bounded by one frame plus one input piece.
 */
export class DecryptStream extends Transform {
  private readonly buffered = new ByteQueue();
  private frameIndex = 0;
  private finalSeen = false;

  constructor(
    private readonly header: FileHeader,
    private readonly fileKey: Buffer,
    private readonly key: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.buffered.push(chunk);
    try {
      this.releaseCompleteFrames();
      callback();
    } catch (error) {
      // The format helpers do not know the key; name it so the error can be traced to a blob.
      callback(
        error instanceof BlobIntegrityError ? new BlobIntegrityError(error.message, this.key) : (error as Error),
      );
    }
  }

  override _flush(callback: TransformCallback): void {
    if (!this.finalSeen || this.buffered.length > 0) {
      callback(new BlobIntegrityError('Stored blob is truncated (no authenticated end)', this.key));
      return;
    }
    callback();
  }

  private releaseCompleteFrames(): void {
    while (this.buffered.length > 0) {
      if (this.finalSeen) throw new BlobIntegrityError('Stored blob has data after its final frame');
      if (this.buffered.length < FRAME_HEADER_LENGTH) return;
      const { final, plaintextLength } = readFrameHeader(
        this.buffered.peek(FRAME_HEADER_LENGTH),
        this.header.chunkSize,
      );
      const frameLength = plaintextLength + FRAME_OVERHEAD;
      if (this.buffered.length < frameLength) return;
      this.push(openFrame(this.fileKey, this.header, this.frameIndex++, this.buffered.take(frameLength)));
      this.finalSeen = final;
    }
  }
}
