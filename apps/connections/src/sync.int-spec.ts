import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { CONNECTIONS_MESSAGES, CONNECTIONS_SUBJECTS, type CallerIdentity, type ConnectionView } from '@medfolio/contracts';
import { createRpcClient, InProcessEventBus, InProcessServer, type RpcClient } from '@medfolio/messaging';
import { addSyntheticRecord, SmartSandbox, SYNTHETIC_TYPES } from '@medfolio/testing/smart-sandbox';
import { ConnectionsAppModule } from './app.module';
import { ConnectionsConfig } from './config';
import { Connection, ConnectionResource } from './entities';
import { SYNC_SEARCHES, SyncService } from './services/sync.service';
import { TokenSealer } from './services/token-sealer';

/**
 * The sync against the local SMART on FHIR sandbox, the whole service on a real PostgreSQL, called
 * over the in-process request/reply transport: full and incremental syncs (the sandbox's request log
 * counts what a sync costs), paging, 429 and 5xx retried, an expired access token renewed, a revoked
 * grant turning the connection to 'reconnect', and the 1,000-resource synthetic record's time and memory.
 */
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIRECT = 'https://medfolio.example/connections/callback';
const PAGE_SIZE = 50;

function brandsBundle(endpoints: { id: string; name: string; address: string }[]): unknown {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: endpoints.flatMap((e) => [
      { resource: { resourceType: 'Organization', id: `org-${e.id}`, name: e.name, endpoint: [{ reference: `Endpoint/${e.id}` }] } },
      { resource: { resourceType: 'Endpoint', id: e.id, status: 'active', connectionType: { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' }, address: e.address } },
    ]),
  };
}

describe('connections sync (PostgreSQL, request/reply, the SMART sandbox)', () => {
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: InProcessEventBus;
  let sandbox: SmartSandbox;
  let big: SmartSandbox;
  let folder: string;
  let syncs: SyncService;
  const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

  beforeAll(async () => {
    const clients = [{ client_id: 'medfolio-test', redirect_uris: [REDIRECT] }];
    sandbox = await SmartSandbox.start({ clients });
    big = await SmartSandbox.start({ clients });
    const subject = { reference: 'Patient/123' };
    for (const category of ['laboratory', 'vital-signs', 'social-history']) {
      await sandbox.fhir.add({ resourceType: 'Observation', status: 'final', subject, category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: category }] }], code: { text: `a ${category} observation` } });
    }
    const pdf = await sandbox.fhir.add({ resourceType: 'Binary', contentType: 'application/pdf', securityContext: subject, data: Buffer.from('%PDF-1.4 discharge letter').toString('base64') });
    await sandbox.fhir.add({ resourceType: 'DocumentReference', status: 'current', subject, content: [{ attachment: { contentType: 'application/pdf', url: `Binary/${pdf.id}`, title: 'Discharge letter' } }] });
    await addSyntheticRecord(big.fhir, '123', 1000);
    folder = await mkdtemp(path.join(tmpdir(), 'connections-sync-int-'));
    const endpointsFile = path.join(folder, 'endpoints.json');
    await writeFile(
      endpointsFile,
      JSON.stringify(
        brandsBundle([
          { id: 'springfield-general', name: 'Springfield General Hospital', address: sandbox.fhirBaseUrl },
          { id: 'capital-city', name: 'Capital City Clinic', address: big.fhirBaseUrl },
        ]),
      ),
    );
    const config = Object.assign(new ConnectionsConfig(), {
      databaseUrl,
      databasePoolSize: 2,
      endpointsFile,
      defaultClientId: 'medfolio-test',
      redirectUrl: REDIRECT,
      tokenKey: randomBytes(32).toString('base64'),
      allowLoopbackHttp: true,
      httpTimeoutMs: 5000,
      syncPageSize: PAGE_SIZE,
      syncBackoffMs: 10,
      syncAttempts: 5,
      syncIntervalMinutes: 0,
    });
    bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({ imports: [ConnectionsAppModule.register({ config, eventBus: bus, http: false })] }).compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: false });
    await app.listen();
    syncs = app.get(SyncService);
    rpc = createRpcClient('connections-sync-int-test', { timeoutMs: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await bus?.close();
    await sandbox?.stop();
    await big?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** Connects (the sandbox approves at once) and waits for the sync that connecting starts. */
  async function connect(who: CallerIdentity, endpointId = 'springfield-general'): Promise<ConnectionView> {
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: endpointId }, who);
    const back = new URL((await fetch(authorize_url, { redirect: 'manual' })).headers.get('location') ?? 'http://invalid/');
    const view = await rpc.send(CONNECTIONS_SUBJECTS.complete, { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' }, who);
    expect(view.sync_state).toBe('syncing');
    await syncs.idle();
    return view;
  }

  async function listed(who: CallerIdentity, id: string): Promise<ConnectionView> {
    const found = (await rpc.send(CONNECTIONS_SUBJECTS.list, {}, who)).find((c) => c.id === id);
    if (!found) throw new Error('the connection is not listed');
    return found;
  }

  async function syncNow(who: CallerIdentity, id: string): Promise<ConnectionView> {
    const view = await rpc.send(CONNECTIONS_SUBJECTS.sync, { connection_id: id }, who);
    await syncs.idle();
    return view;
  }

  /** What the sandbox holds for the patient, per type (read with a fresh token of the connection). */
  async function sourceTotal(server: SmartSandbox, connectionId: string, type: string, extra = ''): Promise<number> {
    const row = await app.get(DataSource).getRepository(Connection).findOneByOrFail({ id: connectionId });
    const token = app.get(TokenSealer).open('access_token', row.id, row.accessTokenSealed);
    const answer = await fetch(`${server.fhirBaseUrl}/${type}?${type === 'Patient' ? '_id=123' : 'patient=123'}&_count=1${extra}`, { headers: { Authorization: `Bearer ${token}` } });
    return ((await answer.json()) as { total: number }).total;
  }

  it('syncs a sandbox patient fully after connecting: every type kept once, sealed, counted in the list', async () => {
    const ada = caller(randomUUID());
    const view = await connect(ada);
    const after = await listed(ada, view.id);
    expect(after).toMatchObject({ status: 'connected', sync_state: 'idle', state_text: 'Connected', last_error: null });
    expect(after.last_sync_at).not.toBeNull();
    expect(after.counts['Patient']).toBe(1);
    for (const type of ['Observation', 'Condition', 'DocumentReference']) {
      const extra = type === 'Observation' ? '&category=laboratory,vital-signs' : '';
      expect({ type, kept: after.counts[type] ?? 0 }).toEqual({ type, kept: await sourceTotal(sandbox, view.id, type, extra) });
    }
    expect(after.counts['Observation']).toBeGreaterThanOrEqual(2);
    expect(after.counts['Binary']).toBe(1);
    const rows = await app.get(DataSource).getRepository(ConnectionResource).findBy({ connectionId: view.id });
    expect(rows.length).toBe(Object.values(after.counts).reduce((a, b) => a + b, 0));
    const patient = rows.find((r) => r.resourceType === 'Patient') as ConnectionResource;
    expect(patient.bodySealed.includes(Buffer.from('Simpson'))).toBe(false);
    expect(JSON.parse(app.get(TokenSealer).open('resource', `${view.id}/Patient/123`, patient.bodySealed))).toMatchObject({ resourceType: 'Patient', id: '123' });
  });

  it('a second sync with nothing new costs at most one request per resource type; a new resource comes in place', async () => {
    const ada = caller(randomUUID());
    const view = await connect(ada);
    const before = sandbox.requests.length;
    await syncNow(ada, view.id);
    const made = sandbox.requests.slice(before);
    for (const search of SYNC_SEARCHES) expect({ type: search.type, requests: made.filter((r) => r.path === `/fhir/${search.type}`).length }).toEqual({ type: search.type, requests: 1 });
    expect(made.length).toBe(SYNC_SEARCHES.length);
    const counts = (await listed(ada, view.id)).counts;

    await sandbox.fhir.add({ resourceType: 'Condition', subject: { reference: 'Patient/123' }, code: { text: 'Sprained ankle (sync test)' } });
    const result = await syncs.sync(view.id, ada);
    expect(result).toMatchObject({ outcome: 'synced', changed: { Condition: 1 } });
    expect((await listed(ada, view.id)).counts).toEqual({ ...counts, Condition: (counts['Condition'] ?? 0) + 1 });
  });

  it('retries 429 (Retry-After) and 5xx answers, and renews an expired access token', async () => {
    const ada = caller(randomUUID());
    const view = await connect(ada);
    const before = sandbox.requests.length;
    sandbox.rateLimit(2, 0);
    sandbox.failNext(2, 503);
    const row = await app.get(DataSource).getRepository(Connection).findOneByOrFail({ id: view.id });
    sandbox.expireAccessTokens();
    await syncNow(ada, view.id);
    const made = sandbox.requests.slice(before);
    expect(made.filter((r) => r.status === 429)).toHaveLength(2);
    expect(made.filter((r) => r.status === 503)).toHaveLength(2);
    expect(made.filter((r) => r.path === '/auth/token' && r.status === 200)).toHaveLength(1);
    expect(await listed(ada, view.id)).toMatchObject({ status: 'connected', last_error: null });
    const renewed = await app.get(DataSource).getRepository(Connection).findOneByOrFail({ id: view.id });
    expect(renewed.accessTokenSealed.equals(row.accessTokenSealed)).toBe(false);
    expect(renewed.accessExpiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('gives up after the configured tries and says so in plain words, keeping what it had', async () => {
    const ada = caller(randomUUID());
    const view = await connect(ada);
    const counts = (await listed(ada, view.id)).counts;
    sandbox.failNext(5, 500);
    await syncNow(ada, view.id);
    expect(await listed(ada, view.id)).toMatchObject({ status: 'connected', sync_state: 'idle', last_error: CONNECTIONS_MESSAGES.syncFailed, counts });
  });

  it('refuses another user, and one sync at a time per connection', async () => {
    const [ada, bob] = [caller(randomUUID()), caller(randomUUID())];
    const view = await connect(ada);
    await expect(rpc.send(CONNECTIONS_SUBJECTS.sync, { connection_id: view.id }, bob)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.sync, { connection_id: 'nope' }, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const [first, second] = await Promise.all([syncs.sync(view.id, ada), syncs.sync(view.id, ada)]);
    expect([first.outcome, second.outcome].sort()).toEqual(['busy', 'synced']);
  });

  it('stops at the resource cap and says so, and the next sync goes on from where the complete types left off', async () => {
    const ada = caller(randomUUID());
    const config = app.get(ConnectionsConfig);
    config.syncMaxResources = 3;
    let view: ConnectionView;
    try {
      view = await connect(ada);
    } finally {
      config.syncMaxResources = 20_000;
    }
    const capped = await listed(ada, view.id);
    expect(capped.last_error).toBe(CONNECTIONS_MESSAGES.syncCapped);
    expect(Object.values(capped.counts).reduce((a, b) => a + b, 0)).toBe(3);
    await syncNow(ada, view.id);
    const full = await listed(ada, view.id);
    expect(full.last_error).toBeNull();
    expect(full.counts['Observation']).toBe(await sourceTotal(sandbox, view.id, 'Observation', '&category=laboratory,vital-signs'));
  });

  it('syncs the 1,000-resource synthetic record across pages, within 30 s', async () => {
    const ada = caller(randomUUID());
    const started = performance.now();
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const view = await connect(ada, 'capital-city');
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    const after = await listed(ada, view.id);
    const synthetic = SYNTHETIC_TYPES.reduce((sum, type) => sum + (after.counts[type] ?? 0), 0);
    // The 1,000 include a text/plain Binary per DocumentReference, which the sync does not fetch (only PDF and C-CDA).
    expect(synthetic).toBeGreaterThanOrEqual(875);
    expect(after.counts['Observation']).toBe(await sourceTotal(big, view.id, 'Observation', '&category=laboratory,vital-signs'));
    expect(big.fhirRequestsFor('Observation').length).toBeGreaterThan(2);
    expect(after.last_error).toBeNull();
    expect(seconds).toBeLessThan(30);
    process.stdout.write(`sync figure: ${Object.values(after.counts).reduce((a, b) => a + b, 0)} resources in ${seconds.toFixed(2)} s, peak RSS ${Math.round(peak / 1048576)} MB\n`);
  }, 60_000);

  it('the schedule syncs connections whose last sync is older than the interval, leaves fresh ones alone, and tries a failing one again only an interval later', async () => {
    const ada = caller(randomUUID());
    const view = await connect(ada);
    const failing = await connect(caller(randomUUID()));
    const connections = app.get(DataSource).getRepository(Connection);
    // Longer ago than anything else in the shared database, so both come first in the queue.
    const old = new Date(Date.now() - 30 * 86_400_000);
    await connections.update({ id: view.id }, { lastSyncAt: old, syncStartedAt: old });
    await connections.update({ id: failing.id }, { lastSyncAt: old, syncStartedAt: old, endpointId: 'gone-from-the-directory' });
    const config = app.get(ConnectionsConfig);
    config.syncIntervalMinutes = 360;
    try {
      expect(await syncs.runDue()).toBeGreaterThanOrEqual(2);
      const synced = (await connections.findOneByOrFail({ id: view.id })).lastSyncAt as Date;
      expect(synced.getTime()).toBeGreaterThan(old.getTime());
      const failed = await connections.findOneByOrFail({ id: failing.id });
      expect(failed.lastSyncError).toBe(CONNECTIONS_MESSAGES.unknownEndpoint);
      expect(failed.lastSyncAt).toEqual(old);
      expect(failed.syncStartedAt!.getTime()).toBeGreaterThan(old.getTime());
      await syncs.runDue();
      expect((await connections.findOneByOrFail({ id: view.id })).lastSyncAt).toEqual(synced);
      // The failed one waits an interval too: it does not hold the queue's head at every tick.
      expect((await connections.findOneByOrFail({ id: failing.id })).syncStartedAt).toEqual(failed.syncStartedAt);
    } finally {
      config.syncIntervalMinutes = 0;
    }
  });

  it('refuses a paging link to another origin: that type stops there in plain words, nothing is asked of the other origin, the rest is fetched, and the next sync reads that type again', async () => {
    const elsewhere: string[] = [];
    const other = createServer((req, res) => {
      elsewhere.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'application/fhir+json' }).end(JSON.stringify({ resourceType: 'Bundle', type: 'searchset', entry: [] }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const config = app.get(ConnectionsConfig);
    try {
      for (let i = 0; i < 12; i += 1) {
        await sandbox.fhir.add({ resourceType: 'AllergyIntolerance', patient: { reference: 'Patient/123' }, code: { text: `Allergy ${i} (paging test)` } });
      }
      const ada = caller(randomUUID());
      config.syncPageSize = 10;
      sandbox.foreignNextLink('AllergyIntolerance', `http://127.0.0.1:${(other.address() as AddressInfo).port}`);
      const view = await connect(ada);
      const first = await listed(ada, view.id);
      expect(first).toMatchObject({ status: 'connected', last_error: CONNECTIONS_MESSAGES.offOrigin });
      expect(first.counts['AllergyIntolerance']).toBe(10);
      expect(elsewhere).toEqual([]);
      // The other types were fetched in full (their pages on the sandbox's own origin).
      expect(first.counts['Observation']).toBe(await sourceTotal(sandbox, view.id, 'Observation', '&category=laboratory,vital-signs'));
      const row = await app.get(DataSource).getRepository(Connection).findOneByOrFail({ id: view.id });
      expect(row.syncCheckpoints['AllergyIntolerance']).toBeUndefined();
      expect(row.syncCheckpoints['Condition']).toEqual(expect.any(String));

      await syncNow(ada, view.id);
      const second = await listed(ada, view.id);
      expect(second.last_error).toBeNull();
      expect(second.counts['AllergyIntolerance']).toBe(await sourceTotal(sandbox, view.id, 'AllergyIntolerance'));
      expect(second.counts['AllergyIntolerance']).toBeGreaterThan(10);
      expect(elsewhere).toEqual([]);
    } finally {
      config.syncPageSize = PAGE_SIZE;
      other.closeAllConnections();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('a revoked grant turns the connection to "reconnect", and a sync is then refused', async () => {
    const ada = caller(randomUUID());
    const view = await connect(ada);
    sandbox.revokeAll();
    sandbox.expireAccessTokens();
    await syncNow(ada, view.id);
    expect(await listed(ada, view.id)).toMatchObject({ status: 'reconnect', sync_state: 'idle', state_text: CONNECTIONS_MESSAGES.reauthorize, last_error: CONNECTIONS_MESSAGES.reauthorize });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.sync, { connection_id: view.id }, ada)).rejects.toMatchObject({ code: 'CONFLICT', message: CONNECTIONS_MESSAGES.notConnected });

    // Reconnecting renews this connection (same id, its records kept) rather than adding a second one.
    const before = (await listed(ada, view.id)).counts;
    const again = await connect(ada);
    expect(again.id).toBe(view.id);
    const mine = await rpc.send(CONNECTIONS_SUBJECTS.list, {}, ada);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ id: view.id, status: 'connected', last_error: null, counts: before });
    await expect(syncNow(ada, view.id)).resolves.toMatchObject({ id: view.id });
  });
});
