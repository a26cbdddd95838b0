import type { Readable } from 'node:stream';

/**
 * How much each stage of a streamed upload may hold before it asks the one before it to wait
 * (Node 24's default is 64 KiB). At 64 KiB one network chunk (up to 64 KiB) filled a stage, so
 * parsing, checking, hashing, encrypting and the disk write took turns chunk by chunk instead of
 * overlapping; with 1 MiB a 256 MB upload ran in 0.8 s instead of 1.4 s and its CPU time fell by
 * a third (bench/upload.mjs; docs/architecture.md). At most a few MiB per upload in flight.
 */
export const STREAM_BUFFER_BYTES = 1024 * 1024;

/** Nest injection token for the {@link BlobStorage} instance (`@Inject(BLOB_STORAGE)`). */
export const BLOB_STORAGE = Symbol('BLOB_STORAGE');
/** Nest token of the key that signs (and checks) a service's download links; null when its links point at S3 itself. */
export const DOWNLOAD_LINK_SIGNING_KEY = Symbol('DOWNLOAD_LINK_SIGNING_KEY');

export interface PutBlobOptions {
  /** MIME type stored with the blob and returned by `head`; defaults to application/octet-stream. */
  contentType?: string;
}

export interface PutBlobResult {
  key: string;
  /** Number of bytes read from the source stream. */
  size: number;
  /** Hex SHA-256 of the bytes read from the source stream, computed while streaming. */
  sha256: string;
}

export interface BlobHead {
  key: string;
  size: number;
  contentType: string;
  lastModified: Date;
  /** S3 only: the server-side encryption the server reports for the object (e.g. "AES256"). */
  serverSideEncryption?: string;
}

export interface DownloadUrlOptions {
  /** How long the URL stays valid. */
  expiresInSeconds: number;
  /** Name offered to the browser (sanitised); defaults to the last segment of the key. */
  filename?: string;
  /** Content-Type of the download response; defaults to the stored one where the store knows it. */
  contentType?: string;
}

/**
 * Where Medfolio keeps file contents (documents, images). Implementations never hold a whole file
 * in memory: bodies go in and come out as streams. Keys must pass `assertSafeBlobKey`, otherwise
 * every method throws `InvalidBlobKeyError`.
 */
export interface BlobStorage {
  /**
   * Stores the stream under `key`, replacing any previous blob. Either the whole stream is stored
   * or nothing is: if the source errors, the promise rejects with that error and no blob (or
   * partial upload) remains.
   */
  put(key: string, body: Readable, options?: PutBlobOptions): Promise<PutBlobResult>;
  /**
   * Opens the blob for reading. Rejects with `BlobNotFoundError` if absent. The returned stream
   * errors (with `BlobIntegrityError` on the filesystem store) rather than deliver altered bytes.
   */
  get(key: string): Promise<Readable>;
  /** Size, type and date of the blob; rejects with `BlobNotFoundError` if absent. */
  head(key: string): Promise<BlobHead>;
  /** Removes the blob. Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  /**
   * A URL that downloads the blob as an attachment until it expires, without further
   * authentication. Does not check that the blob exists (the download then fails with 404).
   */
  createDownloadUrl(key: string, options: DownloadUrlOptions): Promise<string>;
  /** Readiness: true when the store can be reached and written to. Never throws. */
  isHealthy(): Promise<boolean>;
}
