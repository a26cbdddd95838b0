import { createHash, randomBytes } from 'node:crypto';
import { renameSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

import type { StorageEncryptionKey } from '../config';
import { BlobIntegrityError, BlobNotFoundError, InvalidBlobKeyError } from '../errors';
import { createHeader, CURRENT_FORMAT_VERSION, DEFAULT_CHUNK_SIZE, FRAME_OVERHEAD, parseHeader } from './encrypted-format';
import { EncryptStream } from './encrypt-stream';
import { FilesystemBlobStorage } from './filesystem-blob-storage';
import { verifySignedUrl } from '../signed-url';

const SIGNING_KEY = 'test-url-signing-key-0123456789abcdef';
const oldKey: StorageEncryptionKey = { id: 'k2024', key: randomBytes(32) };
const newKey: StorageEncryptionKey = { id: 'k2025', key: randomBytes(32) };

let directory: string;

async function storeWith(keys: StorageEncryptionKey[]): Promise<FilesystemBlobStorage> {
  const storage = new FilesystemBlobStorage({ directory, encryptionKeys: keys, urlSigningKey: SIGNING_KEY });
  await storage.init();
  return storage;
}

/** Streams `data` in pieces of `pieceSize` bytes, like a network upload would. */
function streamOf(data: Buffer, pieceSize = 7777): Readable {
  return Readable.from(
    (function* pieces() {
      for (let offset = 0; offset < data.length; offset += pieceSize) yield data.subarray(offset, offset + pieceSize);
    })(),
  );
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');

/** Lists every file below the store's root, relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(root, path.join(e.parentPath, e.name)));
}

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'medfolio-storage-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('FilesystemBlobStorage', () => {
  it('round-trips a multi-megabyte stream, reporting its size and SHA-256, and stores it encrypted', async () => {
    const storage = await storeWith([newKey]);
    const data = randomBytes(3 * 1024 * 1024 + 12_345);

    const result = await storage.put('records/p1/scan.pdf', streamOf(data), { contentType: 'application/pdf' });

    expect(result).toEqual({ key: 'records/p1/scan.pdf', size: data.length, sha256: sha256(data) });
    const roundTripped = await readAll(await storage.get('records/p1/scan.pdf'));
    expect(roundTripped.length).toBe(data.length);
    expect(sha256(roundTripped)).toBe(sha256(data));
    const head = await storage.head('records/p1/scan.pdf');
    expect(head).toMatchObject({ key: 'records/p1/scan.pdf', size: data.length, contentType: 'application/pdf' });
    expect(Math.abs(head.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
    const onDisk = await readFile(path.join(directory, 'records/p1/scan.pdf'));
    expect(onDisk.includes(data.subarray(1000, 1032))).toBe(false);
  });

  it('still reads files written with 64 KiB frames (each file records its frame size)', async () => {
    const storage = await storeWith([newKey]);
    const data = randomBytes(200_000);
    const header = createHeader(newKey.id, 'application/pdf', 64 * 1024);
    const encrypted = await readAll(streamOf(data).pipe(new EncryptStream(header, newKey.key, 'records/p1/old.pdf')));
    await mkdir(path.join(directory, 'records/p1'), { recursive: true });
    await writeFile(path.join(directory, 'records/p1/old.pdf'), encrypted);

    expect(sha256(await readAll(await storage.get('records/p1/old.pdf')))).toBe(sha256(data));
    expect(await storage.head('records/p1/old.pdf')).toMatchObject({ size: data.length, contentType: 'application/pdf' });
    expect(DEFAULT_CHUNK_SIZE).toBe(1024 * 1024);
  });

  it.each([
    ['no bytes', 0],
    ['exactly one chunk', DEFAULT_CHUNK_SIZE],
    ['one chunk plus one byte', DEFAULT_CHUNK_SIZE + 1],
  ])('round-trips a blob of %s and reports its size in head', async (_name, size) => {
    const storage = await storeWith([newKey]);
    const data = randomBytes(size);
    await storage.put('blob', streamOf(data));
    expect((await readAll(await storage.get('blob'))).equals(data)).toBe(true);
    expect(await storage.head('blob')).toMatchObject({ size, contentType: 'application/octet-stream' });
  });

  it('replaces an existing blob, and deletes idempotently', async () => {
    const storage = await storeWith([newKey]);
    await storage.put('a/b', streamOf(Buffer.from('first')));
    await storage.put('a/b', streamOf(Buffer.from('second')));
    expect((await readAll(await storage.get('a/b'))).toString()).toBe('second');

    await storage.delete('a/b');
    await storage.delete('a/b');
    await expect(storage.get('a/b')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('reports a missing blob (or a directory) as BlobNotFoundError', async () => {
    const storage = await storeWith([newKey]);
    await storage.put('dir/file', streamOf(Buffer.from('x')));
    await expect(storage.get('nothing-here')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(storage.head('nothing-here')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(storage.get('dir')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  describe('tamper and truncation detection', () => {
    const data = randomBytes(1024 * 1024); // 16 full chunks, then an empty final frame
    const key = 'evidence/blob.bin';
    let storage: FilesystemBlobStorage;
    let file: string;

    beforeEach(async () => {
      storage = await storeWith([newKey]);
      await storage.put(key, streamOf(data));
      file = path.join(directory, key);
    });

    async function flipByteAt(offset: number): Promise<void> {
      const bytes = await readFile(file);
      bytes[offset] = (bytes[offset] as number) ^ 0x01;
      await writeFile(file, bytes);
    }

    /** Reading either fails to open or the stream errors; it must never end normally. */
    async function readError(): Promise<unknown> {
      try {
        await readAll(await storage.get(key));
      } catch (error) {
        return error;
      }
      throw new Error('reading the damaged blob succeeded');
    }

    it('fails when one byte in the middle of the file is flipped', async () => {
      await flipByteAt(Math.floor((await stat(file)).size / 2));
      const error = await readError();
      expect(error).toBeInstanceOf(BlobIntegrityError);
      expect((error as Error).message).toContain('failed authentication');
    });

    it('fails when one byte of the header (the stored content type) is flipped', async () => {
      const bytes = await readFile(file);
      await flipByteAt(bytes.indexOf('application/octet-stream'));
      expect(await readError()).toBeInstanceOf(BlobIntegrityError);
    });

    it('fails when the last byte (part of the final tag) is flipped', async () => {
      await flipByteAt((await stat(file)).size - 1);
      expect(await readError()).toBeInstanceOf(BlobIntegrityError);
    });

    it('fails when the final frame is cut off exactly at a frame boundary', async () => {
      const size = (await stat(file)).size;
      await truncate(file, size - FRAME_OVERHEAD); // the final frame holds 0 bytes of data here
      const error = await readError();
      expect(error).toBeInstanceOf(BlobIntegrityError);
      expect((error as Error).message).toContain('truncated');
    });

    it('fails when the file is cut in the middle of a frame', async () => {
      await truncate(file, (await stat(file)).size - 1000);
      expect(await readError()).toBeInstanceOf(BlobIntegrityError);
    });

    it('fails when bytes are appended after the final frame', async () => {
      await writeFile(file, Buffer.concat([await readFile(file), Buffer.alloc(FRAME_OVERHEAD)]));
      expect(await readError()).toBeInstanceOf(BlobIntegrityError);
    });

    it('fails when the file is not a blob of this format at all', async () => {
      await writeFile(file, data);
      await expect(storage.get(key)).rejects.toBeInstanceOf(BlobIntegrityError);
    });
  });

  describe('key rotation', () => {
    it('reads blobs written with the old key after a new key is put first, and writes with the new key', async () => {
      const data = randomBytes(200_000);
      await (await storeWith([oldKey])).put('old', streamOf(data));

      const rotated = await storeWith([newKey, oldKey]);
      expect(sha256(await readAll(await rotated.get('old')))).toBe(sha256(data));

      await rotated.put('new', streamOf(data));
      const newKeyOnly = await storeWith([newKey]);
      expect(sha256(await readAll(await newKeyOnly.get('new')))).toBe(sha256(data));
      const error = await newKeyOnly.get('old').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlobIntegrityError);
      expect((error as Error).message).toContain('"k2024", which is not configured');
    });

    it('fails authentication when a key id is reused for different key material', async () => {
      await (await storeWith([oldKey])).put('blob', streamOf(randomBytes(1000)));
      const impostor = await storeWith([{ id: oldKey.id, key: randomBytes(32) }]);
      await expect(readAll(await impostor.get('blob'))).rejects.toBeInstanceOf(BlobIntegrityError);
    });
  });

  describe('format version 1 (before files were bound to their storage key) and re-encryption', () => {
    /** Writes `data` as a version 1 file under `key`, as the store did before version 2. */
    async function writeV1(key: string, data: Buffer, masterKey = newKey): Promise<void> {
      const header = createHeader(masterKey.id, 'application/pdf', DEFAULT_CHUNK_SIZE, 1);
      const encrypted = await readAll(streamOf(data).pipe(new EncryptStream(header, masterKey.key, key)));
      await mkdir(path.dirname(path.join(directory, key)), { recursive: true });
      await writeFile(path.join(directory, key), encrypted);
    }
    const versionOf = async (key: string): Promise<number> => parseHeader(await readFile(path.join(directory, key))).version;

    it('writes new files in version 2 and still reads version 1 files', async () => {
      const storage = await storeWith([newKey]);
      const data = randomBytes(DEFAULT_CHUNK_SIZE + 5000);
      await writeV1('old/a.pdf', data);
      await storage.put('new/a.pdf', streamOf(data));
      expect(await versionOf('old/a.pdf')).toBe(1);
      expect(await versionOf('new/a.pdf')).toBe(CURRENT_FORMAT_VERSION);
      expect(CURRENT_FORMAT_VERSION).toBe(2);
      expect(sha256(await readAll(await storage.get('old/a.pdf')))).toBe(sha256(data));
      expect(await storage.head('old/a.pdf')).toMatchObject({ size: data.length, contentType: 'application/pdf' });
    });

    it('a version 1 file still opens when moved to another key (its weakness), until it is re-encrypted', async () => {
      const storage = await storeWith([newKey]);
      const data = randomBytes(10_000);
      await writeV1('p1/a.pdf', data);
      await writeFile(path.join(directory, 'p1/moved.pdf'), await readFile(path.join(directory, 'p1/a.pdf')));
      expect((await readAll(await storage.get('p1/moved.pdf'))).equals(data)).toBe(true);

      expect(await storage.reencrypt('p1/a.pdf')).toBe(true);
      await writeFile(path.join(directory, 'p1/moved.pdf'), await readFile(path.join(directory, 'p1/a.pdf')));
      await expect(readAll(await storage.get('p1/moved.pdf'))).rejects.toThrow('failed authentication at frame 0');
      expect((await readAll(await storage.get('p1/a.pdf'))).equals(data)).toBe(true);
    });

    it('reencrypt rewrites an old-format or old-key blob with the same bytes and type, and leaves a current one alone', async () => {
      const data = randomBytes(2 * DEFAULT_CHUNK_SIZE + 77);
      await writeV1('v1.pdf', data, oldKey);
      await (await storeWith([oldKey])).put('old-key.pdf', streamOf(data), { contentType: 'image/png' });
      const storage = await storeWith([newKey, oldKey]);
      await storage.put('current.pdf', streamOf(data));
      const untouched = await readFile(path.join(directory, 'current.pdf'));

      expect(await storage.reencrypt('v1.pdf')).toBe(true);
      expect(await storage.reencrypt('old-key.pdf')).toBe(true);
      expect(await storage.reencrypt('current.pdf')).toBe(false);

      expect((await readFile(path.join(directory, 'current.pdf'))).equals(untouched)).toBe(true);
      const newKeyOnly = await storeWith([newKey]);
      for (const key of ['v1.pdf', 'old-key.pdf']) {
        expect(parseHeader(await readFile(path.join(directory, key)))).toMatchObject({ version: 2, keyId: newKey.id });
        expect(sha256(await readAll(await newKeyOnly.get(key)))).toBe(sha256(data));
      }
      expect((await newKeyOnly.head('old-key.pdf')).contentType).toBe('image/png');
      expect(await filesUnder(directory)).toEqual(expect.not.arrayContaining([expect.stringContaining('.part')]));
    });

    it('reencrypt leaves a damaged blob as it was, with BlobIntegrityError and no temporary file', async () => {
      await writeV1('v1.pdf', randomBytes(3 * DEFAULT_CHUNK_SIZE));
      const file = path.join(directory, 'v1.pdf');
      const bytes = await readFile(file);
      bytes[bytes.length - DEFAULT_CHUNK_SIZE] ^= 0x01; // inside the last full frame
      await writeFile(file, bytes);
      const storage = await storeWith([newKey]);

      await expect(storage.reencrypt('v1.pdf')).rejects.toBeInstanceOf(BlobIntegrityError);
      expect((await readFile(file)).equals(bytes)).toBe(true);
      expect(await filesUnder(directory)).toEqual(['v1.pdf']);
    });

    it('reencrypt does not overwrite a blob that was replaced while it was being rewritten', async () => {
      await writeV1('v1.pdf', randomBytes(8 * DEFAULT_CHUNK_SIZE));
      const storage = await storeWith([newKey]);
      const replacement = path.join(directory, 'replacement');
      await writeFile(replacement, 'a newer upload');
      const rewriting = storage.reencrypt('v1.pdf');
      // Once the rewrite has its temporary file, the blob is replaced at once (as a put's rename would).
      while ((await readdir(path.join(directory, '.tmp'))).length === 0) await new Promise(setImmediate);
      renameSync(replacement, path.join(directory, 'v1.pdf'));

      await expect(rewriting).rejects.toThrow('replaced while it was being re-encrypted');
      expect((await readFile(path.join(directory, 'v1.pdf'))).toString()).toBe('a newer upload');
      expect(await filesUnder(directory)).toEqual(['v1.pdf']);
    });

    it('reencryptAll rewrites every old blob, counts the current ones, and lists (and skips) the unreadable', async () => {
      await writeV1('a/1.pdf', randomBytes(1000));
      await writeV1('a/b/2.pdf', randomBytes(1000));
      await writeV1('retired.pdf', randomBytes(1000), { id: 'gone', key: randomBytes(32) });
      const storage = await storeWith([newKey]);
      await storage.put('a/3.pdf', streamOf(randomBytes(1000)));
      await writeFile(path.join(directory, '.tmp', 'left-by-a-crash.part'), 'x');

      const summary = await storage.reencryptAll();

      expect(summary).toEqual({ rewritten: 2, current: 1, failed: ['retired.pdf'] });
      expect(await versionOf('a/b/2.pdf')).toBe(2);
      expect(await storage.reencryptAll()).toEqual({ rewritten: 0, current: 3, failed: ['retired.pdf'] });
    });
  });

  describe('head authenticates what it reports', () => {
    it.each([
      ['a flipped content type', (bytes: Buffer) => void (bytes[bytes.indexOf('application/pdf')] ^= 0x01)],
      ['a flipped byte in the final frame', (bytes: Buffer) => void (bytes[bytes.length - 20] ^= 0x01)],
    ])('refuses %s', async (_name, damage) => {
      const storage = await storeWith([newKey]);
      await storage.put('blob', streamOf(randomBytes(DEFAULT_CHUNK_SIZE + 10)), { contentType: 'application/pdf' });
      const bytes = await readFile(path.join(directory, 'blob'));
      damage(bytes);
      await writeFile(path.join(directory, 'blob'), bytes);
      await expect(storage.head('blob')).rejects.toBeInstanceOf(BlobIntegrityError);
    });

    it('refuses a file cut to a length that a shorter blob could have (the size alone would look right)', async () => {
      const storage = await storeWith([newKey]);
      await storage.put('blob', streamOf(randomBytes(2 * DEFAULT_CHUNK_SIZE + 10)));
      const file = path.join(directory, 'blob');
      // Frame 0 and half of frame 1 left: as long as a file of 1.5 chunks, but frame 1 is not final.
      await truncate(file, (await stat(file)).size - (10 + FRAME_OVERHEAD) - DEFAULT_CHUNK_SIZE / 2);
      await expect(storage.head('blob')).rejects.toThrow('truncated');
      // Cut at a frame boundary, the length itself is impossible for the format.
      await truncate(file, parseHeader(await readFile(file)).bytes.length + DEFAULT_CHUNK_SIZE + FRAME_OVERHEAD);
      await expect(storage.head('blob')).rejects.toThrow('shorter than its format allows');
    });
  });

  describe('unsafe keys', () => {
    const unsafeKeys = [
      '../escape',
      'a/../../escape',
      '/etc/passwd',
      'a\0b',
      '',
      '.hidden',
      'a//b',
      'a/',
      'a\\b',
      'C:/x',
      'white space',
    ];

    it.each(unsafeKeys)('refuses %j in every operation', async (key) => {
      const storage = await storeWith([newKey]);
      await expect(storage.put(key, streamOf(Buffer.from('x')))).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(storage.head(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidBlobKeyError);
      await expect(storage.createDownloadUrl(key, { expiresInSeconds: 60 })).rejects.toBeInstanceOf(
        InvalidBlobKeyError,
      );
      expect(await filesUnder(directory)).toEqual([]);
    });
  });

  describe('a source stream that errors midway', () => {
    function failingStream(bytesBeforeError: number): Readable {
      return Readable.from(
        (async function* source() {
          yield randomBytes(bytesBeforeError);
          throw new Error('client disconnected');
        })(),
      );
    }

    it('rejects with the source error and leaves neither the blob nor a temporary file', async () => {
      const storage = await storeWith([newKey]);
      await expect(storage.put('upload', failingStream(1024 * 1024))).rejects.toThrow('client disconnected');
      expect(await filesUnder(directory)).toEqual([]);
      await expect(storage.head('upload')).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it('keeps the previous version of the blob intact', async () => {
      const storage = await storeWith([newKey]);
      await storage.put('upload', streamOf(Buffer.from('version 1')));
      await expect(storage.put('upload', failingStream(300_000))).rejects.toThrow('client disconnected');
      expect((await readAll(await storage.get('upload'))).toString()).toBe('version 1');
      expect(await filesUnder(directory)).toEqual(['upload']);
    });
  });

  it('creates download URLs that verify for the right key, filename and type', async () => {
    const storage = await storeWith([newKey]);
    const url = await storage.createDownloadUrl('records/p1/scan.pdf', {
      expiresInSeconds: 300,
      filename: 'Scan März.pdf',
      contentType: 'application/pdf',
    });
    expect(url.startsWith('/api/files/records/p1/scan.pdf?')).toBe(true);
    const verified = verifySignedUrl(url, { signingKey: SIGNING_KEY });
    expect(verified).toMatchObject({
      valid: true,
      key: 'records/p1/scan.pdf',
      filename: 'Scan März.pdf',
      contentType: 'application/pdf',
    });
    expect(verifySignedUrl(url, { signingKey: SIGNING_KEY, now: new Date(Date.now() + 301_000) })).toEqual({
      valid: false,
      reason: 'expired',
    });
  });

  it('is healthy once initialised and unhealthy when its directory is gone', async () => {
    const storage = await storeWith([newKey]);
    expect(await storage.isHealthy()).toBe(true);
    await rm(directory, { recursive: true });
    expect(await storage.isHealthy()).toBe(false);
  });

  it('refuses a configuration without keys, with a short key, or with a short signing key', () => {
    const base = { directory, urlSigningKey: SIGNING_KEY };
    expect(() => new FilesystemBlobStorage({ ...base, encryptionKeys: [] })).toThrow('At least one');
    expect(() => new FilesystemBlobStorage({ ...base, encryptionKeys: [{ id: 'k', key: randomBytes(16) }] })).toThrow(
      '32 bytes',
    );
    expect(() => new FilesystemBlobStorage({ directory, encryptionKeys: [newKey], urlSigningKey: 'short' })).toThrow(
      'at least 32',
    );
  });
});
