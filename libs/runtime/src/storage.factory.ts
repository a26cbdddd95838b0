import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { BaseConfig, StorageSettings } from '@medfolio/config';

/** What the storage needs of an app's config: the storage concern and DATA_DIR. */
type StorageAwareConfig = Pick<BaseConfig, 'dataDir' | 'mode'> & StorageSettings;
import { readOrCreateSecretFile } from '@medfolio/security';
import { createBlobStorage, parseEncryptionKeys, type BlobStorage, type BlobStorageConfig } from '@medfolio/storage';

interface GeneratedStorageKeys {
  encryptionKeys: string;
  urlSigningKey: string;
}

/** Embedded mode: storage keys generated once into DATA_DIR/keys/storage.json (owner-only). */
async function loadOrCreateStorageKeys(dataDir: string): Promise<GeneratedStorageKeys> {
  const text = await readOrCreateSecretFile(path.resolve(dataDir, 'keys', 'storage.json'), () =>
    JSON.stringify({ encryptionKeys: `k1:${randomBytes(32).toString('base64')}`, urlSigningKey: randomBytes(32).toString('base64url') }),
  );
  return JSON.parse(text) as GeneratedStorageKeys;
}

export async function blobStorageConfigFor(config: StorageAwareConfig): Promise<BlobStorageConfig> {
  const needsGeneratedKeys = config.s3Bucket
    ? config.s3Downloads === 'gateway' && !config.storageUrlSigningKey
    : !(config.storageEncryptionKeys && config.storageUrlSigningKey);
  const generated = needsGeneratedKeys ? await loadOrCreateStorageKeys(config.dataDir) : undefined;
  const urlSigningKey = config.storageUrlSigningKey ?? generated?.urlSigningKey;
  if (config.s3Bucket) {
    return {
      s3: {
        ...(config.s3Endpoint ? { endpoint: config.s3Endpoint } : {}),
        region: config.s3Region,
        bucket: config.s3Bucket,
        ...(config.s3AccessKeyId ? { accessKeyId: config.s3AccessKeyId } : {}),
        ...(config.s3SecretAccessKey ? { secretAccessKey: config.s3SecretAccessKey } : {}),
        forcePathStyle: config.s3ForcePathStyle,
        serverSideEncryption: config.s3Sse as 'AES256' | 'aws:kms' | 'none',
        signPayload: config.s3SignPayload,
        ...(config.s3Downloads === 'gateway' ? { gatewayDownloads: { urlSigningKey: urlSigningKey! } } : {}),
      },
    };
  }
  return {
    filesystem: {
      directory: config.storageDir ?? path.resolve(config.dataDir, 'files'),
      encryptionKeys: parseEncryptionKeys(config.storageEncryptionKeys ?? generated!.encryptionKeys),
      urlSigningKey: urlSigningKey!,
    },
  };
}

/** The key of the download links the gateway serves (filesystem store, or S3 with gateway downloads); null if none. */
export function downloadLinkSigningKey(storage: BlobStorageConfig): string | null {
  return storage.filesystem?.urlSigningKey ?? storage.s3?.gatewayDownloads?.urlSigningKey ?? null;
}

export async function createStorageFor(config: StorageAwareConfig): Promise<BlobStorage> {
  return createBlobStorage(await blobStorageConfigFor(config));
}
