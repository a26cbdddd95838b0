import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { HistoryPage } from '@medfolio/contracts';
import { randomBytes } from 'node:crypto';
import { S3BlobStorage } from '@medfolio/storage';
import { FakeNppes, startSmtpSink, useS3TestServer, type S3TestServer, type SmtpSink } from '@medfolio/testing';
import { get, tokenFor } from './support/api';
import { documentsJourney } from './support/documents-journey';
import { summaryJourney } from './support/summary-journey';
import { linkAccessJourney, providersJourney, type LicenseOperator } from './support/providers-journey';
import { patientIdentityJourney } from './support/patient-identity-journey';
import { shareFormatsJourney } from './support/share-formats-journey';
import { walletJourney } from './support/wallet-journey';
import { trendsJourney } from './support/trends-journey';
import { connectionsJourney, startJourneySandbox } from './support/connections-journey';
import { shlReceiveJourney } from './support/shl-receive-journey';
import type { SmartSandbox } from '@medfolio/testing/smart-sandbox';
import { accountJourney, type Mailbox } from './support/journey';
import { freePort, runNode, startNode, waitFor, type Running } from './support/processes';

const adminUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';

/**
 * The Kubernetes shape: each service its own process, on the machine's real PostgreSQL and NATS
 * JetStream, with files in a real S3 server (versitygw, or the one S3_ENDPOINT names) as the chart
 * configures them: downloads through the gateway, one link-signing key for every service.
 */
