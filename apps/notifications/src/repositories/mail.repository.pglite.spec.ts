import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { startPgliteDataSource, type PgliteDataSource } from '@medfolio/testing';
import { NOTIFICATIONS_ENTITIES } from '../app.module';
import { NOTIFICATIONS_MIGRATIONS } from '../migrations';
import { MailRepository, type NewEmail } from './mail.repository';

/**
 * The repository's SQL on PGlite, the database of the embedded one-process mode (`npm start`):
 * the migration, the SKIP LOCKED claim, the idempotent insert and the state updates must all work
 * there as on PostgreSQL (notifications.int-spec.ts covers PostgreSQL).
 */
describe('MailRepository on PGlite', () => {
  let database: PgliteDataSource;
  let dataSource: DataSource;
  let repository: MailRepository;

  beforeAll(async () => {
    database = await startPgliteDataSource({ schema: 'notifications', entities: NOTIFICATIONS_ENTITIES, migrations: NOTIFICATIONS_MIGRATIONS });
    dataSource = database.dataSource;
    repository = new MailRepository(dataSource);
  }, 120_000); // PGlite (WASM) starts in 2-5 s alone, over 30 s on a 2-core machine under the whole suite

  afterAll(() => database?.stop());

  const email = (idempotencyHash: string | null = null): NewEmail => ({
    id: randomUUID(),
    template: 'welcome',
    sealed: Buffer.from([1, 2, 3, 0, 255]),
    idempotencyHash,
  });

  it('queues, claims with a lease, and marks sent', async () => {
    const queued = email();
    await expect(repository.enqueue(queued)).resolves.toEqual({ id: queued.id, created: true });
    const [claimed] = await repository.claimDue(10, 60_000);
    expect(claimed).toMatchObject({ id: queued.id, template: 'welcome', attempts: 0 });
    expect(Buffer.compare(claimed!.sealed, queued.sealed)).toBe(0);
    expect(claimed!.createdAt).toBeInstanceOf(Date);
    await expect(repository.claimDue(10, 60_000)).resolves.toEqual([]); // leased
    expect(await repository.status(queued.id)).toEqual({ state: 'sending', attempts: 0, lastError: null });

    await repository.markSent(queued.id);
    expect(await repository.status(queued.id)).toEqual({ state: 'sent', attempts: 1, lastError: null });
    const [sent] = await repository.listSent(10);
    expect(sent).toMatchObject({ id: queued.id });
    expect(sent!.sentAt).toBeInstanceOf(Date);
  });

  it('keeps one row per idempotency hash', async () => {
    const hash = 'a'.repeat(64);
    const first = email(hash);
    await expect(repository.enqueue(first)).resolves.toEqual({ id: first.id, created: true });
    await expect(repository.enqueue(email(hash))).resolves.toEqual({ id: first.id, created: false });
  });

  it('records failed attempts, gives rows back, and reclaims an expired lease', async () => {
    await dataSource.query(`DELETE FROM notifications.email_messages WHERE state <> 'sent'`);
    const [a, b] = [email(), email()];
    await repository.enqueue(a);
    await repository.enqueue(b);
    expect((await repository.claimDue(10, 60_000)).map((m) => m.id).sort()).toEqual([a.id, b.id].sort());

    await repository.markAttemptFailed(a.id, { state: 'retrying', delayMs: 0 }, 'ECONNECTION: down');
    await repository.release([b.id], 0);
    expect(await repository.status(a.id)).toEqual({ state: 'retrying', attempts: 1, lastError: 'ECONNECTION: down' });
    expect(await repository.status(b.id)).toEqual({ state: 'queued', attempts: 0, lastError: null });

    const reclaimed = await repository.claimDue(10, 1);
    expect(reclaimed.map((m) => [m.id, m.attempts]).sort()).toEqual([[a.id, 1], [b.id, 0]].sort());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await repository.claimDue(10, 60_000)).map((m) => m.id).sort()).toEqual([a.id, b.id].sort()); // lease ran out

    await repository.markAttemptFailed(b.id, { state: 'failed' }, 'EENVELOPE 550: refused');
    expect(await repository.status(b.id)).toEqual({ state: 'failed', attempts: 1, lastError: 'EENVELOPE 550: refused' });
  });

  it('stores a contact message with its e-mail', async () => {
    const contactId = randomUUID();
    const copy = email();
    await repository.enqueueContact({ id: contactId, sealed: Buffer.from('sealed') }, copy);
    const [row] = await dataSource.query(`SELECT email_message_id FROM notifications.contact_messages WHERE id = $1`, [contactId]);
    expect(row).toEqual({ email_message_id: copy.id });
  });
});
