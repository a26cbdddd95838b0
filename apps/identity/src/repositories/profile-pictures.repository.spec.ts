import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { BlobNotFoundError, type BlobStorage, FilesystemBlobStorage } from '@medfolio/storage';

import { isProfilePictureKey } from '../pictures/profile-picture-key';
import { ProfilePicturesRepository } from './profile-pictures.repository';

const USER_ID = '3f0c2a5e-8d41-4a7e-9b1a-2c4d6e8f0a1b';
const KEY_PATTERN = new RegExp(`^profile-pictures/${USER_ID}/[0-9a-f-]{36}\\.webp$`);

let directory: string;
let storage: FilesystemBlobStorage;
let store: ProfilePicturesRepository;

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'medfolio-pictures-'));
  storage = new FilesystemBlobStorage({
    directory,
    encryptionKeys: [{ id: 'test', key: randomBytes(32) }],
    urlSigningKey: 'test-url-signing-key-0123456789abcdef',
  });
  await storage.init();
  store = new ProfilePicturesRepository(storage);
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('ProfilePicturesRepository', () => {
  it('saves under a new server-made key, reads back the same bytes, and deletes', async () => {
    const data = randomBytes(20_000);

    const { key } = await store.save(USER_ID, { data, contentType: 'image/webp' });

    expect(key).toMatch(KEY_PATTERN);
    expect(await readAll(await storage.get(key))).toEqual(data);
    expect(await storage.head(key)).toMatchObject({ size: data.length, contentType: 'image/webp' });
    await store.delete(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.delete(key)).resolves.toBeUndefined();
  });

  it('gives every upload its own key, with the extension of its type', async () => {
    const first = await store.save(USER_ID, { data: Buffer.from('a'), contentType: 'image/webp' });
    const second = await store.save(USER_ID, { data: Buffer.from('b'), contentType: 'image/jpeg' });

    expect(second.key).not.toBe(first.key);
    expect(second.key).toMatch(/\.jpg$/);
  });

  it.each(['', '../other-user', 'a/b', 'user id', 'x'.repeat(200)])('refuses the user id %j', async (userId) => {
    await expect(store.save(userId, { data: Buffer.from('a'), contentType: 'image/webp' })).rejects.toThrow(TypeError);
  });

  it('never deletes anything but a profile picture', async () => {
    const deleted: string[] = [];
    const spy = new ProfilePicturesRepository({
      delete: async (key: string) => void deleted.push(key),
    } as unknown as BlobStorage);

    for (const key of ['documents/p1/scan.pdf', 'profile-pictures/../documents/p1/scan.pdf', '']) {
      await expect(spy.delete(key)).rejects.toThrow(TypeError);
    }
    expect(deleted).toEqual([]);
    expect(isProfilePictureKey('profile-pictures/u1/x.webp')).toBe(true);
  });
});
