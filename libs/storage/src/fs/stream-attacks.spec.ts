import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

import type { StorageEncryptionKey } from '../config';
import { BlobIntegrityError } from '../errors';
import { DEFAULT_CHUNK_SIZE, FRAME_OVERHEAD, parseHeader } from './encrypted-format';
import { FilesystemBlobStorage } from './filesystem-blob-storage';
import {
  SECRETSTREAM_OVERHEAD,
  SecretstreamDecryptStream,
  parseSecretstreamHeader,
  secretstreamSeal,
} from './testing/secretstream-format';

/**
 * The attacks a security review tried on a stored file, run against the store's own format (through the real
 * FilesystemBlobStorage: put, then the altered file read back with get) and against libsodium's
 * secretstream in the same layout (testing/secretstream-format.ts). For each: the read must fail with
 * BlobIntegrityError, and what was delivered before the failure must be exactly the plaintext of the
 * frames before the damaged one: nothing past the failure point, nothing unauthenticated.
 */

const CHUNK = DEFAULT_CHUNK_SIZE;
const current: StorageEncryptionKey = { id: 'k2025', key: randomBytes(32) };
const retired: StorageEncryptionKey = { id: 'k2024', key: randomBytes(32) };
const BLOB_A = 'documents/p1/a.pdf';
const BLOB_B = 'documents/p2/b.pdf';
// Three full frames and a final one holding half a chunk.
const plaintextA = randomBytes(3 * CHUNK + CHUNK / 2);
const plaintextB = randomBytes(3 * CHUNK + CHUNK / 2);

interface Construction {
  name: string;
  overhead: number;
  /** The stored file of `plaintext` under `blobKey`, with the given key. */
  seal(blobKey: string, plaintext: Buffer, key?: StorageEncryptionKey): Promise<Buffer>;
  /** Reads `file` as the blob `blobKey` with only `keys` configured: the plaintext as it streams out. */
  open(blobKey: string, file: Buffer, keys?: StorageEncryptionKey[]): Promise<Readable>;
  headerLength(file: Buffer): number;
}

let directory: string;

async function store(keys: StorageEncryptionKey[]): Promise<FilesystemBlobStorage> {
  const storage = new FilesystemBlobStorage({ directory, encryptionKeys: keys, urlSigningKey: 'x'.repeat(32) });
  await storage.init();
  return storage;
}

const ours: Construction = {
  name: 'ours (AES-256-GCM STREAM, the filesystem store)',
  overhead: FRAME_OVERHEAD,
  async seal(blobKey, plaintext, key = current) {
    await (await store([key])).put(blobKey, Readable.from([plaintext]), { contentType: 'application/pdf' });
    return readFile(path.join(directory, blobKey));
  },
  async open(blobKey, file, keys = [current, retired]) {
    await mkdir(path.dirname(path.join(directory, blobKey)), { recursive: true });
    await writeFile(path.join(directory, blobKey), file);
    return (await store(keys)).get(blobKey);
  },
  headerLength: (file) => parseHeader(file).bytes.length,
};

const secretstream: Construction = {
  name: 'libsodium secretstream (XChaCha20-Poly1305, reference)',
  overhead: SECRETSTREAM_OVERHEAD,
  async seal(blobKey, plaintext, key = current) {
    return secretstreamSeal(plaintext, {
      keyId: key.id,
      masterKey: key.key,
      blobKey,
      contentType: 'application/pdf',
      chunkSize: CHUNK,
    });
  },
  async open(blobKey, file, keys = [current, retired]) {
    const header = parseSecretstreamHeader(file);
    const key = keys.find((k) => k.id === header.keyId);
    if (!key)
      throw new BlobIntegrityError(`Stored blob was encrypted with key id "${header.keyId}", which is not configured`);
    // Read in 64 KiB pieces, as from a file.
    const pieces: Buffer[] = [];
    for (let offset = header.bytes.length; offset < file.length; offset += 65_536)
      pieces.push(file.subarray(offset, offset + 65_536));
    return Readable.from(pieces).pipe(new SecretstreamDecryptStream(header, key.key, blobKey));
  },
  headerLength: (file) => parseSecretstreamHeader(file).bytes.length,
};

