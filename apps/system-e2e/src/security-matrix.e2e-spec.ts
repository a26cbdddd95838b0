import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeNppes, useStripeMock, type StripeMock } from '@medfolio/testing';
import { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { get } from './support/api';
import { call, type Mailbox } from './support/journey';
import { DEV_MAIL_JSON, startNode, waitFor, type Running } from './support/processes';
import { noLockoutJourney } from './support/lockout-journey';
import { MATRIX_ENDPOINT_ID } from './support/route-expectations';
import { securityMatrix, undeclared, type OpenApiDocument } from './support/security-matrix';

/**
 * The IDOR matrix, drawn from the OpenAPI document the running product serves: every
 * route and method, called signed out, as a second user, with every forged token and as the owner,
 * against the expectations declared in support/route-expectations.ts. Its own product process, so
 * the per-client limits of the mail-sending routes are its own.
 */
describe('security matrix from the OpenAPI document (one-process product)', () => {
  let dataDir: string;
  let running: Running | undefined;
  let base: string;
  let document: OpenApiDocument;
  let nppes: FakeNppes | undefined;
  let stripe: StripeMock | undefined;
  let smart: SmartSandbox | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-matrix-'));
    // The NPI registry stand-in, for the providers the owner grants.
    nppes = await FakeNppes.start();
    // Payments configured (stripe-mock), so checkout reaches Stripe rather than answering 503.
    stripe = await useStripeMock();
    // Google Wallet configured (a test issuer and a key of our own: the save link is only signed, never sent).
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const googleWallet = JSON.stringify({ client_email: 'wallet@medfolio-test.iam.gserviceaccount.com', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() });
    // A hospital to connect: the local SMART on FHIR sandbox, the one entry of the endpoint directory.
    const redirect = 'http://127.0.0.1/connections/callback';
    smart = await SmartSandbox.start({ clients: [{ client_id: 'medfolio-matrix', redirect_uris: [redirect] }] });
    const endpointsFile = path.join(dataDir, 'endpoints.json');
    await writeFile(endpointsFile, JSON.stringify({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Organization', id: 'matrix-hospital', name: 'Matrix Hospital', endpoint: [{ reference: `Endpoint/${MATRIX_ENDPOINT_ID}` }] } },
        { resource: { resourceType: 'Endpoint', id: MATRIX_ENDPOINT_ID, status: 'active', address: smart.fhirBaseUrl } },
      ],
    }));
    running = startNode('apps/medfolio/src/main.js', [], {
      PORT: '0',
      DATA_DIR: dataDir,
      DOCUMENT_QUOTA_FREE: '20',
      // Any plan may add family members here (the owner stays on Free: billing's routes check it).
      FAMILY_PLANS: 'free,basic,standard,plus,pro',
      REFRESH_REUSE_GRACE_SECONDS: '0',
      NPI_REGISTRY_URL: nppes.url,
      GOOGLE_WALLET_ISSUER_ID: '3388000000012345678',
      GOOGLE_WALLET_SERVICE_ACCOUNT: googleWallet,
      STRIPE_SECRET_KEY: 'sk_test_matrix',
      STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(16).toString('hex')}`,
      STRIPE_API_BASE: stripe.url,
      // One proxy hop trusted: a route declared `clientPerRequest` sends each call from its own address.
      TRUST_PROXY_HOPS: '1',
      FHIR_ENDPOINTS_FILE: endpointsFile,
      SMART_DEFAULT_CLIENT_ID: 'medfolio-matrix',
      CONNECTIONS_REDIRECT_URL: redirect,
      SMART_ALLOW_LOOPBACK_HTTP: 'true',
    });
    base = await waitFor('the start-up line', async () => /running at (http:\/\/localhost:\d+)\//.exec(running!.output())?.[1]);
    document = (await get<OpenApiDocument>(`${base}/api/docs-json`)).body;
  });

  afterAll(async () => {
    await running?.stop();
    await nppes?.stop();
    await stripe?.stop();
    await smart?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('locks nobody out from a new network: past the account-wide limit the right password gets a step-up (an e-mailed code), and a genuine reset link always works', async () => {
    const mailbox: Mailbox = {
      textsTo: async (to) => (await call<{ to: string; text: string }[]>(base, 'GET', DEV_MAIL_JSON)).body.filter((m) => m.to === to).map((m) => m.text),
    };
    await noLockoutJourney(base, mailbox).catch((error: Error) => {
      throw new Error(`${error.message}\n--- product log (tail) ---\n${running!.output().slice(-3000)}`);
    });
  }, 120_000);

  it('declares an expectation for every route and method of the OpenAPI document', () => {
    const { missing, stale } = undeclared(document);
    // A new route? Add one line to apps/system-e2e/src/support/route-expectations.ts (see its header).
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
  });

  it('answers every route as declared to the signed-out, the second user, forged tokens and the owner, and never leaks the owner\'s data', async () => {
    const mailbox: Mailbox = {
      textsTo: async (to) => (await call<{ to: string; text: string }[]>(base, 'GET', DEV_MAIL_JSON)).body.filter((m) => m.to === to).map((m) => m.text),
    };
    const result = await securityMatrix(base, mailbox, dataDir, document);
    if (result.problems.length) console.log(`${result.lines.join('\n')}\n--- product log (tail) ---\n${running!.output().slice(-3000)}`);
    expect(result.problems).toEqual([]);
    expect(result.lines).toHaveLength(Object.keys(document.paths).reduce((n, p) => n + Object.keys(document.paths[p]!).length, 0));
    expect(result.requests).toBeGreaterThan(result.lines.length * 3);
  }, 240_000);
});
