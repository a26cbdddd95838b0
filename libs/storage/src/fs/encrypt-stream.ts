import { Transform, type TransformCallback } from 'node:stream';

import { ByteQueue } from './byte-queue';
import { type FileHeader, deriveFileKey, sealFrame } from './encrypted-format';

/**
 * Turns plaintext into the encrypted file format (see encrypted-format.ts): the header, then one
 * frame per chunkSize bytes, then the final frame. Holds at most one chunk plus one input piece.
 */
export class EncryptStream extends Transform {
  private readonly fileKey: Buffer;
  private readonly pending = new ByteQueue();
  private frameIndex = 0;
  private headerWritten = false;

  constructor(
    private readonly header: FileHeader,
    masterKey: Buffer,
  ) {
    super();
    this.fileKey = deriveFileKey(masterKey, header);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.writeHeaderOnce();
    this.pending.push(chunk);
    while (this.pending.length >= this.header.chunkSize) {
      this.push(this.seal(false, this.pending.take(this.header.chunkSize)));
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.writeHeaderOnce();
    callback(null, this.seal(true, this.pending.take(this.pending.length)));
  }

  private writeHeaderOnce(): void {
    if (this.headerWritten) return;
    this.headerWritten = true;
    this.push(this.header.bytes);
  }

  private seal(final: boolean, plaintext: Buffer): Buffer {
    return sealFrame(this.fileKey, this.header, this.frameIndex++, final, plaintext);
  }
}
