import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, StorageAwareConfig } from '@medfolio/config';
import { blobStorageConfigFor, downloadLinkSigningKey } from './storage.factory';

describe('blobStorageConfigFor (S3 settings from the environment)', () => {
  const urlSigningKey = 'a-url-signing-key-of-at-least-32-characters';
  let dataDir: string;
  let s3Env: Record<string, string>;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-factory-'));
    s3Env = { DATA_DIR: dataDir, S3_BUCKET: 'medfolio-records', S3_ENDPOINT: 'http://127.0.0.1:7070' };
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('maps the S3 variables: unsigned (checksummed) payloads, SSE-S3 and gateway downloads by default', async () => {
    const storage = await blobStorageConfigFor(loadConfig(StorageAwareConfig, { ...s3Env, STORAGE_URL_SIGNING_KEY: urlSigningKey }));
    expect(storage.s3).toEqual({
      endpoint: 'http://127.0.0.1:7070',
      region: 'us-east-1',
      bucket: 'medfolio-records',
      forcePathStyle: true,
      serverSideEncryption: 'AES256',
      signPayload: false,
      gatewayDownloads: { urlSigningKey },
    });
    // The gateway serves those links with the same key.
    expect(downloadLinkSigningKey(storage)).toBe(urlSigningKey);
  });

  it('generates the link key once into DATA_DIR when none is given (embedded mode), the same for every service', async () => {
    const first = await blobStorageConfigFor(loadConfig(StorageAwareConfig, s3Env));
    const second = await blobStorageConfigFor(loadConfig(StorageAwareConfig, s3Env));
    expect(first.s3?.gatewayDownloads?.urlSigningKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.s3?.gatewayDownloads).toEqual(first.s3?.gatewayDownloads);
  });

  it('presigns S3 URLs with S3_DOWNLOADS=presigned: no link key, nothing for the gateway to serve', async () => {
    const storage = await blobStorageConfigFor(loadConfig(StorageAwareConfig, { ...s3Env, S3_DOWNLOADS: 'presigned' }));
    expect(storage.s3?.gatewayDownloads).toBeUndefined();
    expect(downloadLinkSigningKey(storage)).toBeNull();
    expect(() => loadConfig(StorageAwareConfig, { ...s3Env, S3_DOWNLOADS: 's3' })).toThrow(
      new ConfigError('Invalid configuration: S3_DOWNLOADS must be one of: gateway, presigned (value hidden)'),
    );
  });

  it('signs payloads when S3_SIGN_PAYLOAD is true, and refuses a value that is not a yes or no', async () => {
    const signing = loadConfig(StorageAwareConfig, { ...s3Env, S3_SIGN_PAYLOAD: 'true' });
    expect((await blobStorageConfigFor(signing)).s3?.signPayload).toBe(true);
    expect(() => loadConfig(StorageAwareConfig, { ...s3Env, S3_SIGN_PAYLOAD: 'sometimes' })).toThrow(
      new ConfigError('Invalid configuration: S3_SIGN_PAYLOAD must be true or false (value hidden)'),
    );
  });

  it('gives the filesystem store its link key, which the gateway serves with', async () => {
    const storage = await blobStorageConfigFor(loadConfig(StorageAwareConfig, { DATA_DIR: dataDir, STORAGE_URL_SIGNING_KEY: urlSigningKey }));
    expect(storage.s3).toBeUndefined();
    expect(storage.filesystem?.urlSigningKey).toBe(urlSigningKey);
    expect(downloadLinkSigningKey(storage)).toBe(urlSigningKey);
  });
});
