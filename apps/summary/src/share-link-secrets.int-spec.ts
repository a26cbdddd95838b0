import { createCipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import type { CallerIdentity } from '@medfolio/contracts';
import { keyFingerprint } from '@medfolio/security';
import { sealShlKeysMigration } from './migrations/1797000000003-seal-shl-keys';
import { ShlKeySealer } from './repositories/shl-key-sealer';
import { SharingService } from './services/sharing.service';
import { SummaryHarness } from './testing/summary-harness';
import { DataSource } from 'typeorm';

/**
 * On real PostgreSQL: the share links' secrets at rest. The SMART Health Link key is
 * sealed (never in the clear), every sealed value names its key, SHARE_LINK_KEY rotates (a list,
 * current first; the service seals stored values again on start), and the migration seals the SHL
 * keys a database kept in the clear.
 */
const h = new SummaryHarness();
const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');

beforeAll(async () => {
  await h.start({ SHARE_LINK_KEY: `a:${keyA}` });
}, 60_000);
afterAll(() => h.stop());

const person = (userId: string): CallerIdentity => ({ userId, roles: [], correlationId: randomUUID() });
const sharing = () => h.get(SharingService);
/** The `key` of a `shlink:/…` payload. */
const shlKeyOf = (shl: string | null) => (JSON.parse(Buffer.from(shl!.replace(/^shlink:\//, ''), 'base64url').toString()) as { key: string }).key;
const keyIdOf = (sealed: Buffer) => (sealed[0] === 2 ? sealed.subarray(2, 2 + sealed[1]!).toString('ascii') : null);

async function row(id: string): Promise<Record<string, unknown>> {
  const [found] = await h.sql(`SELECT * FROM summary.share_links WHERE id = $1`, [id]);
  return found!;
}

it('keeps the SMART Health Link key sealed, bound to its row, and gives it back as before', async () => {
  const ownerId = randomUUID();
  const link = await sharing().create(person(ownerId), { label: 'For Dr Lee', shl: true });
  const key = shlKeyOf(link.shl);
  expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const stored = await row(link.id);
  expect(Object.keys(stored)).not.toContain('shl_key');
  const sealed = Buffer.from(stored['shl_key_sealed'] as Buffer);
  expect(keyIdOf(sealed)).toBe('a');
  expect(JSON.stringify(stored)).not.toContain(key);
  expect(sealed.includes(Buffer.from(key))).toBe(false);
  // Read back through the entity: the same key, and a save that does not change it does not rewrite it.
  const [listed] = (await sharing().list(person(ownerId))).filter((l) => l.id === link.id);
  expect(shlKeyOf(listed!.shl)).toBe(key);
  await sharing().update(person(ownerId), { link_id: link.id, label: 'For Dr Lee (cardiology)' });
  expect(Buffer.from((await row(link.id))['shl_key_sealed'] as Buffer).equals(sealed)).toBe(true);
  // Turned off and on again: a new key, sealed in place of the old.
  await sharing().update(person(ownerId), { link_id: link.id, shl: false });
  expect((await row(link.id))['shl_key_sealed']).toBeNull();
  const again = await sharing().update(person(ownerId), { link_id: link.id, shl: true });
  const newKey = shlKeyOf(again.shl);
  expect(newKey).not.toBe(key);
  const resealed = Buffer.from((await row(link.id))['shl_key_sealed'] as Buffer);
  expect(keyIdOf(resealed)).toBe('a');
  expect(shlKeyOf((await sharing().list(person(ownerId))).find((l) => l.id === link.id)!.shl)).toBe(newKey);
  // Moved to another row, it does not open there: that link then simply has no SHL.
  const other = await sharing().create(person(ownerId), { label: 'Other', shl: true });
  await h.sql(`UPDATE summary.share_links SET shl_key_sealed = $1 WHERE id = $2`, [sealed, other.id]);
  const [moved] = (await sharing().list(person(ownerId))).filter((l) => l.id === other.id);
  expect(moved!.shl).toBeNull();
});

it('rotates SHARE_LINK_KEY: with "new,old" every link still opens, and the service seals the stored values again with the new key', async () => {
  const ownerId = randomUUID();
  const link = await sharing().create(person(ownerId), { label: 'Rotated', shl: true, notify_on_view: true });
  const key = shlKeyOf(link.shl);
  const before = await row(link.id);
  for (const column of ['share_sealed', 'shl_key_sealed', 'notify_email_sealed']) expect(keyIdOf(Buffer.from(before[column] as Buffer))).toBe('a');

  await h.restart({ SHARE_LINK_KEY: `b:${keyB},a:${keyA}` });
  const after = await row(link.id);
  for (const column of ['share_sealed', 'shl_key_sealed', 'notify_email_sealed']) expect([column, keyIdOf(Buffer.from(after[column] as Buffer))]).toEqual([column, 'b']);
  // A second start has nothing left to do.
  expect(await h.get(ShlKeySealer).resealAll()).toBe(0);

  // The old key can now go.
  await h.restart({ SHARE_LINK_KEY: `b:${keyB}` });
  const [listed] = (await sharing().list(person(ownerId))).filter((l) => l.id === link.id);
  expect(listed!.share_id).toBe(link.share_id);
  expect(shlKeyOf(listed!.shl)).toBe(key);
  // Under a key it was never given, nothing opens (and nothing is rewritten).
  await h.restart({ SHARE_LINK_KEY: randomBytes(32).toString('base64') });
  const [stranger] = (await sharing().list(person(ownerId))).filter((l) => l.id === link.id);
  expect(stranger!.shl).toBeNull();
  expect(Buffer.from((await row(link.id))['shl_key_sealed'] as Buffer).equals(Buffer.from(after['shl_key_sealed'] as Buffer))).toBe(true);
  await h.restart({ SHARE_LINK_KEY: `b:${keyB}` });
});

it('the migration seals the SHL keys a database kept in the clear (and the values sealed before the envelope)', async () => {
  const ownerId = randomUUID();
  const link = await sharing().create(person(ownerId), { label: 'Before', shl: true });
  const key = shlKeyOf(link.shl);
  // The table as the previous release left it: shl_key in the clear, no shl_key_sealed.
  await h.sql(`ALTER TABLE summary.share_links ADD COLUMN shl_key text`);
  await h.sql(`UPDATE summary.share_links SET shl_key = $1 WHERE id = $2`, [key, link.id]);
  await h.sql(`ALTER TABLE summary.share_links DROP COLUMN shl_key_sealed`);

  const migration = new (sealShlKeysMigration({ shareLinkKey: `b:${keyB}`, mode: 'service', dataDir: '/nonexistent' }))();
  const runner = h.get(DataSource).createQueryRunner();
  try {
    await migration.up(runner);
  } finally {
    await runner.release();
  }
  const stored = await row(link.id);
  expect(Object.keys(stored)).not.toContain('shl_key');
  expect(keyIdOf(Buffer.from(stored['shl_key_sealed'] as Buffer))).toBe('b');
  expect(JSON.stringify(stored)).not.toContain(key);
  const [listed] = (await sharing().list(person(ownerId))).filter((l) => l.id === link.id);
  expect(shlKeyOf(listed!.shl)).toBe(key);

  // A share id sealed in the layout before the envelope (IV | tag | ciphertext, no key id) opens, and is sealed again on start.
  const sealKey = Buffer.from(hkdfSync('sha256', Buffer.from(keyB, 'base64'), Buffer.alloc(0), 'medfolio share links seal v1', 32));
  const iv = randomBytes(12);
  const gcm = createCipheriv('aes-256-gcm', sealKey, iv);
  gcm.setAAD(Buffer.from(`share_links.share_sealed:${link.id}`, 'utf8'));
  const body = Buffer.concat([gcm.update(link.share_id, 'utf8'), gcm.final()]);
  await h.sql(`UPDATE summary.share_links SET share_sealed = $1 WHERE id = $2`, [Buffer.concat([iv, gcm.getAuthTag(), body]), link.id]);
  expect((await sharing().list(person(ownerId))).find((l) => l.id === link.id)!.share_id).toBe(link.share_id);
  expect(await h.get(ShlKeySealer).resealAll()).toBe(1);
  expect(keyIdOf(Buffer.from((await row(link.id))['share_sealed'] as Buffer))).toBe('b');
  expect((await sharing().list(person(ownerId))).find((l) => l.id === link.id)!.share_id).toBe(link.share_id);
});

it('a bare SHARE_LINK_KEY gets its fingerprint as key id', async () => {
  await h.restart({ SHARE_LINK_KEY: keyB });
  const ownerId = randomUUID();
  const link = await sharing().create(person(ownerId), { label: 'Bare', shl: true });
  expect(keyIdOf(Buffer.from((await row(link.id))['share_sealed'] as Buffer))).toBe(keyFingerprint(Buffer.from(keyB, 'base64')));
});
