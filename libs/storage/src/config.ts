import type { ServerSideEncryption } from '@aws-sdk/client-s3';

/**
 * Settings of the S3 store. Environment variables the application maps to it:
 * S3_ENDPOINT, S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, S3_SSE,
 * S3_SIGN_PAYLOAD, S3_DOWNLOADS (with STORAGE_URL_SIGNING_KEY).
 */
export interface S3StorageConfig {
  /** e.g. http://127.0.0.1:7070 for a local S3-compatible server; omit for AWS. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Omit both to use the AWS SDK's default credential chain (instance role, env, ...). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Address the bucket as a path (http://host/bucket/key) instead of a subdomain; most self-hosted servers need it. */
  forcePathStyle?: boolean;
  /**
   * Server-side encryption requested on every upload; default "AES256" (SSE-S3).
   * Use "none" only for S3-compatible servers that reject the x-amz-server-side-encryption header,
   * and then make sure the server encrypts its disks itself.
   */
  serverSideEncryption?: ServerSideEncryption | 'none';
  /** Create the bucket at startup when it does not exist (`createBlobStorage` does it); default false. */
  createBucketIfMissing?: boolean;
  /**
   * Multipart part size (minimum and default 5 MiB). An upload holds at most about
   * partSizeBytes x (queueSize + 1) bytes in memory, whatever the file size.
   */
  partSizeBytes?: number;
  /**
   * Sign request bodies with SHA-256 (SigV4's signed payload) even when they carry a checksum;
   * default false: "UNSIGNED-PAYLOAD" plus the CRC32 checksum the server verifies (see s3-blob-storage.ts).
   */
  signPayload?: boolean;
  /**
   * Download links served by the gateway instead of presigned S3 URLs: the gateway checks the
   * HMAC-signed link (as for the filesystem store) and streams the object from S3 with
   * X-Content-Type-Options: nosniff, from the app's own origin (so the strict CSP needs no S3
   * origin). Unset: SigV4-presigned URLs of the S3 endpoint, which offload the bytes from the
   * gateway but cannot carry nosniff.
   */
  gatewayDownloads?: {
    /** HMAC key of the links (at least 32 characters); the gateway must have the same one. */
    urlSigningKey: string;
    /** Path the gateway serves them under; default "/api/files/". */
    basePath?: string;
  };
  /** Parts uploaded in parallel; default 4. */
  queueSize?: number;
}

/** One AES-256 key of the filesystem store, named so that files can say which key encrypted them. */
export interface StorageEncryptionKey {
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

/**
 * Settings of the filesystem store. Environment variables the application maps to it:
 * STORAGE_DIR, STORAGE_ENCRYPTION_KEYS (see {@link parseEncryptionKeys}), STORAGE_URL_SIGNING_KEY.
 */
export interface FilesystemStorageConfig {
  /** Root directory of the blobs; created if missing. */
  directory: string;
  /** The first key encrypts new files; the others still decrypt files written before a rotation. */
  encryptionKeys: readonly StorageEncryptionKey[];
  /** HMAC key of the download URLs (at least 32 characters). */
  urlSigningKey: string;
  /** Path the gateway serves signed downloads under; must start and end with "/". Default "/api/files/". */
  downloadBasePath?: string;
}

/** Either store; `createBlobStorage` picks S3 when `s3` is present, else the filesystem. */
export interface BlobStorageConfig {
  s3?: S3StorageConfig;
  filesystem?: FilesystemStorageConfig;
}

const KEY_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * Parses STORAGE_ENCRYPTION_KEYS: "keyId:base64,keyId2:base64", the first being the current key.
 * Each key is 32 random bytes in base64 (e.g. `openssl rand -base64 32`). To rotate, put a new key
 * first and keep the old ones after it for as long as files written with them exist.
 */
export function parseEncryptionKeys(value: string): StorageEncryptionKey[] {
  const keys = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry): StorageEncryptionKey => {
      const separator = entry.indexOf(':');
      const id = separator < 0 ? entry : entry.slice(0, separator);
      const base64 = separator < 0 ? '' : entry.slice(separator + 1);
      if (!BASE64.test(base64)) throw new Error(`Encryption key "${id}" must look like "keyId:base64"`);
      return { id, key: Buffer.from(base64, 'base64') };
    });
  assertValidEncryptionKeys(keys);
  return keys;
}

/** Throws unless there is at least one key, ids are well-formed and unique, and every key is 32 bytes. */
export function assertValidEncryptionKeys(keys: readonly StorageEncryptionKey[]): void {
  if (keys.length === 0) throw new Error('At least one storage encryption key is required');
  const seen = new Set<string>();
  for (const { id, key } of keys) {
    if (!KEY_ID.test(id)) throw new Error(`Encryption key id "${id}" must be 1-64 letters, digits, ".", "_" or "-"`);
    if (seen.has(id)) throw new Error(`Encryption key id "${id}" is listed twice`);
    seen.add(id);
    if (key.length !== 32) throw new Error(`Encryption key "${id}" must be 32 bytes, not ${key.length}`);
  }
}
