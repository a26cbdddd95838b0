/**
 * On-disk format of the filesystem store: chunked AES-256-GCM in the STREAM construction of
 * Hoang, Reyhanitabar, Rogaway and Vizar ("Online Authenticated-Encryption and its Nonce-Reuse
 * Misuse-Resistance", CRYPTO 2015), laid out like Tink's AES-GCM-HKDF streaming AEAD, so files of any
 * size are encrypted and authenticated with bounded memory. libs/storage/README.md ("The encrypted
 * file format") states what each attack runs into and which test shows it.
 *
 *   file   = header frame* finalFrame
 *   header = "MDFB" | version u8 (1 or 2) | chunkSize u32 | salt (32 bytes)
 *            | keyIdLength u8 | keyId (UTF-8) | contentTypeLength u8 | contentType (UTF-8)
 *   frame  = flags u8 | plaintextLength u32 | ciphertext | GCM tag (16 bytes)      (integers big-endian)
 *
 * - Each file gets its own AES key: HKDF-SHA256(ikm = master key named by keyId, salt, info). In
 *   version 2, info = "medfolio blob storage v2" | 0x00 | the blob's storage key, so a file moved or
 *   copied to another key does not open there; version 1 used info = "medfolio blob storage v1" alone.
 * - Nonce of frame i: version 2, 7 zero bytes | u32 i | last flag (0x01 on the final frame, else 0x00),
 *   STREAM's "prefix | counter | last". The prefix can be fixed because no two files share a key.
 *   Version 1: 4 zero bytes | u64 i, the last flag only in the frame's flags.
 * - Every frame's tag also covers the whole header and the frame's own flags and length (additional
 *   authenticated data), so the key id, content type, chunk size and lengths cannot be altered.
 * - The counter in the nonce makes dropped, repeated or reordered frames fail authentication.
 * - Exactly one frame, the last, carries the FINAL flag (it may hold 0 bytes). A file that ends before
 *   an authenticated final frame has been truncated; bytes after it have been appended. Both are errors.
 * - Non-final frames hold exactly chunkSize bytes and the final one fewer, so the plaintext size follows
 *   from the file size ({@link plaintextSize}).
 * New files are written in version 2; version 1 files still read (and can be rewritten,
 * FilesystemBlobStorage.reencrypt).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

import { BlobIntegrityError } from '../errors';

const MAGIC = Buffer.from('MDFB', 'ascii');
/** The version new files are written in; see the top of this file for what each changed. */
export const CURRENT_FORMAT_VERSION = 2;
export type FormatVersion = 1 | 2;
const SALT_LENGTH = 32;
const TAG_LENGTH = 16;
const HKDF_INFO_V1 = 'medfolio blob storage v1';
const HKDF_INFO_V2 = 'medfolio blob storage v2';
/** Version 2 counts frames in 4 bytes: 2^32 frames of 1 MiB, 4 PiB per file. */
const MAX_FRAMES_V2 = 2 ** 32;
/**
 * Plaintext bytes per frame of new files: the 21 bytes of overhead are negligible, and the cost per
 * frame (a cipher set up, one write) is paid 16 times less often than with 64 KiB frames (a 256 MB
 * upload took about half the CPU; bench/upload.mjs). Files record their own size, so files written
 * with another one still read.
 */
export const DEFAULT_CHUNK_SIZE = 1024 * 1024;
/** Upper bound accepted when reading, which bounds the memory a reader ever needs. */
const MAX_CHUNK_SIZE = 4 * 1024 * 1024;
export const FRAME_HEADER_LENGTH = 5;
/** Bytes a frame adds to its plaintext. */
export const FRAME_OVERHEAD = FRAME_HEADER_LENGTH + TAG_LENGTH;
const FLAG_FINAL = 0x01;
const FIXED_HEADER_LENGTH = MAGIC.length + 1 + 4 + SALT_LENGTH;
/** The longest possible header, so a reader knows how much to read to parse it. */
export const MAX_HEADER_LENGTH = FIXED_HEADER_LENGTH + 1 + 255 + 1 + 255;

