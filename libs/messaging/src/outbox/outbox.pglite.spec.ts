import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { EventEnvelope } from '../events/event-bus';
import { InProcessEventBus } from '../events/in-process-event-bus';
import { ProcessedMessages } from './processed-messages';
import { Outbox } from './outbox';
import { OutboxMessage } from './outbox-message.entity';
import { OutboxRelay } from './outbox-relay';
import { pruneOutbox, pruneProcessedMessages } from './retention';
import { prepareSchema, testDataSource, Widget } from './testing/test-database';

/**
 * The outbox on PGlite (Postgres 17 in WASM), the database of the embedded one-process mode,
 * with the in-process bus: the migration, the relay's SKIP LOCKED query and the idempotent
 * insert all have to work there too.
 */
describe('Transactional outbox on PGlite with the in-process bus', () => {
  const schema = 'pglite_service';
  let db: PGlite;
  let server: PGLiteSocketServer;
  let dataSource: DataSource;
  let bus: InProcessEventBus;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    db = await PGlite.create();
    server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
    await server.start();
    dataSource = await testDataSource(
      schema,
      `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
    ).initialize();
    await prepareSchema(dataSource, schema);
    bus = new InProcessEventBus();
    await bus.ensureStream({ name: 'WIDGETS', subjects: ['widgets.>'] });
  }, 30_000);

  afterAll(async () => {
    await bus.close();
    await dataSource.destroy();
    await server.stop();
    await db.close();
  });

  it('creates both tables in the DataSource schema', async () => {
    const tables: { table_name: string }[] = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(['migrations', 'outbox', 'processed_messages', 'widgets']);
  });

  it('relays a committed event once, and an idempotent consumer applies it once', async () => {
    const id = await dataSource.transaction(async (manager) => {
      await manager.insert(Widget, { id: 'w1', count: 0 });
      return Outbox.add(manager, 'widgets.created', { widget: 'w1' });
    });
    const relay = new OutboxRelay(dataSource, bus);
    await expect(relay.publishBatch()).resolves.toBe(1);
    await expect(relay.publishBatch()).resolves.toBe(0);
    expect(await dataSource.getRepository(OutboxMessage).findOneByOrFail({ id })).toMatchObject({ attempts: 1 });

    const seen: EventEnvelope[] = [];
    const processed = new ProcessedMessages(dataSource);
    const handler = async (event: EventEnvelope) => {
      await processed.once('widget-counter', event.id, async (manager) => {
        seen.push(event);
        await manager.increment(Widget, { id: 'w1' }, 'count', 1);
      });
    };
    const handle = await bus.consume(
      { stream: 'WIDGETS', durable: 'widget-counter', filterSubjects: ['widgets.>'] },
      handler,
    );
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await handle.stop();
    await handler({ ...seen[0], deliveryCount: 2 }); // a redelivery: skipped

    expect(seen.map((e) => e.id)).toEqual([id]);
    expect(await dataSource.getRepository(Widget).findOneByOrFail({ id: 'w1' })).toMatchObject({ count: 1 });
  });

  it('prunes published rows and old processed ids there too (housekeeping counts what went)', async () => {
    await dataSource.query(
      `INSERT INTO "${schema}"."outbox" (subject, payload, published_at) VALUES ('old', '{}'::jsonb, now() - interval '9 days'), ('unpublished', '{}'::jsonb, NULL)`,
    );
    await dataSource.query(`INSERT INTO "${schema}"."processed_messages" (consumer, message_id, processed_at) VALUES ('c', 'old', now() - interval '40 days')`);
    await expect(pruneOutbox(dataSource, new Date(Date.now() - 7 * 86_400_000))).resolves.toBe(1);
    await expect(pruneProcessedMessages(dataSource, new Date(Date.now() - 30 * 86_400_000))).resolves.toBe(1);
    const left: { subject: string }[] = await dataSource.query(`SELECT subject FROM "${schema}"."outbox" WHERE subject IN ('old', 'unpublished')`);
    expect(left).toEqual([{ subject: 'unpublished' }]);
  });

  it('reverts cleanly', async () => {
    await dataSource.undoLastMigration({ transaction: 'each' });
    const tables: { table_name: string }[] = await dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
      [schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(['migrations', 'widgets']);
  });
});
