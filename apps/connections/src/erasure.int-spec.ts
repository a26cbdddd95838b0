import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect as natsConnect, type NatsConnection } from '@nats-io/transport-node';
import { DataSource } from 'typeorm';
import { CONNECTIONS_SUBJECTS, ERASURE_SUBJECTS, RECORD_ERASED_ACTION, STREAMS, SUBJECTS, type AuditEventDto, type CallerIdentity } from '@medfolio/contracts';
import { createRpcClient, InProcessServer, JetStreamEventBus, type EventEnvelope, type RpcClient } from '@medfolio/messaging';
import { eventually, IsolatedEventBus, isolatedDeadLetterPrefix } from '@medfolio/testing';
import { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { ConnectionsAppModule } from './app.module';
import { ConnectionsConfig } from './config';

/**
 * Erasing a record (identity.user.record-erased.v1) on real PostgreSQL and NATS JetStream, against
 * the local SMART on FHIR sandbox: the patient's connections are revoked at the hospital, then they,
 * their sealed tokens and fetched resources, and their started sign-ins are deleted; another
 * patient's connection stays; a second delivery is harmless.
 */
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIRECT = 'https://medfolio.example/connections/callback';
const run = randomBytes(4).toString('hex');

let app: INestMicroservice;
let rpc: RpcClient;
let nats: NatsConnection;
let bus: IsolatedEventBus;
let sandbox: SmartSandbox;
let folder: string;
const audit: AuditEventDto[] = [];
const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

beforeAll(async () => {
  sandbox = await SmartSandbox.start({ clients: [{ client_id: 'medfolio-test', redirect_uris: [REDIRECT] }] });
  folder = await mkdtemp(path.join(tmpdir(), 'connections-erasure-'));
  const endpointsFile = path.join(folder, 'endpoints.json');
  await writeFile(
    endpointsFile,
    JSON.stringify({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { fullUrl: 'urn:test:org:springfield', resource: { resourceType: 'Organization', id: 'org-springfield', name: 'Springfield General Hospital', address: [{ city: 'Springfield', state: 'IL' }], endpoint: [{ reference: 'Endpoint/springfield-general' }] } },
        { fullUrl: 'urn:test:endpoint:springfield', resource: { resourceType: 'Endpoint', id: 'springfield-general', status: 'active', connectionType: { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' }, address: sandbox.fhirBaseUrl } },
      ],
    }),
  );
  const config = Object.assign(new ConnectionsConfig(), {
    databaseUrl,
    databasePoolSize: 2,
    endpointsFile,
    defaultClientId: 'medfolio-test',
    redirectUrl: REDIRECT,
    tokenKey: randomBytes(32).toString('base64'),
    allowLoopbackHttp: true,
    httpTimeoutMs: 2000,
  });
  nats = await natsConnect({ servers: (process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222').split(',') });
  const prefix = `cer${run}`;
  bus = new IsolatedEventBus(await JetStreamEventBus.connect({ connection: nats, name: `connections-erasure-${run}`, deadLetterPrefix: isolatedDeadLetterPrefix(prefix) }), prefix);
  for (const stream of [STREAMS.AUDIT, STREAMS.IDENTITY]) await bus.ensureStream({ name: stream.name, subjects: [...stream.subjects] });
  await bus.consume({ stream: STREAMS.AUDIT.name, durable: 'test-audit', filterSubjects: [SUBJECTS.audit.recorded] }, async (event: EventEnvelope) => {
    audit.push(event.data as AuditEventDto);
  });
  const moduleRef = await Test.createTestingModule({ imports: [ConnectionsAppModule.register({ config, eventBus: bus, http: false })] }).compile();
  app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: false });
  await app.listen();
  rpc = createRpcClient('connections-erasure-test', { timeoutMs: 10_000 });
}, 60_000);

afterAll(async () => {
  await rpc?.close();
  await app?.close();
  await bus?.close();
  if (nats) {
    const jsm = await jetstreamManager(nats);
    for await (const info of jsm.streams.list()) if (info.config.name.startsWith(`CER${run.toUpperCase()}_`)) await jsm.streams.delete(info.config.name);
    await nats.close();
  }
  await sandbox?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

async function connected(who: CallerIdentity): Promise<string> {
  const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'springfield-general' }, who);
  const answer = await fetch(authorize_url, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location') ?? '');
  const view = await rpc.send(CONNECTIONS_SUBJECTS.complete, { code: back.searchParams.get('code') ?? undefined, state: back.searchParams.get('state') ?? '' }, who);
  return view.id;
}

const sql = (query: string, params: unknown[]) => app.get(DataSource).query(query, params) as Promise<Array<Record<string, unknown>>>;
const rowsOf = async (ownerId: string) => ({
  connections: (await sql(`SELECT 1 FROM connections.connections WHERE owner_id = $1`, [ownerId])).length,
  resources: (await sql(`SELECT 1 FROM connections.connection_resources r JOIN connections.connections c ON c.id = r.connection_id WHERE c.owner_id = $1`, [ownerId])).length,
  pending: (await sql(`SELECT 1 FROM connections.pending_authorizations WHERE owner_id = $1`, [ownerId])).length,
});

it("revokes the patient's connections at the hospital and deletes them with their tokens and resources, and nothing of another patient's; a second delivery is harmless", async () => {
  const [child, other] = [caller(randomUUID()), caller(randomUUID())];
  const childConnection = await connected(child);
  await connected(other);
  // Each connection's first sync (started on connecting) has finished: nothing changes under the test.
  await eventually('the first syncs', async () => {
    const states = await sql(`SELECT sync_state FROM connections.connections WHERE owner_id = ANY($1)`, [[child.userId, other.userId]]);
    return states.length === 2 && states.every((s) => s['sync_state'] !== 'syncing') ? true : undefined;
  }, 30_000, 100);
  // A fetched resource of each (the sync's table), and a sign-in the child's guardian started and left.
  for (const [who, id] of [[child, childConnection], [other, (await sql(`SELECT id FROM connections.connections WHERE owner_id = $1`, [other.userId]))[0]!['id']]] as const) {
    await sql(`INSERT INTO connections.connection_resources (connection_id, resource_type, resource_id, body_sealed, fetched_at) VALUES ($1, 'Condition', $2, '\\x00'::bytea, now())`, [id, `c-${who.userId}`]);
  }
  await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'springfield-general' }, child);
  expect(await rowsOf(child.userId!)).toMatchObject({ connections: 1, pending: 1 });
  expect((await rowsOf(child.userId!)).resources).toBeGreaterThanOrEqual(1);
  const otherBefore = await rowsOf(other.userId!);
  const grants = sandbox.activeGrants();

  const erased = { patient_id: child.userId!, erased_at: new Date().toISOString(), erased_by: randomUUID() };
  await bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
  await eventually('the erasure', async () => ((await rowsOf(child.userId!)).connections === 0 ? true : undefined), 15_000, 50);
  expect(await rowsOf(child.userId!)).toEqual({ connections: 0, resources: 0, pending: 0 });
  expect((await sql(`SELECT 1 FROM connections.connection_resources WHERE connection_id = $1`, [childConnection])).length).toBe(0);
  expect(sandbox.activeGrants()).toBe(grants - 1);
  expect(await rpc.send(CONNECTIONS_SUBJECTS.list, {}, child)).toEqual([]);
  const record = await eventually('the audit record', async () => audit.find((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child.userId), 15_000, 50);
  expect(record).toMatchObject({ service: 'connections', actor: erased.erased_by, outcome: 'success', policy: 'proxy:guardian' });

  // The other patient's connection is untouched, and still connected at the hospital.
  expect(await rowsOf(other.userId!)).toEqual(otherBefore);
  expect((await rpc.send(CONNECTIONS_SUBJECTS.list, {}, other)).map((c) => c.status)).toEqual(['connected']);

  // Again, as a new message: nothing fails, nothing else goes.
  await bus.publish(ERASURE_SUBJECTS.erased, erased, { msgId: randomUUID() });
  await eventually('the second audit record', async () => (audit.filter((e) => e.action === RECORD_ERASED_ACTION && e.patientId === child.userId).length === 2 ? true : undefined), 15_000, 50);
  expect(await rowsOf(other.userId!)).toEqual(otherBefore);
  expect(sandbox.activeGrants()).toBe(grants - 1);
});
