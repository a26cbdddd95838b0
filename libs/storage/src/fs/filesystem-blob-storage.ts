import { randomUUID } from 'node:crypto';
import { type FileHandle, access, constants, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, pipeline } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';

import { assertSafeBlobKey } from '../blob-key';
import {
  type BlobHead,
  type BlobStorage,
  type DownloadUrlOptions,
  type PutBlobOptions,
  type PutBlobResult,
} from '../blob-storage';
import { type FilesystemStorageConfig, type StorageEncryptionKey, assertValidEncryptionKeys } from '../config';
import { BlobIntegrityError, BlobNotFoundError, BlobStorageError } from '../errors';
import { HashingStream } from '../hashing-stream';
import { assertValidContentType } from '../http-headers';
import { DEFAULT_DOWNLOAD_BASE_PATH, assertValidUrlSigning, gatewayDownloadUrl } from '../signed-url';
import { DecryptStream } from './decrypt-stream';
import { DurableFileWriter } from './durable-file-writer';
import { EncryptStream } from './encrypt-stream';
import {
  CURRENT_FORMAT_VERSION,
  type FileHeader,
  FRAME_OVERHEAD,
  MAX_HEADER_LENGTH,
  createHeader,
  deriveFileKey,
  openFrame,
  parseHeader,
  plaintextSize,
  readFrameHeader,
} from './encrypted-format';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** Uploads in progress live here, on the same filesystem as the blobs so the final rename is atomic. */
const TEMP_DIR = '.tmp';

/**
 * Blobs as encrypted files under a root directory, for single-node installs and development.
 * Each file is AES-256-GCM encrypted in authenticated chunks (format: encrypted-format.ts) with the
 * current key, bound to its storage key, and records that key's id so older keys keep decrypting
 * after a rotation; `reencrypt` moves old files to the current format and key.
 * Writes go to a temporary file that is renamed into place only once complete, so readers see the
 * old blob or the new one, never a partial file. Download URLs are HMAC-signed (signed-url.ts).
 */
export class FilesystemBlobStorage implements BlobStorage {
  private readonly root: string;
  private readonly keysById: ReadonlyMap<string, Buffer>;
  private readonly currentKey: StorageEncryptionKey;
  private readonly basePath: string;

  constructor(private readonly config: FilesystemStorageConfig) {
    assertValidEncryptionKeys(config.encryptionKeys);
    this.basePath = config.downloadBasePath ?? DEFAULT_DOWNLOAD_BASE_PATH;
    assertValidUrlSigning(config.urlSigningKey, this.basePath);
    this.root = path.resolve(config.directory);
    this.keysById = new Map(config.encryptionKeys.map((k) => [k.id, k.key]));
    this.currentKey = config.encryptionKeys[0] as StorageEncryptionKey;
  }

  /** Creates the root and temporary directories; `createBlobStorage` calls it at startup. */
  async init(): Promise<void> {
    await mkdir(path.join(this.root, TEMP_DIR), { recursive: true, mode: 0o700 });
  }

  async put(key: string, body: Readable, options: PutBlobOptions = {}): Promise<PutBlobResult> {
    const contentType = options.contentType ?? DEFAULT_CONTENT_TYPE;
    assertValidContentType(contentType);
    return this.write(key, body, contentType);
  }

  /**
   * Rewrites a blob in the current format under the current key, if it is in an older format or under
   * an older key: the migration path after a format change or a key rotation. Returns whether it
   * rewrote it. The old file is authenticated as it is read; if it is damaged, the call fails with
   * BlobIntegrityError and the blob stays as it was. Size, SHA-256 and content type do not change.
   * A blob replaced by a put while it is being rewritten is left to that put (not overwritten).
   */
  async reencrypt(key: string): Promise<boolean> {
    const handle = await this.openBlob(key);
    let source: Readable;
    let original: { dev: number; ino: number };
    let header: FileHeader;
    try {
      header = await readHeader(handle, key);
      if (header.version === CURRENT_FORMAT_VERSION && header.keyId === this.currentKey.id) {
        await handle.close();
        return false;
      }
      original = await handle.stat();
      source = this.decrypting(handle, header, key);
    } catch (error) {
      await handle.close();
      throw error;
    }
    await this.write(key, source, header.contentType, async (target) => {
      const now = await stat(target).catch(() => null);
      if (now?.dev !== original.dev || now.ino !== original.ino) {
        throw new BlobIntegrityError('Stored blob was replaced while it was being re-encrypted; left as replaced', key);
      }
    });
    return true;
  }

  /**
   * {@link reencrypt} for every blob in the store: the command behind `reencrypt-command.ts`. A blob
   * that cannot be read (damaged, or under a key no longer configured) is listed and skipped.
   */
  async reencryptAll(): Promise<{ rewritten: number; current: number; failed: string[] }> {
    const summary = { rewritten: 0, current: 0, failed: [] as string[] };
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const key = path.relative(this.root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
      if (key.startsWith(`${TEMP_DIR}/`)) continue;
      try {
        if (await this.reencrypt(key)) summary.rewritten += 1;
        else summary.current += 1;
      } catch (error) {
        if (!(error instanceof BlobStorageError)) throw error;
        summary.failed.push(key);
      }
    }
    return summary;
  }

