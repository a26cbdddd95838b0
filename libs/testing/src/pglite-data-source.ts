import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { DataSource } from 'typeorm';
import { migrate, serviceDataSourceOptions, type ServiceDataSourceOptions } from '@medfolio/persistence';

/** The service's schema, entities and migrations, as in production. */
export type PgliteDataSourceOptions = Pick<ServiceDataSourceOptions, 'schema' | 'entities' | 'migrations'>;

export interface PgliteDataSource {
  dataSource: DataSource;
  /** Closes the data source, the socket server and the database. */
  stop(): Promise<void>;
}

/**
 * A service's data source on PGlite, the database of the embedded one-process mode, reached over
 * pglite-socket as the service reaches it there, with the service's migrations applied: for tests
 * that prove a repository's SQL works on PGlite as it does on PostgreSQL.
 */
export async function startPgliteDataSource(options: PgliteDataSourceOptions): Promise<PgliteDataSource> {
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 8 });
  await server.start();
  const dataSource = await new DataSource(
    serviceDataSourceOptions({
      ...options,
      url: `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`,
      poolSize: 4,
    }),
  ).initialize();
  await migrate(dataSource);
  return {
    dataSource,
    async stop() {
      await dataSource.destroy();
      await server.stop();
      await db.close();
    },
  };
}
