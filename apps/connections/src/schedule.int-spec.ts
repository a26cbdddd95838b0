import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { CONNECTIONS_SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import { createRpcClient, InProcessEventBus, InProcessServer, type RpcClient } from '@medfolio/messaging';
import { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { ConnectionsAppModule } from './app.module';
import { ConnectionsConfig } from './config';
import { Connection } from './entities';
import { SYNC_TICK_MS, SyncService } from './services/sync.service';

/**
 * The schedule end to end: the service as it runs, its timer on (CONNECTIONS_SYNC_INTERVAL_MINUTES=1,
 * the timer looking every 200 ms instead of every minute), a real PostgreSQL and the SMART sandbox.
 * A connection whose last fetch is older than the interval is fetched again with no request from
 * anyone; a fresh one is left alone.
 */
const adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
// A database of its own: the timer looks at every due connection, and the shared test database holds
// other suites' (and earlier runs') connections, which would come first in its queue.
const database = `connections_schedule_${randomBytes(4).toString('hex')}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
const REDIRECT = 'https://medfolio.example/connections/callback';

describe('the sync schedule (timer on, PostgreSQL, the SMART sandbox)', () => {
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: InProcessEventBus;
  let sandbox: SmartSandbox;
  let folder: string;
  const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    sandbox = await SmartSandbox.start({ clients: [{ client_id: 'medfolio-test', redirect_uris: [REDIRECT] }] });
    folder = await mkdtemp(path.join(tmpdir(), 'connections-schedule-int-'));
    const endpointsFile = path.join(folder, 'endpoints.json');
    await writeFile(
      endpointsFile,
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'collection',
        entry: [
          { resource: { resourceType: 'Organization', id: 'org-springfield', name: 'Springfield General Hospital', endpoint: [{ reference: 'Endpoint/springfield-general' }] } },
          { resource: { resourceType: 'Endpoint', id: 'springfield-general', status: 'active', connectionType: { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' }, address: sandbox.fhirBaseUrl } },
        ],
      }),
    );
    const config = Object.assign(new ConnectionsConfig(), {
      databaseUrl,
      databasePoolSize: 2,
      dataDir: path.join(folder, 'data'),
      endpointsFile,
      defaultClientId: 'medfolio-test',
      redirectUrl: REDIRECT,
      tokenKey: randomBytes(32).toString('base64'),
      allowLoopbackHttp: true,
      httpTimeoutMs: 5000,
      syncIntervalMinutes: 1,
    });
    bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({ imports: [ConnectionsAppModule.register({ config, eventBus: bus, http: false })] })
      .overrideProvider(SYNC_TICK_MS)
      .useValue(200)
      .compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: false });
    await app.listen();
    rpc = createRpcClient('connections-schedule-int-test', { timeoutMs: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await bus?.close();
    await sandbox?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  async function connect(who: CallerIdentity): Promise<string> {
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'springfield-general' }, who);
    const back = new URL((await fetch(authorize_url, { redirect: 'manual' })).headers.get('location') ?? 'http://invalid/');
    const view = await rpc.send(CONNECTIONS_SUBJECTS.complete, { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' }, who);
    await app.get(SyncService).idle();
    return view.id;
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
    const end = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('fetches a connection whose last fetch is older than the interval by itself, and leaves a fresh one alone', async () => {
    const [ada, bob] = [caller(randomUUID()), caller(randomUUID())];
    const due = await connect(ada);
    const fresh = await connect(bob);
    const connections = app.get(DataSource).getRepository(Connection);
    const freshSynced = (await connections.findOneByOrFail({ id: fresh })).lastSyncAt as Date;
    const old = new Date(Date.now() - 5 * 60_000);
    const before = sandbox.requests.length;
    // Only the database changes (its last sync and last attempt 5 minutes ago): no request, no call;
    // the timer finds the connection due.
    await connections.update({ id: due }, { lastSyncAt: old, syncStartedAt: old });
    const synced = await until('the timer to fetch the due connection', async () => {
      const row = await connections.findOneByOrFail({ id: due });
      return row.lastSyncAt && row.lastSyncAt.getTime() > old.getTime() && row.syncState === 'idle' ? row : undefined;
    });
    expect(synced.lastSyncError).toBeNull();
    expect(sandbox.requests.slice(before).filter((r) => r.path === '/fhir/Patient' && r.status === 200).length).toBeGreaterThanOrEqual(1);
    // Ticks go on (every 200 ms) and find nothing else due: the fresh connection is not fetched again.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await connections.findOneByOrFail({ id: fresh })).lastSyncAt).toEqual(freshSynced);
    expect((await connections.findOneByOrFail({ id: due })).lastSyncAt).toEqual(synced.lastSyncAt);
  });
});