  /**
   * Encrypts `body` into a temporary file and renames it into place once it is complete and on disk;
   * `beforeRename` may still refuse. On any failure the temporary file is removed.
   */
  private async write(
    key: string,
    body: Readable,
    contentType: string,
    beforeRename?: (target: string) => Promise<void>,
  ): Promise<PutBlobResult> {
    const target = this.pathOf(key);
    const header = createHeader(this.currentKey.id, contentType);
    const hasher = new HashingStream();
    const temp = path.join(this.root, TEMP_DIR, `${randomUUID()}.part`);
    await mkdir(path.dirname(temp), { recursive: true, mode: 0o700 });
    // Opened before streaming so the file exists (and is removed below) whenever the stream fails.
    const file = await open(temp, 'wx', 0o600);
    try {
      await pipelineAsync(
        body,
        hasher,
        new EncryptStream(header, this.currentKey.key, key),
        // Flushed to disk as it goes and fsynced before close, so the renamed file is really on disk.
        new DurableFileWriter(file),
      );
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await beforeRename?.(target);
      await rename(temp, target);
    } catch (error) {
      await file.close().catch(() => undefined); // usually already closed by the failed pipeline
      await rm(temp, { force: true });
      throw error;
    }
    return { key, ...hasher.result() };
  }

  async get(key: string): Promise<Readable> {
    const handle = await this.openBlob(key);
    try {
      return this.decrypting(handle, await readHeader(handle, key), key);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * `size` follows from the file's length and `contentType` is the header's; both are authenticated
   * here by opening the final frame, where a well-formed file of that length must have one (at most
   * one frame read, however large the file).
   */
  async head(key: string): Promise<BlobHead> {
    const handle = await this.openBlob(key);
    try {
      const header = await readHeader(handle, key);
      const { size: fileSize, mtime } = await handle.stat();
      const size = plaintextSize(fileSize, header);
      const index = Math.floor(size / header.chunkSize);
      const frame = Buffer.alloc(size - index * header.chunkSize + FRAME_OVERHEAD);
      const position = header.bytes.length + index * (header.chunkSize + FRAME_OVERHEAD);
      await handle.read(frame, 0, frame.length, position);
      try {
        const { final } = readFrameHeader(frame, header.chunkSize);
        if (!final) throw new BlobIntegrityError('Stored blob is truncated (no authenticated end)');
        openFrame(deriveFileKey(this.masterKeyFor(header, key), header, key), header, index, frame);
      } catch (error) {
        throw error instanceof BlobIntegrityError && error.key === undefined
          ? new BlobIntegrityError(error.message, key)
          : error;
      }
      return { key, size, contentType: header.contentType, lastModified: mtime };
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async createDownloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    assertSafeBlobKey(key);
    if (options.contentType !== undefined) assertValidContentType(options.contentType);
    return gatewayDownloadUrl(key, options, this.config.urlSigningKey, this.basePath);
  }

  async isHealthy(): Promise<boolean> {
    try {
      await access(path.join(this.root, TEMP_DIR), constants.W_OK);
      return (await stat(this.root)).isDirectory();
    } catch {
      return false;
    }
  }

  /** Absolute path of a key; the key check already forbids escaping the root, this re-checks it. */
  private pathOf(key: string): string {
    assertSafeBlobKey(key);
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`Blob key "${key}" resolves outside the store`);
    return resolved;
  }

  /** Opens the blob's file; a missing file, or a directory made by longer keys, is not a blob. */
  private async openBlob(key: string): Promise<FileHandle> {
    let handle: FileHandle;
    try {
      handle = await open(this.pathOf(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new BlobNotFoundError(key);
    }
    return handle;
  }

  /** The plaintext of an opened blob whose header has been read; the stream closes the handle. */
  private decrypting(handle: FileHandle, header: FileHeader, key: string): Readable {
    const decrypt = new DecryptStream(header, deriveFileKey(this.masterKeyFor(header, key), header, key), key);
    // pipeline destroys both streams when either fails or the consumer stops early, closing the file;
    // the error itself reaches the consumer through `decrypt`.
    pipeline(handle.createReadStream({ start: header.bytes.length }), decrypt, () => undefined);
    return decrypt;
  }

  private masterKeyFor(header: FileHeader, key: string): Buffer {
    const masterKey = this.keysById.get(header.keyId);
    if (masterKey === undefined) {
      throw new BlobIntegrityError(
        `Stored blob was encrypted with key id "${header.keyId}", which is not configured`,
        key,
      );
    }
    return masterKey;
  }
}

async function readHeader(handle: FileHandle, key: string): Promise<FileHeader> {
  const buffer = Buffer.alloc(MAX_HEADER_LENGTH);
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
  try {
    return parseHeader(buffer.subarray(0, bytesRead));
  } catch (error) {
    throw error instanceof BlobIntegrityError ? new BlobIntegrityError(error.message, key) : error;
  }
}
