import { ConfigError, loadConfig, StorageAwareConfig } from '@medfolio/config';
import { blobStorageConfigFor } from './storage.factory';

describe('blobStorageConfigFor (S3 settings from the environment)', () => {
  const s3Env = { S3_BUCKET: 'medfolio-records', S3_ENDPOINT: 'http://127.0.0.1:7070' };

  it('maps the S3 variables, with unsigned (checksummed) payloads and SSE-S3 by default', async () => {
    const { s3 } = await blobStorageConfigFor(loadConfig(StorageAwareConfig, s3Env));
    expect(s3).toEqual({
      endpoint: 'http://127.0.0.1:7070',
      region: 'us-east-1',
      bucket: 'medfolio-records',
      forcePathStyle: true,
      serverSideEncryption: 'AES256',
      signPayload: false,
    });
  });

  it('signs payloads when S3_SIGN_PAYLOAD is true, and refuses a value that is not a yes or no', async () => {
    const signing = loadConfig(StorageAwareConfig, { ...s3Env, S3_SIGN_PAYLOAD: 'true' });
    expect((await blobStorageConfigFor(signing)).s3?.signPayload).toBe(true);
    expect(() => loadConfig(StorageAwareConfig, { ...s3Env, S3_SIGN_PAYLOAD: 'sometimes' })).toThrow(
      new ConfigError('Invalid configuration: S3_SIGN_PAYLOAD must be true or false (value hidden)'),
    );
  });
});
