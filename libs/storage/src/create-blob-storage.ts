import type { BlobStorage } from './blob-storage';
import type { BlobStorageConfig } from './config';
import { FilesystemBlobStorage } from './fs/filesystem-blob-storage';
import { S3BlobStorage } from './s3/s3-blob-storage';

/**
 * Builds the configured store and prepares it (S3: creates the bucket when `createBucketIfMissing`;
 * filesystem: creates the directories), so configuration mistakes fail at startup.
 * S3 wins when both are configured. In Nest: `{ provide: BLOB_STORAGE, useFactory: () => createBlobStorage(config) }`.
 */
export async function createBlobStorage(config: BlobStorageConfig): Promise<BlobStorage> {
  if (config.s3) {
    const storage = new S3BlobStorage(config.s3);
    if (config.s3.createBucketIfMissing) await storage.ensureBucket();
    return storage;
  }
  if (config.filesystem) {
    const storage = new FilesystemBlobStorage(config.filesystem);
    await storage.init();
    return storage;
  }
  throw new Error('Blob storage is not configured: give S3 settings or a storage directory');
}
