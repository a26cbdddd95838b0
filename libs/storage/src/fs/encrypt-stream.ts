import { Transform, type TransformCallback } from 'node:stream';

import { STREAM_BUFFER_BYTES } from '../blob-storage';
import { type FileHeader, deriveFileKey, sealFrameParts } from './encrypted-format';

/**
 * Turns plaintext into the encrypted file format (see encrypted-format.ts): the header, then one
 * frame per chunkSize bytes, then the final frame. A frame's header must say whether it is the last
 * one, so each frame's pieces are held (by reference, never copied) until it is full or the input
 * ends; then its ciphertext goes out piece by piece. Holds at most one chunk plus one input piece.
 */
export class EncryptStream extends Transform {
  private readonly fileKey: Buffer;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private frameIndex = 0;
  private headerWritten = false;

  /** `blobKey`: the storage key the file is written under, which the file's key is bound to. */
  constructor(
    private readonly header: FileHeader,
    masterKey: Buffer,
    blobKey: string,
  ) {
    super({ highWaterMark: STREAM_BUFFER_BYTES });
    this.fileKey = deriveFileKey(masterKey, header, blobKey);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.writeHeaderOnce();
    let rest = chunk;
    while (this.pendingBytes + rest.length >= this.header.chunkSize) {
      const take = this.header.chunkSize - this.pendingBytes;
      this.hold(rest.subarray(0, take));
      rest = rest.subarray(take);
      this.seal(false);
    }
    this.hold(rest);
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.writeHeaderOnce();
    this.seal(true);
    callback();
  }

  private hold(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  }

  private writeHeaderOnce(): void {
    if (this.headerWritten) return;
    this.headerWritten = true;
    this.push(this.header.bytes);
  }

  private seal(final: boolean): void {
    for (const part of sealFrameParts(this.fileKey, this.header, this.frameIndex++, final, this.pending)) this.push(part);
    this.pending = [];
    this.pendingBytes = 0;
  }
}
