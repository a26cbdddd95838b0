/**
 * Typed errors of the blob storage, so callers can map them (e.g. to NOT_FOUND or INTERNAL)
 * without parsing messages. Every error the stores raise on purpose extends {@link BlobStorageError};
 * anything else (network, disk, the caller's own source stream) is passed through unchanged.
 */
export class BlobStorageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No blob is stored under the key. */
export class BlobNotFoundError extends BlobStorageError {
  constructor(readonly key: string) {
    super(`No blob stored under key "${key}"`);
  }
}

/**
 * The stored bytes failed authentication: tampered with, truncated, corrupted, or written
 * with an encryption key that is no longer configured. Never ignore it: the data cannot be trusted.
 */
export class BlobIntegrityError extends BlobStorageError {
  constructor(
    message: string,
    readonly key?: string,
  ) {
    super(key === undefined ? message : `${message} (key "${key}")`);
  }
}

/** The key is not a safe storage key (see `assertSafeBlobKey`). */
export class InvalidBlobKeyError extends BlobStorageError {}