export interface FileHeader {
  /** The header exactly as stored, authenticated by every frame. */
  bytes: Buffer;
  version: FormatVersion;
  chunkSize: number;
  salt: Buffer;
  keyId: string;
  contentType: string;
}

/** The header of a new file; `version` other than the current one only for tests of old files. */
export function createHeader(
  keyId: string,
  contentType: string,
  chunkSize = DEFAULT_CHUNK_SIZE,
  version: FormatVersion = CURRENT_FORMAT_VERSION,
): FileHeader {
  const keyIdBytes = Buffer.from(keyId, 'utf8');
  const contentTypeBytes = Buffer.from(contentType, 'utf8');
  if (keyIdBytes.length > 255) throw new Error('Encryption key id longer than 255 bytes');
  if (contentTypeBytes.length > 255) throw new Error('Content type longer than 255 bytes');
  const salt = randomBytes(SALT_LENGTH);
  const fixed = Buffer.alloc(FIXED_HEADER_LENGTH);
  MAGIC.copy(fixed, 0);
  fixed.writeUInt8(version, MAGIC.length);
  fixed.writeUInt32BE(chunkSize, MAGIC.length + 1);
  salt.copy(fixed, MAGIC.length + 5);
  const bytes = Buffer.concat([
    fixed,
    Buffer.from([keyIdBytes.length]),
    keyIdBytes,
    Buffer.from([contentTypeBytes.length]),
    contentTypeBytes,
  ]);
  return { bytes, version, chunkSize, salt, keyId, contentType };
}

/**
 * Parses the header at the start of `data` (which may extend past it). Throws BlobIntegrityError
 * if it is not a header of this format. Not authenticated yet: the frames' tags are what prove it.
 */
export function parseHeader(data: Buffer): FileHeader {
  const fail = (why: string): never => {
    throw new BlobIntegrityError(`Stored blob has an invalid header: ${why}`);
  };
  if (data.length < FIXED_HEADER_LENGTH || !data.subarray(0, MAGIC.length).equals(MAGIC)) fail('not a Medfolio blob');
  const version = data.readUInt8(MAGIC.length);
  if (version !== 1 && version !== 2) fail(`unknown format version ${version}`);
  const chunkSize = data.readUInt32BE(MAGIC.length + 1);
  if (chunkSize === 0 || chunkSize > MAX_CHUNK_SIZE) fail(`chunk size ${chunkSize} out of range`);
  const salt = Buffer.from(data.subarray(MAGIC.length + 5, FIXED_HEADER_LENGTH));
  let offset = FIXED_HEADER_LENGTH;
  const readField = (): string => {
    if (offset >= data.length) fail('truncated');
    const length = data.readUInt8(offset);
    if (offset + 1 + length > data.length) fail('truncated');
    const value = data.toString('utf8', offset + 1, offset + 1 + length);
    offset += 1 + length;
    return value;
  };
  const keyId = readField();
  const contentType = readField();
  return {
    bytes: Buffer.from(data.subarray(0, offset)),
    version: version as FormatVersion,
    chunkSize,
    salt,
    keyId,
    contentType,
  };
}

/**
 * The per-file AES-256 key. `blobKey` is the storage key the file is written under (version 2 binds
 * the file to it; storage keys contain no NUL, so the info string is unambiguous).
 */
export function deriveFileKey(masterKey: Buffer, header: FileHeader, blobKey: string): Buffer {
  const info =
    header.version === 1
      ? HKDF_INFO_V1
      : Buffer.concat([Buffer.from(`${HKDF_INFO_V2}\0`), Buffer.from(blobKey, 'utf8')]);
  return Buffer.from(hkdfSync('sha256', masterKey, header.salt, info, 32));
}

function frameNonce(header: FileHeader, index: number, final: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  if (header.version === 1) {
    nonce.writeBigUInt64BE(BigInt(index), 4);
    return nonce;
  }
  if (index >= MAX_FRAMES_V2) throw new BlobIntegrityError('Blob too large for its format (2^32 frames)');
  nonce.writeUInt32BE(index, 7);
  nonce.writeUInt8(final ? 1 : 0, 11);
  return nonce;
}

