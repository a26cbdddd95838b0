/**
 * The vetted construction the store's format is compared with: libsodium's secretstream
 * (XChaCha20-Poly1305) through sodium-native, wrapped in the same file layout so the same attacks
 * can be run on both (stream-attacks.spec.ts). Test and bench support only; never shipped.
 *
 *   file   = header message* finalMessage
 *   header = "MDFS" | version u8 (=1) | chunkSize u32 | keyIdLength u8 | keyId | contentTypeLength u8
 *            | contentType | secretstream header (24 random bytes)
 *   message = secretstream push of chunkSize bytes, tag MESSAGE (chunkSize + 17 bytes)
 *   finalMessage = push of fewer than chunkSize bytes (possibly 0), tag FINAL
 *
 * secretstream itself derives a key per stream from the random header (HChaCha20), counts messages
 * in its nonce and encrypts each message's tag. Like the store's format, every message also
 * authenticates the whole file header and the blob's storage key (additional data). What the
 * construction leaves to the caller, as ours does: refusing a stream that ends without FINAL, data
 * after FINAL, and a short message that is not FINAL.
 */
import * as sodium from 'sodium-native';
import { Transform, type TransformCallback } from 'node:stream';

import { BlobIntegrityError } from '../../errors';
import { ByteQueue } from '../byte-queue';

const MAGIC = Buffer.from('MDFS', 'ascii');
const ABYTES = sodium.crypto_secretstream_xchacha20poly1305_ABYTES;
const STREAM_HEADER_BYTES = sodium.crypto_secretstream_xchacha20poly1305_HEADERBYTES;
const TAG_MESSAGE = sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE;
const TAG_FINAL = sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL;
/** Bytes a message adds to its plaintext. */
export const SECRETSTREAM_OVERHEAD = ABYTES;

export interface SecretstreamHeader {
  bytes: Buffer;
  chunkSize: number;
  keyId: string;
  contentType: string;
  streamHeader: Buffer;
}

function field(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

/** The whole file for `plaintext`, under `masterKey` (32 bytes), bound to `blobKey`. */
export function secretstreamSeal(
  plaintext: Buffer,
  options: { keyId: string; masterKey: Buffer; blobKey: string; contentType: string; chunkSize: number },
): Buffer {
  const state = Buffer.alloc(sodium.crypto_secretstream_xchacha20poly1305_STATEBYTES);
  const streamHeader = Buffer.alloc(STREAM_HEADER_BYTES);
  sodium.crypto_secretstream_xchacha20poly1305_init_push(state, streamHeader, options.masterKey);
  const fixed = Buffer.alloc(MAGIC.length + 5);
  MAGIC.copy(fixed);
  fixed.writeUInt8(1, MAGIC.length);
  fixed.writeUInt32BE(options.chunkSize, MAGIC.length + 1);
  const header = Buffer.concat([fixed, field(options.keyId), field(options.contentType), streamHeader]);
  const additionalData = Buffer.concat([header, Buffer.from(options.blobKey, 'utf8')]);
  const parts = [header];
  let offset = 0;
  for (;;) {
    const final = plaintext.length - offset < options.chunkSize;
    const message = plaintext.subarray(offset, final ? plaintext.length : offset + options.chunkSize);
    const out = Buffer.alloc(message.length + ABYTES);
    sodium.crypto_secretstream_xchacha20poly1305_push(
      state,
      out,
      message,
      additionalData,
      final ? TAG_FINAL : TAG_MESSAGE,
    );
    parts.push(out);
    offset += message.length;
    if (final) return Buffer.concat(parts);
  }
}

/** Parses the header at the start of `file`; not authenticated until the first message opens. */
export function parseSecretstreamHeader(file: Buffer): SecretstreamHeader {
  if (file.length < MAGIC.length + 5 || !file.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new BlobIntegrityError('Stored blob has an invalid header: not a secretstream blob');
  }
  const chunkSize = file.readUInt32BE(MAGIC.length + 1);
  let offset = MAGIC.length + 5;
  const read = (): string => {
    const length = file.readUInt8(offset);
    const value = file.toString('utf8', offset + 1, offset + 1 + length);
    offset += 1 + length;
    return value;
  };
  const keyId = read();
  const contentType = read();
  const streamHeader = Buffer.from(file.subarray(offset, offset + STREAM_HEADER_BYTES));
  if (streamHeader.length !== STREAM_HEADER_BYTES)
    throw new BlobIntegrityError('Stored blob has an invalid header: truncated');
  return {
    bytes: Buffer.from(file.subarray(0, offset + STREAM_HEADER_BYTES)),
    chunkSize,
    keyId,
    contentType,
    streamHeader,
  };
}

/**
 * The messages after the header back to plaintext, releasing each only once it has authenticated,
 * and erroring (BlobIntegrityError) at the first one that does not, at a missing FINAL or at data
 * after it: the same contract as the store's DecryptStream.
 */
export class SecretstreamDecryptStream extends Transform {
  private readonly buffered = new ByteQueue();
  private readonly state = Buffer.alloc(sodium.crypto_secretstream_xchacha20poly1305_STATEBYTES);
  private readonly additionalData: Buffer;
  private readonly tag = Buffer.alloc(1);
  private index = 0;
  private finalSeen = false;

  constructor(
    private readonly header: SecretstreamHeader,
    masterKey: Buffer,
    blobKey: string,
  ) {
    super();
    sodium.crypto_secretstream_xchacha20poly1305_init_pull(this.state, header.streamHeader, masterKey);
    this.additionalData = Buffer.concat([header.bytes, Buffer.from(blobKey, 'utf8')]);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.buffered.push(chunk);
    try {
      // A full-size message can only be a non-final one; the shorter final message waits for the end.
      const full = this.header.chunkSize + ABYTES;
      while (this.buffered.length >= full) this.open(this.buffered.take(full), false);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.buffered.length === 0) throw new BlobIntegrityError('Stored blob is truncated (no authenticated end)');
      this.open(this.buffered.take(this.buffered.length), true);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  private open(message: Buffer, last: boolean): void {
    if (this.finalSeen) throw new BlobIntegrityError('Stored blob has data after its final frame');
    if (message.length < ABYTES) throw new BlobIntegrityError('Stored blob is truncated (no authenticated end)');
    const plaintext = Buffer.alloc(message.length - ABYTES);
    try {
      sodium.crypto_secretstream_xchacha20poly1305_pull(this.state, plaintext, this.tag, message, this.additionalData);
    } catch {
      throw new BlobIntegrityError(
        `Stored blob failed authentication at frame ${this.index}: tampered with or corrupted`,
      );
    }
    this.index += 1;
    this.finalSeen = this.tag[0] === TAG_FINAL;
    if (this.finalSeen !== last) {
      throw new BlobIntegrityError(
        last ? 'Stored blob is truncated (no authenticated end)' : 'Stored blob has data after its final frame',
      );
    }
    this.push(plaintext);
  }
}
