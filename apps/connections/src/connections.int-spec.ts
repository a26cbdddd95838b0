import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { CONNECTIONS_SUBJECTS, SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import { createRpcClient, InProcessEventBus, InProcessServer, type RpcClient } from '@medfolio/messaging';
import { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { ConnectionsAppModule } from './app.module';
import { ConnectionsConfig } from './config';
import { Connection } from './entities';
import { SyncService } from './services/sync.service';
import { TokenSealer } from './services/token-sealer';

/**
 * The whole service as it runs (the kit, migrations, the audit client, the handlers) on a real
 * PostgreSQL (DATABASE_URL, default the local test database), called over the in-process
 * request/reply transport the way the gateway calls it, against the local SMART on FHIR sandbox
 * (Medplum's FHIR server behind a SMART authorization server) named by a directory file.
 */
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIRECT = 'https://medfolio.example/connections/callback';

function brandsBundle(endpoints: { id: string; name: string; address: string; city: string }[]): unknown {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: endpoints.flatMap((e) => [
      { fullUrl: `urn:test:org:${e.id}`, resource: { resourceType: 'Organization', id: `org-${e.id}`, name: e.name, address: [{ city: e.city, state: 'IL' }], endpoint: [{ reference: `Endpoint/${e.id}` }] } },
      { fullUrl: `urn:test:endpoint:${e.id}`, resource: { resourceType: 'Endpoint', id: e.id, status: 'active', connectionType: { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' }, address: e.address } },
    ]),
  };
}

describe('connections service (PostgreSQL, request/reply, the SMART sandbox)', () => {
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: InProcessEventBus;
  let sandbox: SmartSandbox;
  let v1Sandbox: SmartSandbox;
  let folder: string;
  const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

  beforeAll(async () => {
    sandbox = await SmartSandbox.start({ clients: [{ client_id: 'medfolio-test', redirect_uris: [REDIRECT] }] });
    v1Sandbox = await SmartSandbox.start({ clients: [{ client_id: 'medfolio-test', redirect_uris: [REDIRECT] }], scopeVersions: 'v1', seedMockData: false });
    folder = await mkdtemp(path.join(tmpdir(), 'connections-int-'));
    const endpointsFile = path.join(folder, 'endpoints.json');
    await writeFile(
      endpointsFile,
      JSON.stringify(
        brandsBundle([
          { id: 'springfield-general', name: 'Springfield General Hospital', address: sandbox.fhirBaseUrl, city: 'Springfield' },
          { id: 'shelbyville-clinic', name: 'Shelbyville Clinic', address: v1Sandbox.fhirBaseUrl, city: 'Shelbyville' },
          { id: 'closed-clinic', name: 'Closed Clinic', address: 'http://127.0.0.1:1/fhir', city: 'Ogdenville' },
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
      httpTimeoutMs: 2000,
    });
    bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({ imports: [ConnectionsAppModule.register({ config, eventBus: bus, http: false })] }).compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: false });
    await app.listen();
    rpc = createRpcClient('connections-int-test', { timeoutMs: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await bus?.close();
    await sandbox?.stop();
    await v1Sandbox?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** The browser's trip to the hospital: the authorization page approves and redirects back with a code (or an error). */
  async function visit(authorizeUrl: string): Promise<URL> {
    const answer = await fetch(authorizeUrl, { redirect: 'manual' });
    const location = answer.headers.get('location');
    if (!location) throw new Error(`the authorization page answered ${answer.status}`);
    return new URL(location);
  }

  async function connect(who: CallerIdentity, endpointId = 'springfield-general') {
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: endpointId }, who);
    const back = await visit(authorize_url);
    return rpc.send(CONNECTIONS_SUBJECTS.complete, { code: back.searchParams.get('code') ?? undefined, state: back.searchParams.get('state') ?? '' }, who);
  }

  it('is ready: database and messaging up', async () => {
    await expect(rpc.send(SUBJECTS.health('connections'), {}, caller('system'))).resolves.toMatchObject({ status: 'ok' });
  });

  it('searches the directory file by name and city, words in any order', async () => {
    const ada = caller(randomUUID());
    const found = await rpc.send(CONNECTIONS_SUBJECTS.searchEndpoints, { q: 'general springfield' }, ada);
    expect(found).toEqual([{ id: 'springfield-general', name: 'Springfield General Hospital', aliases: [], locations: ['Springfield, IL'], portal: null }]);
    expect(await rpc.send(CONNECTIONS_SUBJECTS.searchEndpoints, { q: 'shelbyville' }, ada)).toHaveLength(1);
    expect(await rpc.send(CONNECTIONS_SUBJECTS.searchEndpoints, {}, ada)).toHaveLength(3);
    expect(await rpc.send(CONNECTIONS_SUBJECTS.searchEndpoints, { q: 'nowhere' }, ada)).toEqual([]);
  });

  it('starts a launch with discovery, PKCE S256, a state and aud, and finishes it: a connection whose sealed tokens read the patient', async () => {
    const ada = caller(randomUUID());
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'springfield-general' }, ada);
    const url = new URL(authorize_url);
    expect(url.origin + url.pathname).toBe(`${sandbox.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'medfolio-test',
      redirect_uri: REDIRECT,
      scope: 'launch/patient openid fhirUser offline_access patient/*.rs',
      aud: sandbox.fhirBaseUrl,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const back = await visit(authorize_url);
    const view = await rpc.send(CONNECTIONS_SUBJECTS.complete, { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' }, ada);
    expect(view).toMatchObject({ endpoint_id: 'springfield-general', name: 'Springfield General Hospital', status: 'connected', scope: 'launch/patient openid fhirUser offline_access patient/*.rs', last_sync_at: null, sync_state: 'syncing' });
    // Connecting starts the first sync (off the request path); once it ends the list shows its time.
    await app.get(SyncService).idle();
    expect(await rpc.send(CONNECTIONS_SUBJECTS.list, {}, ada)).toEqual([{ ...view, sync_state: 'idle', state_text: 'Connected', last_sync_at: expect.any(String), counts: expect.objectContaining({ Patient: 1 }) }]);

    const row = (await app.get(DataSource).getRepository(Connection).findOneByOrFail({ id: view.id })) as Connection;
    const sealer = app.get(TokenSealer);
    const accessToken = sealer.open('access_token', row.id, row.accessTokenSealed);
    expect(sealer.open('patient', row.id, row.patientSealed)).toBe('123');
    expect(row.accessTokenSealed.includes(Buffer.from(accessToken))).toBe(false);
    expect(row.refreshTokenSealed).not.toBeNull();
    const patient = await fetch(`${sandbox.fhirBaseUrl}/Patient/123`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(patient.status).toBe(200);
    expect(() => sealer.open('access_token', randomUUID(), row.accessTokenSealed)).toThrow();
  });

  it('binds the state to the user who started: another user cannot finish it, and a state works once', async () => {
    const [ada, bob] = [caller(randomUUID()), caller(randomUUID())];
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'springfield-general' }, ada);
    const back = await visit(authorize_url);
    const completion = { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' };
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, completion, bob)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/not started here/) });
    expect(await rpc.send(CONNECTIONS_SUBJECTS.list, {}, bob)).toEqual([]);
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, completion, ada)).resolves.toMatchObject({ status: 'connected' });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, completion, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, { code: 'x', state: 'made-up' }, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('says so when the patient refuses at the hospital, or the hospital refuses the code', async () => {
    const ada = caller(randomUUID());
    sandbox.denyNextAuthorization();
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'springfield-general' }, ada);
    const back = await visit(authorize_url);
    expect(back.searchParams.get('error')).toBe('access_denied');
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, { error: 'access_denied', state: back.searchParams.get('state') ?? '' }, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/not approved/) });

    const second = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'springfield-general' }, ada);
    const returned = await visit(second.authorize_url);
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, { code: 'not-the-code', state: returned.searchParams.get('state') ?? '' }, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/did not accept/) });
    expect(await rpc.send(CONNECTIONS_SUBJECTS.list, {}, ada)).toEqual([]);
  });

  it('asks for SMART v1 scopes where the server speaks only v1', async () => {
    const ada = caller(randomUUID());
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'shelbyville-clinic' }, ada);
    expect(new URL(authorize_url).searchParams.get('scope')).toBe('launch/patient openid fhirUser offline_access patient/*.read');
    await expect(connect(ada, 'shelbyville-clinic')).resolves.toMatchObject({ scope: 'launch/patient openid fhirUser offline_access patient/*.read' });
  });

  it('disconnects: the grant revoked at the hospital, the connection gone; another user\'s id is not found', async () => {
    const [ada, bob] = [caller(randomUUID()), caller(randomUUID())];
    const view = await connect(ada);
    await expect(rpc.send(CONNECTIONS_SUBJECTS.remove, { connection_id: view.id }, bob)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const grants = sandbox.activeGrants();
    await expect(rpc.send(CONNECTIONS_SUBJECTS.remove, { connection_id: view.id }, ada)).resolves.toEqual({ deleted: true, revoked_at_source: true });
    expect(sandbox.activeGrants()).toBe(grants - 1);
    expect(await rpc.send(CONNECTIONS_SUBJECTS.list, {}, ada)).toEqual([]);
    await expect(rpc.send(CONNECTIONS_SUBJECTS.remove, { connection_id: view.id }, ada)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses endpoints outside the directory, reports an unreachable one, and refuses bad payloads', async () => {
    const ada = caller(randomUUID());
    await expect(rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'somewhere-else' }, ada)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'That hospital or clinic is not in the directory.' });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'closed-clinic' }, ada)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: 'https://evil.example/fhir' }, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'endpoint_id must be the id of a directory entry' });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.remove, { connection_id: 'nope' }, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(rpc.send(CONNECTIONS_SUBJECTS.searchEndpoints, { q: 'x'.repeat(101) }, ada)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
