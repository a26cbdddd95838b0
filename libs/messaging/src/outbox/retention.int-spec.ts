import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { DEFAULTS } from '../events/delivery-policy';
import { PROCESSED_MESSAGES_MIN_RETENTION_MS, REDELIVERY_WINDOW_MS, pruneOutbox, pruneProcessedMessages } from './retention';
import { prepareSchema, testDataSource } from './testing/test-database';

const schema = `retention_test_${randomBytes(4).toString('hex')}`;
const DAY = 24 * 3_600_000;

/** Housekeeping of the outbox and the processed-message ids on real PostgreSQL. */
describe('outbox and processed-message retention', () => {
  let dataSource: DataSource;
  const ago = (ms: number) => new Date(Date.now() - ms);

  beforeAll(async () => {
    dataSource = await testDataSource(schema).initialize();
    await prepareSchema(dataSource, schema);
  });

  afterAll(async () => {
    await dataSource.query(`DROP SCHEMA "${schema}" CASCADE`);
    await dataSource.destroy();
  });

  beforeEach(() => dataSource.query(`TRUNCATE "${schema}"."outbox", "${schema}"."processed_messages"`));

  const outboxRow = (subject: string, createdAt: Date, publishedAt: Date | null) =>
    dataSource.query(`INSERT INTO "${schema}"."outbox" (subject, payload, created_at, published_at) VALUES ($1, '{}'::jsonb, $2, $3)`, [subject, createdAt, publishedAt]);
  const subjects = async (table: string, column: string) =>
    ((await dataSource.query(`SELECT ${column} AS v FROM "${schema}"."${table}" ORDER BY ${column}`)) as { v: string }[]).map((r) => r.v);

  it('deletes published outbox rows older than the retention, keeps newer ones and never an unpublished row', async () => {
    await outboxRow('old.published', ago(10 * DAY), ago(10 * DAY));
    await outboxRow('old.published.late', ago(30 * DAY), ago(8 * DAY));
    await outboxRow('new.published', ago(10 * DAY), ago(1 * DAY)); // created long ago, published recently: kept
    await outboxRow('old.unpublished', ago(90 * DAY), null);
    await outboxRow('new.unpublished', ago(1000), null);
    await expect(pruneOutbox(dataSource, ago(7 * DAY))).resolves.toBe(2);
    expect(await subjects('outbox', 'subject')).toEqual(['new.published', 'new.unpublished', 'old.unpublished']);
    await expect(pruneOutbox(dataSource, new Date(Date.now() + DAY))).resolves.toBe(1);
    expect(await subjects('outbox', 'subject')).toEqual(['new.unpublished', 'old.unpublished']);
  });

  it('deletes in batches: a backlog larger than one batch goes in one call', async () => {
    await dataSource.query(
      `INSERT INTO "${schema}"."outbox" (subject, payload, created_at, published_at)
       SELECT 'bulk', '{}'::jsonb, now() - interval '20 days', now() - interval '20 days' FROM generate_series(1, 12000)`,
    );
    await outboxRow('kept', ago(1000), ago(1000));
    await expect(pruneOutbox(dataSource, ago(7 * DAY))).resolves.toBe(12000);
    expect(await subjects('outbox', 'subject')).toEqual(['kept']);
  });

  it('deletes processed-message ids older than the retention, never younger than the floor above the redelivery window', async () => {
    const processed = (id: string, at: Date) =>
      dataSource.query(`INSERT INTO "${schema}"."processed_messages" (consumer, message_id, processed_at) VALUES ('c', $1, $2)`, [id, at]);
    await processed('40-days', ago(40 * DAY));
    await processed('31-days', ago(31 * DAY));
    await processed('29-days', ago(29 * DAY));
    await processed('2-hours', ago(2 * 3_600_000));
    await processed('now', new Date());
    await expect(pruneProcessedMessages(dataSource, ago(30 * DAY))).resolves.toBe(2);
    expect(await subjects('processed_messages', 'message_id')).toEqual(['2-hours', '29-days', 'now']);
    // A retention set below the floor (here: everything) still keeps every id younger than the floor.
    await expect(pruneProcessedMessages(dataSource, new Date())).resolves.toBe(1);
    expect(await subjects('processed_messages', 'message_id')).toEqual(['2-hours', 'now']);
  });

  it('keeps processed ids well beyond the redelivery window of the shared delivery policy', () => {
    expect(REDELIVERY_WINDOW_MS).toBe(DEFAULTS.duplicateWindowMs + DEFAULTS.maxDeliver * (DEFAULTS.ackWaitMs + 30_000));
    expect(REDELIVERY_WINDOW_MS).toBe(7 * 60_000);
    expect(PROCESSED_MESSAGES_MIN_RETENTION_MS).toBeGreaterThanOrEqual(Math.max(REDELIVERY_WINDOW_MS, DAY));
  });
});
