import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';

export interface ServiceDataSourceOptions {
  /** The service's name: also its Postgres schema. */
  schema: string;
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  /** Extra startup options for every connection (e.g. `-c role=...`). */
  connectionOptions?: string;
}

/**
 * TypeORM options for one service: its own schema, its own migrations table, never `synchronize`.
 * Migrations are run explicitly (at start, and by `main.js migrate` in the Kubernetes Job).
 */
export function serviceDataSourceOptions(options: ServiceDataSourceOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    // gen_random_uuid() is built into Postgres 13+; PGlite has no uuid-ossp and needs no extension.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    logging: false,
    extra: {
      max: options.poolSize ?? 5,
      connectionTimeoutMillis: 5000,
      ...(options.connectionOptions ? { options: options.connectionOptions } : {}),
    },
  };
}

/** Creates the service's schema if needed and applies its pending migrations. Returns their names. */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema;
  if (!schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`Invalid schema name for migrations`);
  await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  return applied.map((m) => m.name);
}

/** Opens a DataSource, migrates, closes: the `migrate` command of every service. */
export async function migrateOnce(options: DataSourceOptions): Promise<string[]> {
  const dataSource = new DataSource(options);
  await dataSource.initialize();
  try {
    return await migrate(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** The Postgres schema a DataSource works in (every service has one, named after it). */
export function schemaOf(dataSource: { options: DataSourceOptions }): string {
  const schema = (dataSource.options as { schema?: string }).schema;
  if (!schema || !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error('The DataSource has no valid schema');
  return schema;
}