/** Everything the reader delivered, and how it ended (an error, or undefined if it ended normally). */
async function readToEnd(open: () => Promise<Readable>): Promise<{ delivered: Buffer; error: unknown }> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of await open()) chunks.push(chunk as Buffer);
  } catch (error) {
    return { delivered: Buffer.concat(chunks), error };
  }
  return { delivered: Buffer.concat(chunks), error: undefined };
}

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'medfolio-attacks-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe.each([ours, secretstream])('$name', (construction) => {
  const frameLength = CHUNK + construction.overhead;
  /** Byte range of frame `i` in `file` (the last one runs to the end). */
  const frame = (file: Buffer, i: number): Buffer => {
    const start = construction.headerLength(file) + i * frameLength;
    return file.subarray(start, i === 3 ? file.length : start + frameLength);
  };
  const header = (file: Buffer): Buffer => file.subarray(0, construction.headerLength(file));

  it('reads an untouched file back whole (the attacks below start from it)', async () => {
    const file = await construction.seal(BLOB_A, plaintextA);
    const { delivered, error } = await readToEnd(() => construction.open(BLOB_A, file));
    expect(error).toBeUndefined();
    expect(delivered.equals(plaintextA)).toBe(true);
    expect(file.length).toBe(construction.headerLength(file) + plaintextA.length + 4 * construction.overhead);
  });

  // [attack, the stored bytes after it, frames of A that may still be delivered, what the message says]
  const attacks: [string, (a: Buffer, b: Buffer) => Buffer, number, string | RegExp][] = [
    [
      'truncation at a frame boundary (final frame cut off)',
      (a) => a.subarray(0, a.length - frame(a, 3).length),
      3,
      'truncated',
    ],
    [
      'truncation at an earlier frame boundary',
      (a) => Buffer.concat([header(a), frame(a, 0), frame(a, 1)]),
      2,
      'truncated',
    ],
    ['truncation in the middle of a frame', (a) => a.subarray(0, a.length - frame(a, 3).length - CHUNK / 2), 2, ''],
    ['truncation in the middle of the final frame', (a) => a.subarray(0, a.length - 100), 3, ''],
    [
      'two frames swapped',
      (a) => Buffer.concat([header(a), frame(a, 0), frame(a, 2), frame(a, 1), frame(a, 3)]),
      1,
      'failed authentication at frame 1',
    ],
    [
      'a frame dropped',
      (a) => Buffer.concat([header(a), frame(a, 0), frame(a, 2), frame(a, 3)]),
      1,
      'failed authentication at frame 1',
    ],
    [
      'a frame repeated',
      (a) => Buffer.concat([header(a), frame(a, 0), frame(a, 0), frame(a, 1), frame(a, 2), frame(a, 3)]),
      1,
      'failed authentication at frame 1',
    ],
    [
      'a frame swapped in from another file under the same key, at the same position',
      (a, b) => Buffer.concat([header(a), frame(a, 0), frame(b, 1), frame(a, 2), frame(a, 3)]),
      1,
      'failed authentication at frame 1',
    ],
    [
      "another file's final frame put in place of this one's",
      (a, b) => Buffer.concat([header(a), frame(a, 0), frame(a, 1), frame(a, 2), frame(b, 3)]),
      3,
      'failed authentication at frame 3',
    ],
    [
      "another file's header on this file's frames",
      (a, b) => Buffer.concat([header(b), a.subarray(header(a).length)]),
      0,
      'failed authentication at frame 0',
    ],
    [
      'one bit flipped in the ciphertext of frame 2',
      (a) => {
        const copy = Buffer.from(a);
        copy[construction.headerLength(a) + 2 * frameLength + 1000] ^= 0x01;
        return copy;
      },
      2,
      'failed authentication at frame 2',
    ],
    [
      'one bit flipped in the stored content type',
      (a) => {
        const copy = Buffer.from(a);
        copy[a.indexOf('application/pdf')] ^= 0x01;
        return copy;
      },
      0,
      'failed authentication at frame 0',
    ],
    // secretstream's frames have no length field, so appended bytes become part of its final frame.
    [
      'bytes appended after the final frame',
      (a) => Buffer.concat([a, frame(a, 3)]),
      4,
      /after its final frame|failed authentication at frame 3/,
    ],
  ];

  it.each(attacks)(
    'detects %s, delivering nothing past the last intact frame before it',
    async (_name, attack, intactFrames, message) => {
      const a = await construction.seal(BLOB_A, plaintextA);
      const b = await construction.seal(BLOB_B, plaintextB);

      const { delivered, error } = await readToEnd(() => construction.open(BLOB_A, attack(a, b)));

      expect(error).toBeInstanceOf(BlobIntegrityError);
      expect((error as Error).message).toMatch(message);
      expect(delivered.length).toBeLessThanOrEqual(Math.min(intactFrames * CHUNK, plaintextA.length));
      expect(delivered.equals(plaintextA.subarray(0, delivered.length))).toBe(true);
      // Streamed reads release whole frames only: the prefix ends at a frame boundary.
      expect(delivered.length === plaintextA.length || delivered.length % CHUNK === 0).toBe(true);
    },
  );

  it('detects a whole file moved or copied to another storage key', async () => {
    const a = await construction.seal(BLOB_A, plaintextA);
    const { delivered, error } = await readToEnd(() => construction.open(BLOB_B, a));
    expect(error).toBeInstanceOf(BlobIntegrityError);
    expect((error as Error).message).toContain('failed authentication at frame 0');
    expect(delivered.length).toBe(0);
  });

  it('refuses a file under a key id that is no longer configured, naming the id, before any byte', async () => {
    const a = await construction.seal(BLOB_A, plaintextA, retired);
    const { delivered, error } = await readToEnd(() => construction.open(BLOB_A, a, [current]));
    expect(error).toBeInstanceOf(BlobIntegrityError);
    expect((error as Error).message).toContain('"k2024", which is not configured');
    expect(delivered.length).toBe(0);
  });

  it('detects a key id that names different key material, before any byte', async () => {
    const a = await construction.seal(BLOB_A, plaintextA, retired);
    const { delivered, error } = await readToEnd(() =>
      construction.open(BLOB_A, a, [{ id: retired.id, key: randomBytes(32) }]),
    );
    expect(error).toBeInstanceOf(BlobIntegrityError);
    expect(delivered.length).toBe(0);
  });
});
