import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { CreateOutboxTables1795290000000 } from '../migrations/1795290000000-create-outbox-tables';
import { OutboxMessage } from '../outbox-message.entity';
import { ProcessedMessage } from '../processed-message.entity';

/** The outbox tests' stand-in for a service's own data: the "change" an event describes. */
@Entity('widgets')
export class Widget {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ type: 'integer', default: 0 })
  count!: number;
}

export const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A DataSource like a service's: its own schema, the outbox migration, plus the test's table. */
export function testDataSource(schema: string, url = databaseUrl): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    schema,
    entities: [OutboxMessage, ProcessedMessage, Widget],
    migrations: [CreateOutboxTables1795290000000],
    migrationsTableName: 'migrations',
    logging: false,
    extra: { max: 5 },
  });
}

/** Creates the schema, runs the outbox migration and adds the widgets table. */
export async function prepareSchema(dataSource: DataSource, schema: string): Promise<void> {
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.query(
    `CREATE TABLE IF NOT EXISTS "${schema}"."widgets" ("id" text PRIMARY KEY, "count" integer NOT NULL DEFAULT 0)`,
  );
}