describe('multi-process mode on real PostgreSQL, NATS and S3', () => {
  const database = `medfolio_e2e_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const databaseUrl = (() => {
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    return url.toString();
  })();
  let dataDir: string;
  let audit: Running;
  let identity: Running;
  let notifications: Running;
  let documents: Running;
  let summary: Running;
  let wallet: Running;
  let billing: Running;
  let connections: Running;
  let smart: { sandbox: SmartSandbox; env: Record<string, string> };
  let gateway: Running;
  let gatewayEnv: Record<string, string>;
  let identityEnv: Record<string, string>;
  let auditPort: number;
  let base: string;
  let smtp: SmtpSink;
  let nppes: FakeNppes;
  let s3: S3TestServer;
  const internalToken = randomBytes(32).toString('base64url');
  const smtpMailbox: Mailbox = {
    textsTo: async (to) =>
      smtp.received
        .filter((m) => m.recipients.some((r) => r.toLowerCase() === to.toLowerCase()))
        .map((m) => `${m.subject}\n\n${m.text}`)
        .reverse(),
  };
  /** Runs a journey; when it fails, the error carries the end of the named services' output. */
  const withLogs = (journey: Promise<unknown>, services: Running[]): Promise<unknown> =>
    journey.catch((error: Error) => {
      const logs = services.map((p) => p.output().slice(-1500)).join('\n---\n');
      throw new Error(`${error.message}\n--- logs ---\n${logs}`);
    });

  const admin = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  const startAudit = () =>
    startNode('apps/audit/src/main.js', [], { MEDFOLIO_MODE: 'service', DATABASE_URL: databaseUrl, NATS_URL: natsUrl, PORT: String(auditPort), DATA_DIR: dataDir });

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-e2e-svc-'));
    auditPort = await freePort();
    const gatewayPort = await freePort();
    base = `http://127.0.0.1:${gatewayPort}`;
    smtp = await startSmtpSink();
    nppes = await FakeNppes.start();
    s3 = await useS3TestServer({ bucket: `medfolio-e2e-${randomUUID().slice(0, 8)}` });
    const s3Env = {
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
      STORAGE_URL_SIGNING_KEY: randomBytes(48).toString('base64'),
    };
    // The chart expects the bucket to exist; here it is made first, as an operator would.
    const bucket = new S3BlobStorage({ endpoint: s3.endpoint, region: s3.region, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey, forcePathStyle: true });
    await bucket.ensureBucket();
    bucket.destroy();
    const identityPort = await freePort();
    const notificationsPort = await freePort();
    const documentsPort = await freePort();
    const summaryPort = await freePort();
    const walletPort = await freePort();
    const billingPort = await freePort();
    const connectionsPort = await freePort();
    // Service mode starts only with every secret given: none is generated or derived.
    // IDENTITY_SECRET here for brevity: only identity reads it (SHARE_LINK_KEY is summary's alone, below).
    const service = { MEDFOLIO_MODE: 'service', DATABASE_URL: databaseUrl, NATS_URL: natsUrl, DATA_DIR: dataDir, IDENTITY_SECRET: randomBytes(32).toString('base64') };
    audit = startAudit();
    identityEnv = { ...service, ...s3Env, PORT: String(identityPort), INTERNAL_API_TOKEN: internalToken, REFRESH_REUSE_GRACE_SECONDS: '0', NPI_REGISTRY_URL: nppes.url };
    identity = startNode('apps/identity/src/main.js', [], identityEnv);
    notifications = startNode('apps/notifications/src/main.js', [], {
      ...service,
      PORT: String(notificationsPort),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      NOTIFICATIONS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    });
    documents = startNode('apps/documents/src/main.js', [], { ...service, ...s3Env, PORT: String(documentsPort), INTERNAL_API_TOKEN: internalToken, DOCUMENT_QUOTA_FREE: '5' });
    // summary reads document bytes from documents over HTTP (no S3 settings of its own).
    summary = startNode('apps/summary/src/main.js', [], { ...service, PORT: String(summaryPort), INTERNAL_API_TOKEN: internalToken, SHARE_LINK_KEY: randomBytes(32).toString('base64'), DOCUMENTS_INTERNAL_URL: `http://127.0.0.1:${documentsPort}`, SUMMARY_REBUILD_DELAY_MS: '500' });
    // wallet keeps signed passes in S3 and serves their links; its development signing chain goes to DATA_DIR.
    wallet = startNode('apps/wallet/src/main.js', [], { ...service, ...s3Env, PORT: String(walletPort), INTERNAL_API_TOKEN: internalToken, PUBLIC_BASE_URL: base });
    // billing without a Stripe key: plans are shown, checkout says payments are not configured.
    billing = startNode('apps/billing/src/main.js', [], { ...service, PORT: String(billingPort) });
    // connections with the local SMART sandbox as its one directory entry; its tokens' key from the "Secret".
    smart = await startJourneySandbox(path.join(dataDir, 'endpoints.json'));
    connections = startNode('apps/connections/src/main.js', [], { ...service, ...smart.env, PORT: String(connectionsPort), CONNECTIONS_TOKEN_KEY: randomBytes(32).toString('base64'), INTERNAL_API_TOKEN: internalToken, DOCUMENTS_INTERNAL_URL: `http://127.0.0.1:${documentsPort}` });
    gatewayEnv = {
      ...s3Env,
      MEDFOLIO_MODE: 'service',
      NATS_URL: natsUrl,
      PORT: String(gatewayPort),
      DATA_DIR: dataDir,
      // Tokens are verified with identity's published keys, as in Kubernetes.
      JWT_JWKS_URL: `http://127.0.0.1:${identityPort}/.well-known/jwks.json`,
      IDENTITY_INTERNAL_URL: `http://127.0.0.1:${identityPort}`,
      DOCUMENTS_INTERNAL_URL: `http://127.0.0.1:${documentsPort}`,
      WALLET_INTERNAL_URL: `http://127.0.0.1:${walletPort}`,
      INTERNAL_API_TOKEN: internalToken,
    };
    gateway = startNode('apps/gateway/src/main.js', [], gatewayEnv);
    for (const [name, port] of [['audit', auditPort], ['identity', identityPort], ['notifications', notificationsPort], ['documents', documentsPort], ['summary', summaryPort], ['wallet', walletPort], ['billing', billingPort], ['connections', connectionsPort]] as const) {
      await waitFor(`${name} readiness`, async () => ((await get(`http://127.0.0.1:${port}/health/ready`)).status === 200 ? true : undefined));
    }
    await waitFor('gateway health', async () => ((await get(`${base}/api/health/`)).status === 200 ? true : undefined));
  });

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([audit?.stop(), identity?.stop(), notifications?.stop(), documents?.stop(), summary?.stop(), wallet?.stop(), billing?.stop(), connections?.stop()]);
    await smart?.sandbox.stop();
    await smtp?.close();
    await nppes?.stop();
    await s3?.stop();
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves liveness, readiness and metrics on each service', async () => {
    expect((await get(`http://127.0.0.1:${auditPort}/health/live`)).body).toEqual({ status: 'ok' });
    expect((await get(`http://127.0.0.1:${auditPort}/health/ready`)).body).toEqual({ status: 'ok', checks: { database: 'up', messaging: 'up' } });
    const metrics = await get<string>(`http://127.0.0.1:${auditPort}/metrics`);
    expect(metrics.body).toContain('process_cpu_user_seconds_total{app="audit"}');
    expect(metrics.body).toMatch(/rpc_handler_duration_seconds_count\{[^}]*subject="audit.health.check"[^}]*outcome="success"[^}]*\} [1-9]/);
    const gatewayMetrics = await get<string>(`${base.replace('/api', '')}/metrics`);
    expect(gatewayMetrics.body).toMatch(/http_request_duration_seconds_count\{[^}]*route="\/api\/health"[^}]*status="200"[^}]*\} [1-9]/);
  });

  it('carries billing calls over NATS: the plans, and checkout without a Stripe key says payments are not configured', async () => {
    const plans = await get<{ payments_configured: boolean; plans: { id: string; monthly_cents: number }[] }>(`${base}/api/plans/`);
    expect(plans.body.payments_configured).toBe(false);
    expect(plans.body.plans.map((p) => [p.id, p.monthly_cents])).toEqual([['free', 0], ['basic', 800], ['standard', 1200], ['plus', 2400], ['pro', 4900]]);
    const token = await tokenFor(dataDir, `patient-${randomUUID()}`);
    const response = await fetch(`${base}/api/stripe/checkout/`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ price_id: 'price_basic_monthly', tier: 'basic', mode: 'monthly' }) });
    expect(response.status).toBe(503);
  });

  it('carries a history request from the gateway over NATS to the audit service and back', async () => {
    const token = await tokenFor(dataDir, `patient-${randomUUID()}`);
    expect((await get(`${base}/api/history/`, token)).status).toBe(200);
    const page = await waitFor('the recorded read', async () => {
      const reply = await get<HistoryPage>(`${base}/api/history/`, token);
      return reply.body.total >= 1 ? reply.body : undefined;
    });
    expect(page.results[0]).toMatchObject({ who: 'you', action: 'history.read' });
  });

  it('takes a new patient through the whole account journey, with e-mail over real SMTP', async () => {
    await withLogs(accountJourney(base, smtpMailbox), [gateway, identity, notifications]);
    expect((await get(`${base}/dev/mail.json`)).status).toBe(404);
  });

  it('a sign-out through one gateway replica stops the access token on another within a second', async () => {
    const secondPort = await freePort();
    const second = startNode('apps/gateway/src/main.js', [], { ...gatewayEnv, PORT: String(secondPort) });
    try {
      const other = `http://127.0.0.1:${secondPort}`;
      await waitFor('the second gateway', async () => ((await get(`${other}/api/health/`)).status === 200 ? true : undefined));
      const email = `replica-${randomUUID().slice(0, 8)}@example.com`;
      const password = 'correct horse battery';
      const post = (url: string, body: unknown, token?: string) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      expect((await post(`${base}/api/register/`, { first_name: 'Ana', last_name: '', phone: '+1 202 555 0143', email, password, date_of_birth: '1990-04-01' })).status).toBe(201);
      const code = await waitFor('the code', async () => {
        const mail = smtp.received.find((m) => m.recipients.includes(email));
        return mail ? /\b(\d{4})\b/.exec(mail.text)?.[1] : undefined;
      });
      expect((await post(`${base}/api/verify-otp/`, { email, otp: code })).status).toBe(200);
      const { access, refresh } = (await (await post(`${base}/api/login/`, { email, password })).json()) as { access: string; refresh: string };
      expect((await get(`${other}/api/profile/`, access)).status).toBe(200);
      expect((await post(`${base}/api/logout/`, { refresh }, access)).status).toBe(200);
      const deadline = Date.now() + 1000;
      let status = 0;
      while (Date.now() < deadline && (status = (await get(`${other}/api/profile/`, access)).status) !== 401) await new Promise((r) => setTimeout(r, 50));
      expect(status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('streams documents from the gateway to the documents service and S3, and serves them back through the gateway', async () => {
    const alice = await tokenFor(dataDir, randomUUID());
    const bob = await tokenFor(dataDir, randomUUID());
    await withLogs(documentsJourney(base, alice, bob), [gateway, documents]);
  });

  const licenseOperator: LicenseOperator = {
    // The operators' review, as an operator runs it beside the service (same database and NATS).
    approve: async (npi) => {
      const { PORT: _port, ...env } = identityEnv;
      const run = await runNode('apps/identity/src/main.js', ['license-review', 'approve', npi, '--operator', 'e2e-operator', '--note', 'system test'], env);
      if (run.code !== 0) throw new Error(`license-review approve ${npi}: exit ${run.code}\n${run.output}`);
    },
  };

  it('lets a verified doctor see what a patient chose to show across the services, and the patient see every look', async () => {
    await withLogs(providersJourney(base, smtpMailbox, licenseOperator), [gateway, identity, documents, summary]);
  });

  it("keeps what a link leads to behind its passcode, and ends a link's grants with it (documents follows summary's events)", async () => {
    await withLogs(linkAccessJourney(base, smtpMailbox, licenseOperator), [gateway, identity, documents, summary]);
  });

  it("reads a patient's uploaded document in the summary service (bytes over documents' internal HTTP) into a cited summary", async () => {
    await withLogs(summaryJourney(base, smtpMailbox), [gateway, documents, summary]);
  });

  it("names the patient (identity's current name and date of birth over NATS) on a link's page, PDF and IPS, and nobody on an anonymous link", async () => {
    await withLogs(patientIdentityJourney(base, smtpMailbox), [gateway, identity, summary]);
  });

  it('shows health trends across the services: C-CDA and FHIR glucose on one line (a Free preview), the CSV from the summary service, standard support from notifications asking billing', async () => {
    const token = await tokenFor(dataDir, randomUUID());
    await withLogs(trendsJourney(base, token), [summary, documents, notifications, gateway]);
  });

  it('serves the summary as FHIR IPS, PDF and a SMART Health Link from the summary service over NATS', async () => {
    const ownerId = randomUUID();
    await withLogs(shareFormatsJourney(base, ownerId, await tokenFor(dataDir, ownerId)), [gateway, summary]);
  });

  it('gives a patient a signed wallet pass (kept in S3) whose link revocation reaches the PassKit web service over NATS', async () => {
    await withLogs(walletJourney(base, smtpMailbox, dataDir), [gateway, summary, wallet]);
  });

  it('connects a hospital (the local SMART sandbox) over NATS: directory, PKCE, the callback, the list and disconnecting', async () => {
    const [patient, other] = [await tokenFor(dataDir, randomUUID()), await tokenFor(dataDir, randomUUID())];
    await withLogs(connectionsJourney(base, smart.sandbox, patient, other), [gateway, connections]);
  });

  it("receives a clinic's SMART Health Link over NATS: connections decrypts it, documents stores it, the summary cites it", async () => {
    const [patient, other] = [await tokenFor(dataDir, randomUUID()), await tokenFor(dataDir, randomUUID())];
    await withLogs(shlReceiveJourney(base, patient, other), [gateway, connections, documents, summary]);
  });

  it('runs the migrate and verify commands', async () => {
    const env = { DATABASE_URL: databaseUrl, NATS_URL: natsUrl, DATA_DIR: dataDir };
    const migrated = await runNode('apps/audit/src/main.js', ['migrate'], env);
    expect(migrated).toMatchObject({ code: 0 });
    expect(migrated.output).toContain('audit: 0 migration(s) applied');
    const verified = await runNode('apps/audit/src/main.js', ['verify'], env);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.output.trim().split('\n').pop()!)).toMatchObject({ intact: true, firstBreak: null });
  });

  it('reports a stopped service in /api/health (503) and answers its routes 503, then recovers', async () => {
    await audit.stop();
    const health = await get<{ status: string; services: Record<string, { status: string }> }>(`${base}/api/health/`);
    expect(health.status).toBe(503);
    expect(health.body.services['audit']?.status).toBe('unavailable');
    const token = await tokenFor(dataDir, 'patient-y');
    expect(await get(`${base}/api/history/`, token)).toMatchObject({ status: 503, body: { code: 'UNAVAILABLE' } });
    audit = startAudit();
    await waitFor('recovery', async () => ((await get(`${base}/api/health/`)).status === 200 ? true : undefined));
  });
});
