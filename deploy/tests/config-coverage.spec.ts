// The chart knows every setting of every service: each variable an application's config class
// declares (apps/<app>/src/config.ts and what it extends in libs/config) is either set by the chart
// from a documented value, read from the application Secret through secretEnv and named in the
// comment above that app's secretEnv in values.yaml, or listed below with the reason the chart leaves
// it out. A setting added to a config class without any of these fails here, so the chart cannot
// fall behind the code again.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type YAMLMap } from 'yaml';
import { configVariables } from './src/app-config';
import { ALL_APPS_ON, APPS, RELEASE, chartDir, named, render, renderError } from './src/helm';
import { repoRoot } from './src/tools';
import type { Deployment } from './src/types';

/** Variables the chart deliberately does not set, and why. */
const NOT_IN_CHART: Record<string, string> = {
  DATA_DIR: 'embedded mode keeps its data (PGlite, event logs) there; service mode keeps no local state',
  EVENT_LOG_RETENTION_DAYS:
    "prunes embedded mode's one-process event logs under DATA_DIR; in Kubernetes JetStream keeps the events",
  STORAGE_DIR:
    "files on local disk, for one machine; the chart stores objects in S3 (the pods' root filesystem is read-only)",
  STORAGE_ENCRYPTION_KEYS:
    "encrypts STORAGE_DIR; with S3 the bucket's server-side encryption applies (global.s3.serverSideEncryption)",
  HOST: 'the containers listen on every interface, the default',
  WEB_ROOT: 'the gateway image carries the web app where the default looks for it',
  SUMMARY_SPOOL_DIR: "the default, the system temporary directory, is the pod's /tmp emptyDir (defaults.tmpSizeLimit)",
  CLAMD_SOCKET:
    'a unix socket needs clamd in the pod; the chart runs none and reaches clamd over TCP (documents.clamd.url)',
  GOOGLE_AUTHORIZATION_URL: "Google's own endpoint is the default; tests point it at a stand-in (env can override)",
  GOOGLE_JWKS_URL: "Google's own endpoint is the default; tests point it at a stand-in (env can override)",
  GOOGLE_USERINFO_URL: "Google's own endpoint is the default; tests point it at a stand-in (env can override)",
  GOOGLE_TOKENINFO_URL: "Google's own endpoint is the default; tests point it at a stand-in (env can override)",
  STRIPE_API_BASE: "Stripe's own API is the default; tests point it at stripe-mock (env can override)",
  APNS_CA: "trusts a test APNs stand-in's certificate; Apple's is trusted by default (env can override)",
  SMART_ALLOW_LOOPBACK_HTTP:
    "http:// EHRs on the pod's own loopback, for the local SMART sandbox in tests; every real EHR is https (env can override)",
};

/** Every optional value set, so that each variable the chart can render is rendered. */
const EVERYTHING = [
  ...ALL_APPS_ON,
  'global.s3.endpoint=https://s3.example.com',
  'gateway.redis.existingSecret=medfolio-redis',
  'gateway.corsOrigins=https://app.example.com',
  'gateway.googleWebClientId=web-client',
  'gateway.stripePublishableKey=pk_live_abc',
  'audit.dbRole=audit_writer',
  'identity.google.clientIds=client-one',
  'documents.clamd.url=tcp://clamd:3310',
  'wallet.pass.typeId=pass.com.example.card',
  'wallet.pass.teamId=ABCDE12345',
  'wallet.webServiceUrl=https://medfolio.example.com/api/passkit/',
  'wallet.apns.keyId=ABCDE12345',
  'wallet.apns.teamId=ABCDE12345',
  'connections.endpoints.configMap=medfolio-fhir-endpoints',
  'connections.clientRegistrations.configMap=medfolio-smart-clients',
  'connections.smart.redirectUrl=https://medfolio.example.com/connections/callback',
];
/** An issuer id is digits: --set would read it as a number, the schema wants the string. */
const EVERYTHING_JSON = ['wallet.googleWallet.issuerId="3388000000012345678"'];

/** The variables named in the comment above <app>.secretEnv in values.yaml, and those it lists. */
function documentedSecrets(app: string): Set<string> {
  const doc = parseDocument(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8'));
  const block = doc.get(app);
  const names = new Set<string>();
  if (!isMap(block)) return names;
  for (const pair of (block as YAMLMap).items) {
    if (!isScalar(pair.key) || pair.key.value !== 'secretEnv') continue;
    for (const [name] of (pair.key.commentBefore ?? '').matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)) names.add(name);
    if (isSeq(pair.value)) for (const item of pair.value.items) if (isScalar(item)) names.add(String(item.value));
  }
  return names;
}

/** The variables a config file of the application or of libs/config declares with { sensitive: true }. */
function sensitiveVariables(app: string): string[] {
  const files = [
    `apps/${app}/src/config.ts`,
    ...readdirSync(path.join(repoRoot, 'libs/config/src')).map((f) => `libs/config/src/${f}`),
  ];
  const names = new Set<string>();
  for (const file of files.filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))) {
    const source = readFileSync(path.join(repoRoot, file), 'utf8');
    for (const [, name = ''] of source.matchAll(/@Env\(\s*'([A-Z0-9_]+)',\s*\{[^}]*\bsensitive:\s*true/g))
      names.add(name);
  }
  const declared = configVariables(app) ?? new Set<string>();
  return [...names].filter((name) => declared.has(name));
}

