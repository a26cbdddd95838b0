import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// The browser tests' Node side (never bundled into the web app) uses the shared Google stand-in.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { FakeGoogle } from '../../../libs/testing/src/fake-google';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { FakeNppes } from '../../../libs/testing/src/fake-nppes';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { LocalOidcProvider } from '../../../libs/testing/src/local-oidc-provider';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { SmartSandbox, sandboxDirectory } from '../../../libs/testing/src/smart-sandbox';
import { baseUrl, chromiumPath, devMailKey, e2ePort } from './support/settings';

const root = path.resolve(__dirname, '../../..');

/**
 * Starts the product as `npm start` does (dist/apps/medfolio, built by run.mjs) on embedded
 * defaults in a fresh data directory, with Google sign-in pointed at a local stand-in, and waits
 * until it is ready. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(chromiumPath)) throw new Error(`Chromium not found at ${chromiumPath}: run npm run tools:install (it installs Debian's chromium) or set CHROMIUM_PATH.`);
  const main = path.join(root, 'dist/apps/medfolio/src/main.js');
  if (!existsSync(main)) throw new Error('dist/ is missing: run `node libs/tooling/build.mjs` first (apps/web/e2e/run.mjs does).');
  const google = await FakeGoogle.start();
  // Identity's licence checks go to the NPPES stand-in (providers.pw.ts).
  const nppes = await FakeNppes.start();
  // "Continue with Microsoft" and "Continue with Apple" go to a real local OpenID provider (oidc.pw.ts):
  // Microsoft answers in the query, Apple by form POST to the gateway (response_mode form_post).
  const oidc = await LocalOidcProvider.start({
    clients: [
      { client_id: 'medfolio-e2e', client_secret: 'e2e-only-client-secret', redirect_uris: [`${baseUrl}/auth/oidc/microsoft/callback`] },
      { client_id: 'medfolio-e2e-apple', client_secret: 'e2e-only-client-secret-2', redirect_uris: [`${baseUrl}/api/login-with-oidc/apple/callback/`] },
    ],
    accounts: { default: { email: 'oidc-e2e@example.com', email_verified: true, given_name: 'Mira', family_name: 'Okafor' } },
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'medfolio-web-e2e-'));
  // "Connect a hospital or clinic" (connections.pw.ts): the directory names one hospital, a local SMART
  // on FHIR sandbox over loopback http that approves its sign-in at once and redirects to the web app.
  const smart = await SmartSandbox.start({ clients: [{ client_id: 'medfolio-e2e', redirect_uris: [`${baseUrl}/connections/callback`] }] });
  // The sandbox patient's chart at the hospital (besides @medplum/mock's Patient): a condition and an
  // allergy, which the connections test then finds in the summary, cited to the hospital.
  await smart.fhir.add({
    resourceType: 'Condition',
    subject: { reference: 'Patient/123' },
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { coding: [{ system: 'http://snomed.info/sct', code: '195967001', display: 'Asthma' }], text: 'Asthma' },
    onsetDateTime: '2019-04-02',
  });
  await smart.fhir.add({
    resourceType: 'AllergyIntolerance',
    patient: { reference: 'Patient/123' },
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
    code: { text: 'Penicillin' },
    reaction: [{ manifestation: [{ text: 'Hives' }] }],
  });
  const directory = path.join(dataDir, 'smart-endpoints.json');
  writeFileSync(directory, JSON.stringify(sandboxDirectory(smart, 'local-sandbox', 'Springfield Sandbox Hospital')));
  const settings = google.settings();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Embedded defaults: the browser tests run the product as a new user would.
  for (const name of ['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'SMTP_URL', 'S3_ENDPOINT', 'S3_BUCKET', 'JWT_JWKS_URL']) delete env[name];
  Object.assign(env, {
    PORT: String(e2ePort),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    PUBLIC_BASE_URL: baseUrl,
    RATE_LIMIT_PER_MINUTE: '100000',
    GOOGLE_CLIENT_IDS: google.clientId,
    GOOGLE_JWKS_URL: settings.jwksUrl,
    GOOGLE_USERINFO_URL: settings.userinfoUrl,
    GOOGLE_TOKENINFO_URL: settings.tokeninfoUrl,
    GOOGLE_AUTHORIZATION_URL: google.authorizationUrl,
    NPI_REGISTRY_URL: nppes.url,
    OIDC_PROVIDERS: JSON.stringify([
      { name: 'microsoft', label: 'Microsoft', issuer: oidc.issuer, client_id: 'medfolio-e2e', client_secret: 'e2e-only-client-secret' },
      { name: 'apple', label: 'Apple', issuer: oidc.issuer, client_id: 'medfolio-e2e-apple', client_secret: 'e2e-only-client-secret-2', response_mode: 'form_post' },
    ]),
    DEV_MAIL_KEY: devMailKey,
    FHIR_ENDPOINTS_FILE: directory,
    SMART_ALLOW_LOOPBACK_HTTP: 'true',
    SMART_DEFAULT_CLIENT_ID: 'medfolio-e2e',
  });
  const server: ChildProcess = spawn(process.execPath, [main], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));

  const deadline = Date.now() + 90_000;
  for (;;) {
    const ready = await fetch(`${baseUrl}/api/health/`).then((r) => r.ok, () => false);
    if (ready) break;
    if (server.exitCode !== null || Date.now() > deadline) {
      server.kill('SIGKILL');
      await google.stop();
      await nppes.stop();
      await oidc.stop();
      await smart.stop();
      throw new Error(`The product did not start for the browser tests:\n${output.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return async () => {
    server.kill('SIGTERM');
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 10_000))]);
    if (code === 'timeout') server.kill('SIGKILL');
    await google.stop();
    await nppes.stop();
    await oidc.stop();
    await smart.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
