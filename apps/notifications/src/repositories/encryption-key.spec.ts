import { mkdtemp, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KEY_FILE, loadEncryptionKey, loadEncryptionKeys } from './encryption-key';

describe('the notifications encryption key', () => {
  let dataDir: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'notifications-key-'));
  });

  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('embedded mode: generates a key file readable by the owner only, then reuses it', async () => {
    const first = await loadEncryptionKey({ mode: 'embedded', dataDir });
    expect(first).toHaveLength(32);
    const file = path.join(dataDir, KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64').equals(first)).toBe(true);
    expect((await loadEncryptionKey({ mode: 'embedded', dataDir })).equals(first)).toBe(true);
  });

  it('two first starts at once end with one key', async () => {
    const keys = await Promise.all([1, 2, 3].map(() => loadEncryptionKey({ mode: 'embedded', dataDir })));
    const stored = await loadEncryptionKey({ mode: 'embedded', dataDir });
    for (const key of keys) expect(key.equals(stored)).toBe(true);
  });

  it('takes a list to rotate, current first; one key (configured or the file) has its fingerprint as id', async () => {
    const current = Buffer.alloc(32, 1).toString('base64');
    const old = Buffer.alloc(32, 2).toString('base64');
    const keys = await loadEncryptionKeys({ mode: 'service', dataDir, encryptionKey: `new:${current},old:${old}` });
    expect(keys.map((k) => [k.id, k.key.toString('base64')])).toEqual([['new', current], ['old', old]]);
    const generated = await loadEncryptionKeys({ mode: 'embedded', dataDir });
    expect(generated).toHaveLength(1);
    expect(generated[0]!.id).toMatch(/^[0-9a-f]{8}$/);
    expect(generated[0]!.key.equals(await loadEncryptionKey({ mode: 'embedded', dataDir }))).toBe(true);
  });

  it('prefers NOTIFICATIONS_ENCRYPTION_KEY and writes no file then', async () => {
    const configured = Buffer.alloc(32, 9);
    const key = await loadEncryptionKey({ mode: 'embedded', dataDir, encryptionKey: configured.toString('base64') });
    expect(key.equals(configured)).toBe(true);
    await expect(stat(path.join(dataDir, KEY_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('service mode never generates a key', async () => {
    await expect(loadEncryptionKey({ mode: 'service', dataDir })).rejects.toThrow('NOTIFICATIONS_ENCRYPTION_KEY is required in service mode');
  });

  it('refuses a damaged key file instead of replacing it', async () => {
    await mkdir(path.join(dataDir, 'keys'));
    await writeFile(path.join(dataDir, KEY_FILE), 'c2hvcnQ=\n');
    await expect(loadEncryptionKey({ mode: 'embedded', dataDir })).rejects.toThrow('must hold 32 bytes');
    expect(await readFile(path.join(dataDir, KEY_FILE), 'utf8')).toBe('c2hvcnQ=\n');
  });
});
