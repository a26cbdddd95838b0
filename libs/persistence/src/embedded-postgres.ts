import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { SessionAwareQueryQueue } from './session-queue';

/**
 * The embedded database of `npm start`: PGlite (real Postgres compiled to WASM) keeping its files
 * in `<dataDir>/pglite`, served on a loopback port over the Postgres wire protocol so that every
 * service uses the ordinary `pg` driver and TypeORM exactly as against a real server.
 *
 * PGlite runs one query at a time; the socket server queues the connections' queries and an open
 * transaction holds the others back until it ends. Keep transactions short.
 */
export class EmbeddedPostgres {
  private static instance: Promise<EmbeddedPostgres> | undefined;

  private constructor(
    private readonly db: PGlite,
    private readonly server: PGLiteSocketServer,
    readonly url: string,
  ) {}

  /** One embedded database per process, started on first use. */
  static get(dataDir: string): Promise<EmbeddedPostgres> {
    EmbeddedPostgres.instance ??= EmbeddedPostgres.start(dataDir);
    return EmbeddedPostgres.instance;
  }

  private static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const dir = path.resolve(dataDir, 'pglite');
    await mkdir(dir, { recursive: true });
    const db = await PGlite.create({ dataDir: dir });
    const port = 0;
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 64 });
    // Replace the socket server's queue (an internal field, version pinned in package.json) before any
    // connection exists: see SessionAwareQueryQueue for why.
    (server as unknown as { queryQueue: SessionAwareQueryQueue }).queryQueue = new SessionAwareQueryQueue(db);
    await server.start();
    // getServerConn() answers "host:port" with the port the OS chose.
    const url = `postgres://postgres@${server.getServerConn()}/postgres?sslmode=disable`;
    return new EmbeddedPostgres(db, server, url);
  }

  static async stop(): Promise<void> {
    const current = EmbeddedPostgres.instance;
    EmbeddedPostgres.instance = undefined;
    if (!current) return;
    const embedded = await current;
    await embedded.server.stop();
    await embedded.db.close();
  }
}
