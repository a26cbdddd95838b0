import { randomUUID } from 'node:crypto';
import { type FileHandle, access, constants, mkdir, open, rename, rm, stat } from 'node:fs/promises';
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
import { BlobIntegrityError, BlobNotFoundError } from '../errors';
import { HashingStream } from '../hashing-stream';
import { assertValidContentType } from '../http-headers';
import { DEFAULT_DOWNLOAD_BASE_PATH, assertValidUrlSigning, gatewayDownloadUrl } from '../signed-url';
import { DecryptStream } from './decrypt-stream';
import { DurableFileWriter } from './durable-file-writer';
import { EncryptStream } from './encrypt-stream';
import {
  type FileHeader,
  MAX_HEADER_LENGTH,
  createHeader,
  deriveFileKey,
  parseHeader,
  plaintextSize,
} from './encrypted-format';

const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/** Uploads in progress live here, on the same filesystem as the blobs so the final rename is atomic. */
const TEMP_DIR = '.tmp';

/**
 * Blobs as encrypted files under a root directory, for single-node installs and development.
 * Each file is AES-256-GCM encrypted in authenticated chunks (format: encrypted-format.ts) with the
 * current key, and records that key's id so older keys keep decrypting after a rotation.
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
    const target = this.pathOf(key);
    const contentType = options.contentType ?? DEFAULT_CONTENT_TYPE;
    assertValidContentType(contentType);
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
        new EncryptStream(header, this.currentKey.key),
        // Flushed to disk as it goes and fsynced before close, so the renamed file is really on disk.
        new DurableFileWriter(file),
      );
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
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
      const header = await readHeader(handle, key);
      const decrypt = new DecryptStream(header, deriveFileKey(this.masterKeyFor(header, key), header), key);
      // pipeline destroys both streams when either fails or the consumer stops early, closing the file;
      // the error itself reaches the consumer through `decrypt`.
      pipeline(handle.createReadStream({ start: header.bytes.length }), decrypt, () => undefined);
      return decrypt;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async head(key: string): Promise<BlobHead> {
    const handle = await this.openBlob(key);
    try {
      const header = await readHeader(handle, key);
      const { size, mtime } = await handle.stat();
      return { key, size: plaintextSize(size, header), contentType: header.contentType, lastModified: mtime };
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
