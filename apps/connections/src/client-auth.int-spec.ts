import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { INestMicroservice } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import { CONNECTIONS_MESSAGES, CONNECTIONS_SUBJECTS, type CallerIdentity, type ConnectionView, type JwksReply } from '@medfolio/contracts';
import { createRpcClient, InProcessEventBus, InProcessServer, type RpcClient } from '@medfolio/messaging';
import { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { ConnectionsAppModule } from './app.module';
import { ConnectionsConfig } from './config';
import { CLIENT_KEY_FILE } from './repositories/client-keys';
import { SyncService } from './services/sync.service';

/**
 * Client registrations per endpoint against the local SMART sandbox, the whole service on a real
 * PostgreSQL: an endpoint registered as a confidential asymmetric client (private_key_jwt) whose
 * sandbox registration names the JWKS URL where the product's published keys are served, an
 * endpoint without a registration (the default public client), and a registration whose key the
 * server does not know (a refused assertion, said in plain words, on connecting and on a refresh).
 */
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIRECT = 'https://medfolio.example/connections/callback';

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

async function otherKeySet(): Promise<JSONWebKeySet> {
  const { publicKey } = await generateKeyPair('ES384');
  return { keys: [{ ...(await exportJWK(publicKey)), kid: 'not-ours', alg: 'ES384', use: 'sig' }] };
}

describe('client registrations: public and private_key_jwt (PostgreSQL, request/reply, the SMART sandbox)', () => {
  let app: INestMicroservice;
  let rpc: RpcClient;
  let bus: InProcessEventBus;
  let confidential: SmartSandbox;
  let strangers: SmartSandbox;
  let folder: string;
  let syncs: SyncService;
  /** The JWKS URL registered at the sandbox: serves what the product publishes, unless a test swaps it. */
  let jwksServer: Server;
  let served: () => Promise<unknown>;
  const caller = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: randomUUID() });

  beforeAll(async () => {
    jwksServer = createServer((_req, res) => {
      void served().then((body) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const jwksUri = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
    confidential = await SmartSandbox.start({
      clients: [
        { client_id: 'medfolio-confidential', redirect_uris: [REDIRECT], jwks_uri: jwksUri },
        { client_id: 'medfolio-public', redirect_uris: [REDIRECT] },
      ],
    });
    strangers = await SmartSandbox.start({ clients: [{ client_id: 'medfolio-confidential', redirect_uris: [REDIRECT], jwks: await otherKeySet() }], seedMockData: false });
    folder = await mkdtemp(path.join(tmpdir(), 'connections-clients-int-'));
    const endpointsFile = path.join(folder, 'endpoints.json');
    const registrationsFile = path.join(folder, 'registrations.json');
    await writeFile(
      endpointsFile,
      JSON.stringify(
        brandsBundle([
          { id: 'springfield-general', name: 'Springfield General Hospital', address: confidential.fhirBaseUrl },
          { id: 'springfield-walk-in', name: 'Springfield Walk-in Clinic', address: confidential.fhirBaseUrl },
          { id: 'ogdenville-clinic', name: 'Ogdenville Clinic', address: strangers.fhirBaseUrl },
        ]),
      ),
    );
    await writeFile(
      registrationsFile,
      JSON.stringify({
        'springfield-general': { client_id: 'medfolio-confidential', auth: 'private_key_jwt' },
        'ogdenville-clinic': { client_id: 'medfolio-confidential', auth: 'private_key_jwt' },
      }),
    );
    const config = Object.assign(new ConnectionsConfig(), {
      databaseUrl,
      databasePoolSize: 2,
      dataDir: path.join(folder, 'data'),
      endpointsFile,
      clientRegistrationsFile: registrationsFile,
      defaultClientId: 'medfolio-public',
      redirectUrl: REDIRECT,
      tokenKey: randomBytes(32).toString('base64'),
      allowLoopbackHttp: true,
      httpTimeoutMs: 5000,
      syncBackoffMs: 10,
      syncAttempts: 2,
      syncIntervalMinutes: 0,
    });
    bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({ imports: [ConnectionsAppModule.register({ config, eventBus: bus, http: false })] }).compile();
    app = moduleRef.createNestMicroservice({ strategy: new InProcessServer(), logger: false });
    await app.listen();
    syncs = app.get(SyncService);
    rpc = createRpcClient('connections-clients-int-test', { timeoutMs: 10_000 });
    served = () => rpc.send(CONNECTIONS_SUBJECTS.jwks, {}, { roles: [], correlationId: randomUUID() });
  }, 60_000);

  afterAll(async () => {
    await rpc?.close();
    await app?.close();
    await bus?.close();
    await confidential?.stop();
    await strangers?.stop();
    jwksServer?.closeAllConnections();
    await new Promise<void>((resolve) => (jwksServer ? jwksServer.close(() => resolve()) : resolve()));
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  async function authorize(who: CallerIdentity, endpointId: string): Promise<{ params: URLSearchParams; completion: { code: string; state: string } }> {
    const { authorize_url } = await rpc.send(CONNECTIONS_SUBJECTS.start, { endpoint_id: endpointId }, who);
    const back = new URL((await fetch(authorize_url, { redirect: 'manual' })).headers.get('location') ?? 'http://invalid/');
    return { params: new URL(authorize_url).searchParams, completion: { code: back.searchParams.get('code') ?? '', state: back.searchParams.get('state') ?? '' } };
  }

  async function listed(who: CallerIdentity, id: string): Promise<ConnectionView> {
    const found = (await rpc.send(CONNECTIONS_SUBJECTS.list, {}, who)).find((c) => c.id === id);
    if (!found) throw new Error('the connection is not listed');
    return found;
  }

  /** The token requests the sandbox answered since `from`, and how the client authenticated (from the request log: no bodies kept). */
  const tokenCalls = (server: SmartSandbox, from: number) => server.requests.slice(from).filter((r) => r.path === '/auth/token');

  it('publishes the public half of an ES384 key generated into DATA_DIR (kept there for the next start), without any private member', async () => {
    const jwks: JwksReply = await rpc.send(CONNECTIONS_SUBJECTS.jwks, {}, { roles: [], correlationId: randomUUID() });
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-384', alg: 'ES384', use: 'sig', kid: expect.any(String) });
    expect(Object.keys(jwks.keys[0] as object)).not.toContain('d');
    const stored = JSON.parse(await readFile(path.join(folder, 'data', CLIENT_KEY_FILE), 'utf8')) as JSONWebKeySet;
    expect(stored.keys[0]).toMatchObject({ x: jwks.keys[0]?.x, y: jwks.keys[0]?.y, d: expect.any(String) });
  });

  it('connects and syncs as a private_key_jwt client: the sandbox verifies the assertion with the published JWKS, on the code exchange, the refresh and the revocation', async () => {
    const ada = caller(randomUUID());
    const from = confidential.requests.length;
    const { params, completion } = await authorize(ada, 'springfield-general');
    expect(params.get('client_id')).toBe('medfolio-confidential');
    expect(params.get('code_challenge_method')).toBe('S256');
    const view = await rpc.send(CONNECTIONS_SUBJECTS.complete, completion, ada);
    expect(view).toMatchObject({ status: 'connected', endpoint_id: 'springfield-general' });
    await syncs.idle();
    expect(await listed(ada, view.id)).toMatchObject({ status: 'connected', last_error: null, counts: expect.objectContaining({ Patient: 1 }) });
    expect(tokenCalls(confidential, from).map((r) => r.status)).toEqual([200]);

    // An expired access token is renewed with a refresh request that carries a new assertion (jti used once).
    confidential.expireAccessTokens();
    const beforeRefresh = confidential.requests.length;
    await expect(syncs.sync(view.id, ada)).resolves.toMatchObject({ outcome: 'synced' });
    expect(tokenCalls(confidential, beforeRefresh).map((r) => r.status)).toEqual([200]);

    const grants = confidential.activeGrants();
    await expect(rpc.send(CONNECTIONS_SUBJECTS.remove, { connection_id: view.id }, ada)).resolves.toEqual({ deleted: true, revoked_at_source: true });
    expect(confidential.activeGrants()).toBe(grants - 1);
  });

  it('an endpoint without a registration of its own uses SMART_DEFAULT_CLIENT_ID as a public client', async () => {
    const ada = caller(randomUUID());
    const { params, completion } = await authorize(ada, 'springfield-walk-in');
    expect(params.get('client_id')).toBe('medfolio-public');
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, completion, ada)).resolves.toMatchObject({ status: 'connected' });
    await syncs.idle();
  });

  it('a server that does not know the key refuses the assertion: connecting says so, and nothing is connected', async () => {
    const ada = caller(randomUUID());
    const { completion } = await authorize(ada, 'ogdenville-clinic');
    const from = strangers.requests.length;
    await expect(rpc.send(CONNECTIONS_SUBJECTS.complete, completion, ada)).rejects.toMatchObject({ code: 'UNAVAILABLE', message: CONNECTIONS_MESSAGES.clientRefused });
    expect(tokenCalls(strangers, from).map((r) => r.status)).toEqual([401]);
    expect(await rpc.send(CONNECTIONS_SUBJECTS.list, {}, ada)).toEqual([]);
  });

  it('a refresh whose assertion is refused (the key was replaced at the server) stops the sync in plain words and keeps the connection, not "reconnect"', async () => {
    const ada = caller(randomUUID());
    const { completion } = await authorize(ada, 'springfield-general');
    const view = await rpc.send(CONNECTIONS_SUBJECTS.complete, completion, ada);
    await syncs.idle();
    const published = served;
    const wrong = await otherKeySet();
    served = async () => wrong;
    try {
      confidential.expireAccessTokens();
      await expect(syncs.sync(view.id, ada)).resolves.toMatchObject({ outcome: 'failed' });
      expect(await listed(ada, view.id)).toMatchObject({ status: 'connected', sync_state: 'idle', last_error: CONNECTIONS_MESSAGES.clientRefused });
    } finally {
      served = published;
    }
    // With the right key served again, the next sync goes through.
    await expect(syncs.sync(view.id, ada)).resolves.toMatchObject({ outcome: 'synced' });
    expect(await listed(ada, view.id)).toMatchObject({ status: 'connected', last_error: null });
  });
});
