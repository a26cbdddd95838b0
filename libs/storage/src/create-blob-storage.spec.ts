import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createBlobStorage } from './create-blob-storage';
import { FilesystemBlobStorage } from './fs/filesystem-blob-storage';
import { S3BlobStorage } from './s3/s3-blob-storage';

describe('createBlobStorage', () => {
  let parent: string;
  beforeEach(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'medfolio-factory-'));
  });
  afterEach(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  const filesystem = (directory: string) => ({
    directory,
    encryptionKeys: [{ id: 'k1', key: randomBytes(32) }],
    urlSigningKey: 'x'.repeat(32),
  });

  it('builds the filesystem store and creates its directory when no S3 settings are given', async () => {
    const directory = path.join(parent, 'blobs');
    const storage = await createBlobStorage({ filesystem: filesystem(directory) });
    expect(storage).toBeInstanceOf(FilesystemBlobStorage);
    expect((await stat(directory)).isDirectory()).toBe(true);
  });

  it('prefers S3 when S3 settings are present', async () => {
    const storage = await createBlobStorage({
      s3: { region: 'eu-central-1', bucket: 'b', accessKeyId: 'id', secretAccessKey: 'secret' },
      filesystem: filesystem(parent),
    });
    expect(storage).toBeInstanceOf(S3BlobStorage);
    (storage as S3BlobStorage).destroy();
  });

  it('fails when nothing is configured', async () => {
    await expect(createBlobStorage({})).rejects.toThrow('not configured');
  });
});