function frameHeader(final: boolean, plaintextLength: number): Buffer {
  const bytes = Buffer.alloc(FRAME_HEADER_LENGTH);
  bytes.writeUInt8(final ? FLAG_FINAL : 0, 0);
  bytes.writeUInt32BE(plaintextLength, 1);
  return bytes;
}

/** Encrypts one frame (header, ciphertext and tag). */
export function sealFrame(
  fileKey: Buffer,
  header: FileHeader,
  index: number,
  final: boolean,
  plaintext: Buffer,
): Buffer {
  return Buffer.concat(sealFrameParts(fileKey, header, index, final, [plaintext]));
}

/**
 * Encrypts one frame whose plaintext arrived in pieces: the frame header, the ciphertext of each
 * piece in order, then the tag; written one after the other they are exactly sealFrame's output.
 * Nothing is copied but by the cipher itself, so a stream of large files allocates as little as it can.
 */
export function sealFrameParts(
  fileKey: Buffer,
  header: FileHeader,
  index: number,
  final: boolean,
  plaintext: readonly Buffer[],
): Buffer[] {
  const length = plaintext.reduce((sum, piece) => sum + piece.length, 0);
  const head = frameHeader(final, length);
  const cipher = createCipheriv('aes-256-gcm', fileKey, frameNonce(header, index, final), {
    authTagLength: TAG_LENGTH,
  });
  cipher.setAAD(Buffer.concat([header.bytes, head]));
  const parts = [head];
  for (const piece of plaintext) if (piece.length > 0) parts.push(cipher.update(piece));
  const rest = cipher.final(); // empty for GCM, which is a stream mode
  if (rest.length > 0) parts.push(rest);
  parts.push(cipher.getAuthTag());
  return parts;
}

/** What the 5-byte frame header announces; throws if it cannot belong to a valid file. */
export function readFrameHeader(bytes: Buffer, chunkSize: number): { final: boolean; plaintextLength: number } {
  const flags = bytes.readUInt8(0);
  const plaintextLength = bytes.readUInt32BE(1);
  const final = flags === FLAG_FINAL;
  const validLength = final ? plaintextLength < chunkSize : plaintextLength === chunkSize;
  if ((flags !== 0 && !final) || !validLength) throw new BlobIntegrityError('Stored blob has an invalid frame');
  return { final, plaintextLength };
}

/** Decrypts and authenticates one whole frame; throws BlobIntegrityError if it was altered. */
export function openFrame(fileKey: Buffer, header: FileHeader, index: number, frame: Buffer): Buffer {
  const head = frame.subarray(0, FRAME_HEADER_LENGTH);
  // The flag read here is not trusted yet: the nonce and the additional data both carry it, so a
  // changed flag only makes the tag check below fail.
  const final = (head.readUInt8(0) & FLAG_FINAL) !== 0;
  const decipher = createDecipheriv('aes-256-gcm', fileKey, frameNonce(header, index, final), {
    authTagLength: TAG_LENGTH,
  });
  decipher.setAAD(Buffer.concat([header.bytes, head]));
  decipher.setAuthTag(frame.subarray(frame.length - TAG_LENGTH));
  const plaintext = decipher.update(frame.subarray(FRAME_HEADER_LENGTH, frame.length - TAG_LENGTH));
  try {
    const rest = decipher.final(); // empty for GCM: no second copy of the frame
    return rest.length === 0 ? plaintext : Buffer.concat([plaintext, rest]);
  } catch {
    throw new BlobIntegrityError(`Stored blob failed authentication at frame ${index}: tampered with or corrupted`);
  }
}

/**
 * Plaintext size of a well-formed file of `fileSize` bytes: k full frames of (chunkSize + overhead)
 * and one final frame of (overhead + remainder), with remainder < chunkSize.
 */
export function plaintextSize(fileSize: number, header: FileHeader): number {
  const frames = fileSize - header.bytes.length;
  const fullFrames = Math.floor(frames / (header.chunkSize + FRAME_OVERHEAD));
  const remainder = frames - fullFrames * (header.chunkSize + FRAME_OVERHEAD) - FRAME_OVERHEAD;
  if (remainder < 0) throw new BlobIntegrityError('Stored blob is shorter than its format allows');
  return fullFrames * header.chunkSize + remainder;
}
