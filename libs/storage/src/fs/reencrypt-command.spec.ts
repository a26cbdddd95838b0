import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

import { createHeader, parseHeader } from './encrypted-format';
import { EncryptStream } from './encrypt-stream';
import { FilesystemBlobStorage } from './filesystem-blob-storage';
import { runReencrypt } from './reencrypt-command';

let directory: string;
const oldKey = randomBytes(32);
const newKey = randomBytes(32);
const keys = (...entries: [string, Buffer][]): string =>
  entries.map(([id, key]) => `${id}:${key.toString('base64')}`).join(',');

function printer(): { out(line: string): void; error(line: string): void; lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { out: (line) => lines.push(line), error: (line) => errors.push(line), lines, errors };
}

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'medfolio-reencrypt-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the re-encryption command', () => {
  it('moves every blob to the current key and format after a rotation, so the old key can go', async () => {
    const data = randomBytes(5000);
    const before = new FilesystemBlobStorage({
      directory,
      encryptionKeys: [{ id: 'old', key: oldKey }],
      urlSigningKey: 'x'.repeat(32),
    });
    await before.init();
    await before.put('documents/p1/a.pdf', Readable.from([data]));
    // And one version 1 file, as written before files were bound to their key.
    const header = createHeader('old', 'application/pdf', 1024, 1);
    await mkdir(path.join(directory, 'documents/p2'), { recursive: true });
    await writeFile(
      path.join(directory, 'documents/p2/b.pdf'),
      await buffer(Readable.from([data]).pipe(new EncryptStream(header, oldKey, 'documents/p2/b.pdf'))),
    );

    const print = printer();
    expect(
      await runReencrypt(
        { STORAGE_DIR: directory, STORAGE_ENCRYPTION_KEYS: keys(['new', newKey], ['old', oldKey]) },
        print,
      ),
    ).toBe(0);
    expect(print.lines).toEqual(['re-encrypted 2, already current 0, unreadable 0']);

    const after = new FilesystemBlobStorage({
      directory,
      encryptionKeys: [{ id: 'new', key: newKey }],
      urlSigningKey: 'x'.repeat(32),
    });
    for (const key of ['documents/p1/a.pdf', 'documents/p2/b.pdf']) {
      expect(parseHeader(await readFile(path.join(directory, key)))).toMatchObject({ version: 2, keyId: 'new' });
      expect((await buffer(await after.get(key))).equals(data)).toBe(true);
    }
  });

  it('exits 1 and names the blobs it could not read; 2 without its settings', async () => {
    const before = new FilesystemBlobStorage({
      directory,
      encryptionKeys: [{ id: 'lost', key: oldKey }],
      urlSigningKey: 'x'.repeat(32),
    });
    await before.put('documents/p1/a.pdf', Readable.from([Buffer.from('x')]));

    const print = printer();
    expect(await runReencrypt({ STORAGE_DIR: directory, STORAGE_ENCRYPTION_KEYS: keys(['new', newKey]) }, print)).toBe(
      1,
    );
    expect(print.lines).toEqual(['re-encrypted 0, already current 0, unreadable 1']);
    expect(print.errors).toEqual(['unreadable (damaged, or its key is not configured): documents/p1/a.pdf']);
    expect(await runReencrypt({ STORAGE_DIR: directory }, printer())).toBe(2);
  });
});