/** Credentials the chart itself reads from the Secrets named in global (or gateway.redis). */
const CHART_MANAGED_SECRETS = [
  'DATABASE_URL',
  'NATS_URL',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'REDIS_URL',
  'INTERNAL_API_TOKEN',
];

describe('the chart knows every setting of every service', () => {
  const objects = render({ set: EVERYTHING, setJson: EVERYTHING_JSON });

  it.each(APPS)(
    '%s: each variable its config declares is set by the chart, read through secretEnv, or left out for a stated reason',
    (app) => {
      const declared = configVariables(app);
      if (!declared) return; // a service whose code has not landed yet
      const deployment = named<Deployment>(objects, 'Deployment', `${RELEASE}-${app}`);
      const rendered = new Set(
        (deployment.spec!.template.spec!.containers[0]!.env ?? []).map((variable) => variable.name),
      );
      const secrets = documentedSecrets(app);
      const unknown = [...declared].filter(
        (name) => !rendered.has(name) && !secrets.has(name) && !(name in NOT_IN_CHART),
      );
      expect([app, unknown]).toEqual([app, []]);
    },
  );

  it.each(APPS)('%s: refuses each secret its config declares as a plain value in env', (app) => {
    const secrets = sensitiveVariables(app).filter((name) => !CHART_MANAGED_SECRETS.includes(name));
    for (const name of secrets) {
      const error = renderError({ set: [...ALL_APPS_ON, `${app}.env.${name}=plain`] });
      expect([name, error]).toEqual([name, expect.stringContaining(`${app}.env.${name}: ${name} is a secret`)]);
    }
  });

  it('finds the secrets the config classes declare (the check above is not vacuous)', () => {
    expect(sensitiveVariables('wallet')).toEqual(expect.arrayContaining(['APNS_KEY', 'WALLET_SIGNER_KEY']));
    expect(sensitiveVariables('identity')).toEqual(expect.arrayContaining(['OIDC_PROVIDERS', 'JWT_SIGNING_KEYS']));
  });

  it('gives a reason only for variables some service still declares', () => {
    const declared = new Set(APPS.flatMap((app) => [...(configVariables(app) ?? [])]));
    expect(Object.keys(NOT_IN_CHART).filter((name) => !declared.has(name))).toEqual([]);
  });

  it('fails for a setting the chart does not know (the check is not vacuous)', () => {
    // The wallet's APNs key id is rendered only when set: with it unset, the check must miss it.
    const bare = render({ set: ALL_APPS_ON });
    const wallet = named<Deployment>(bare, 'Deployment', `${RELEASE}-wallet`);
    const names = new Set((wallet.spec!.template.spec!.containers[0]!.env ?? []).map((variable) => variable.name));
    expect(names.has('APNS_KEY_ID')).toBe(false);
    expect(configVariables('wallet')!.has('APNS_KEY_ID')).toBe(true);
  });
});

// docker/compose.yaml sets only what differs from the defaults for most services; for connections,
// whose settings an operator must choose (the EHRs' client id, the directory, the redirect URI),
// every variable is in its environment, each `${NAME:-default}` from docker/.env, so that none is
// forgotten when the config class grows.
/** Applications whose compose environment names every variable their config declares. */
const COMPOSE_COMPLETE = ['connections'];
/** Variables compose leaves out for every application, and why. */
const NOT_IN_COMPOSE: Record<string, string> = {
  DATA_DIR: 'embedded mode only; service mode keeps no local state',
  EVENT_LOG_RETENTION_DAYS: "embedded mode's event logs only; in compose JetStream keeps the events",
  HOST: 'the containers listen on every interface, the default',
  DATABASE_POOL_SIZE: 'the default (5) fits one replica of each service',
  HOUSEKEEPING_INTERVAL_MINUTES: 'the defaults of every service with a database',
  OUTBOX_RETENTION_DAYS: 'the defaults of every service with a database',
  PROCESSED_MESSAGES_RETENTION_DAYS: 'the defaults of every service with a database',
  RPC_TIMEOUT_MS: 'the default request/reply time-out of every service',
  GC_MARKING_TRIGGERS: "V8's triggers, the same default for every service",
  SMART_ALLOW_LOOPBACK_HTTP: NOT_IN_CHART['SMART_ALLOW_LOOPBACK_HTTP']!,
};

describe('docker/compose.yaml knows every setting of connections', () => {
  const compose = parseDocument(readFileSync(path.join(repoRoot, 'docker', 'compose.yaml'), 'utf8'), {
    merge: true,
  }).toJS() as { services: Record<string, { environment?: Record<string, string> }> };

  it.each(COMPOSE_COMPLETE)('%s and %s-migrate: each variable its config declares is in the environment', (app) => {
    const declared = configVariables(app);
    expect(declared?.size).toBeGreaterThan(10);
    for (const service of [app, `${app}-migrate`]) {
      const environment = compose.services[service]?.environment ?? {};
      const missing = [...declared!].filter((name) => !(name in environment) && !(name in NOT_IN_COMPOSE));
      expect([service, missing]).toEqual([service, []]);
    }
  });

  it('gives a reason only for variables connections declares', () => {
    const declared = configVariables('connections')!;
    expect(Object.keys(NOT_IN_COMPOSE).filter((name) => !declared.has(name))).toEqual([]);
  });
});
