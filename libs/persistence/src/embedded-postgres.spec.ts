import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { migrate, serviceDataSourceOptions } from './data-source';
import { EmbeddedPostgres } from './embedded-postgres';

class CreateNotes1700000000000 implements MigrationInterface {
  name = 'CreateNotes1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "probe"."notes" (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), body text NOT NULL)`,
    );
  }
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "probe"."notes"`);
  }
}

describe('EmbeddedPostgres (PGlite over the wire protocol)', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-pglite-'));
  });

  afterAll(async () => {
    await EmbeddedPostgres.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const open = async () => {
    const embedded = await EmbeddedPostgres.get(dataDir);
    const ds = new DataSource(
      serviceDataSourceOptions({ schema: 'probe', url: embedded.url, entities: [], migrations: [CreateNotes1700000000000], poolSize: 2 }),
    );
    await ds.initialize();
    return ds;
  };

  it('runs migrations into the service schema, once', async () => {
    const ds = await open();
    expect(await migrate(ds)).toEqual(['CreateNotes1700000000000']);
    expect(await migrate(ds)).toEqual([]);
    await ds.query(`INSERT INTO probe.notes (body) VALUES ('a'), ('b')`);
    const rows: { id: string }[] = await ds.query(`SELECT id FROM probe.notes`);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    await ds.destroy();
  }, 60_000);

  it('supports FOR UPDATE SKIP LOCKED across two connections', async () => {
    const ds = await open();
    const first = ds.createQueryRunner();
    await first.connect();
    await first.startTransaction();
    const claimed: unknown[] = await first.query(`SELECT id FROM probe.notes ORDER BY body LIMIT 1 FOR UPDATE SKIP LOCKED`);
    expect(claimed).toHaveLength(1);
    await first.commitTransaction();
    await first.release();
    await ds.destroy();
  }, 60_000);

  it('keeps parameterised queries of many connections apart (one PGlite session underneath)', async () => {
    const embedded = await EmbeddedPostgres.get(dataDir);
    const clients = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const client = new Client({ connectionString: embedded.url });
        await client.connect();
        return client;
      }),
    );
    try {
      const results = await Promise.all(
        clients.flatMap((client, c) =>
          Array.from({ length: 50 }, async (_, i) => {
            // Different SQL per connection: a statement parsed by one and bound by another shows.
            const { rows } = await client.query(`SELECT $1::int AS c, $2::int AS i, $3::text AS label${c}`, [c, i, `${c}-${i}`]);
            return rows[0][`label${c}`] === `${c}-${i}` && rows[0].c === c && rows[0].i === i;
          }),
        ),
      );
      expect(results.every(Boolean)).toBe(true);
      // Transactions on two connections at once: each sees only its own uncommitted row.
      await Promise.all(
        clients.slice(0, 2).map(async (client, c) => {
          await client.query('BEGIN');
          await client.query(`INSERT INTO probe.notes (body) VALUES ($1)`, [`tx-${c}`]);
          const { rows } = await client.query(`SELECT body FROM probe.notes WHERE body LIKE 'tx-%'`);
          expect(rows).toEqual([{ body: `tx-${c}` }]);
          await client.query('ROLLBACK');
        }),
      );
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  }, 60_000);

  it('keeps data across a restart', async () => {
    await EmbeddedPostgres.stop();
    const ds = await open();
    const rows: unknown[] = await ds.query(`SELECT body FROM probe.notes ORDER BY body`);
    expect(rows).toEqual([{ body: 'a' }, { body: 'b' }]);
    await ds.destroy();
  }, 60_000);
});
