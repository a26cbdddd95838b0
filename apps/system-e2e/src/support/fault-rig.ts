import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startSmtpSink, type SmtpSink } from '@medfolio/testing';
import { get } from './api';
import { call } from './journey';
import { startNode, waitFor, type Running } from './processes';

/**
 * The multi-process shape on infrastructure the test owns, so it can stop and restart it:
 * its own nats-server (JetStream, a temporary store) and its own PostgreSQL cluster (initdb in a
 * temporary directory), on loopback ports from `portBase` on. Never the machine's shared ones.
 */

export const NATS_BIN = process.env['FAULT_NATS_SERVER'] ?? '/usr/sbin/nats-server';

/** The newest PostgreSQL server binaries installed (Debian's layout), or FAULT_PG_BIN. */
export function postgresBin(): string {
  if (process.env['FAULT_PG_BIN']) return process.env['FAULT_PG_BIN'];
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0]) throw new Error('No PostgreSQL server binaries under /usr/lib/postgresql (set FAULT_PG_BIN)');
  return path.join(root, versions[0], 'bin');
}

/** initdb refuses to run as root: as root, the cluster belongs to the `postgres` user and its tools run as it. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]];
}

function runOrThrow(command: string, args: string[], what: string): void {
  const [cmd, argv] = asPostgres(command, args);
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${what} failed: ${result.stderr || result.stdout}`);
}

export class OwnNats {
  private child?: ChildProcess;
  readonly url: string;

  constructor(
    readonly port: number,
    private readonly storeDir: string,
  ) {
    this.url = `nats://127.0.0.1:${port}`;
  }

  async start(): Promise<void> {
    const child = spawn(NATS_BIN, ['-js', '-sd', this.storeDir, '-a', '127.0.0.1', '-p', String(this.port)], { stdio: 'ignore' });
    this.child = child;
    await waitFor('nats-server', async () => {
      if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}`);
      return (await tcpOpen(this.port)) ? true : undefined;
    }, 15_000);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }
}

export class OwnPostgres {
  readonly dir: string;
  readonly adminUrl: string;
  private readonly bin = postgresBin();

  constructor(readonly port: number) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'medfolio-fault-pg-'));
    this.adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  }

  init(): void {
    if (process.getuid?.() === 0) chownSync(this.dir, uidOf('postgres'), gidOf('postgres'));
    runOrThrow(path.join(this.bin, 'initdb'), ['-D', path.join(this.dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'], 'initdb');
  }

  start(): void {
    runOrThrow(
      path.join(this.bin, 'pg_ctl'),
      ['-D', path.join(this.dir, 'data'), '-l', path.join(this.dir, 'log'), '-w', '-t', '30', '-o', `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`, 'start'],
      'pg_ctl start',
    );
  }

  /** `fast`: clients are disconnected, a clean shutdown; `immediate`: like a crash (recovery on start). */
  stop(mode: 'fast' | 'immediate' = 'fast'): void {
    runOrThrow(path.join(this.bin, 'pg_ctl'), ['-D', path.join(this.dir, 'data'), '-m', mode, '-w', 'stop'], 'pg_ctl stop');
  }

  get pid(): number | undefined {
    try {
      return Number(readFileSync(path.join(this.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return undefined;
    }
  }

  destroy(): void {
    try {
      this.stop('immediate');
    } catch {
      // not running
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async query<T = Record<string, unknown>>(database: string, sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.url(database) });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }
}

function idOf(flag: '-u' | '-g', name: string): number {
  const result = spawnSync('id', [flag, name], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`no user ${name}`);
  return Number(result.stdout.trim());
}
const uidOf = (name: string) => idOf('-u', name);
const gidOf = (name: string) => idOf('-g', name);

async function tcpOpen(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export const SERVICES = ['audit', 'identity', 'notifications', 'documents', 'summary', 'wallet', 'billing', 'connections'] as const;
export type FaultService = (typeof SERVICES)[number] | 'gateway';

/** Every service and the gateway as separate processes (filesystem store, shared DATA_DIR), restartable one by one. */
export class Product {
  readonly processes = new Map<FaultService, Running>();
  readonly ports: Record<FaultService, number>;
  readonly dataDir: string;
  readonly database = 'medfolio';
  readonly base: string;
  smtp!: SmtpSink;
  /** Extra environment for one service (the disk-full test points documents at a small disk). */
  readonly overrides: Partial<Record<FaultService, Record<string, string>>> = {};
  /** A command to start one service under (prlimit, when the disk-full test cannot mount). */
  readonly wrappers: Partial<Record<FaultService, string[]>> = {};
  private readonly internalToken = randomBytes(32).toString('base64url');
  private readonly identitySecret = randomBytes(32).toString('base64');
  private readonly shareLinkKey = randomBytes(32).toString('base64');
  private readonly connectionsTokenKey = randomBytes(32).toString('base64');
  private readonly storageKeys = { STORAGE_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, STORAGE_URL_SIGNING_KEY: randomBytes(32).toString('base64url') };

  constructor(
    readonly nats: OwnNats,
    readonly pg: OwnPostgres,
    portBase: number,
  ) {
    this.dataDir = mkdtempSync(path.join(tmpdir(), 'medfolio-fault-data-'));
    const names: FaultService[] = ['gateway', ...SERVICES];
    this.ports = Object.fromEntries(names.map((name, i) => [name, portBase + i])) as Record<FaultService, number>;
    this.base = `http://127.0.0.1:${this.ports.gateway}`;
  }

  /** The file store every process shares (documents writes it, the gateway serves downloads from it). */
  get storeDir(): string {
    return path.join(this.dataDir, 'files');
  }

  private envFor(name: FaultService): Record<string, string> {
    // Service mode starts only with every secret given: the file store's keys are shared by every process.
    const common = { MEDFOLIO_MODE: 'service', NATS_URL: this.nats.url, DATA_DIR: this.dataDir, HOST: '127.0.0.1', PORT: String(this.ports[name]), STORAGE_DIR: this.storeDir, ...this.storageKeys };
    const url = (service: FaultService) => `http://127.0.0.1:${this.ports[service]}`;
    const db = { DATABASE_URL: this.pg.url(this.database) };
    const byName: Record<FaultService, Record<string, string>> = {
      gateway: {
        JWT_JWKS_URL: `${url('identity')}/.well-known/jwks.json`,
        IDENTITY_INTERNAL_URL: url('identity'),
        DOCUMENTS_INTERNAL_URL: url('documents'),
        WALLET_INTERNAL_URL: url('wallet'),
        INTERNAL_API_TOKEN: this.internalToken,
        RATE_LIMIT_PER_MINUTE: '1000000',
      },
      audit: db,
      identity: { ...db, INTERNAL_API_TOKEN: this.internalToken, IDENTITY_SECRET: this.identitySecret, REFRESH_REUSE_GRACE_SECONDS: '0' },
      notifications: { ...db, SMTP_URL: `smtp://127.0.0.1:${this.smtp.port}`, NOTIFICATIONS_ENCRYPTION_KEY: NOTIFICATIONS_KEY },
      documents: { ...db, INTERNAL_API_TOKEN: this.internalToken, DOCUMENT_QUOTA_FREE: '100000' },
      summary: { ...db, INTERNAL_API_TOKEN: this.internalToken, SHARE_LINK_KEY: this.shareLinkKey, DOCUMENTS_INTERNAL_URL: url('documents'), SUMMARY_REBUILD_DELAY_MS: '500' },
      // wallet keeps its signed passes in the same file store; billing runs without a Stripe key (Free plan).
      wallet: { ...db, INTERNAL_API_TOKEN: this.internalToken, PUBLIC_BASE_URL: this.base },
      billing: db,
      // connections on the sample directory (nothing here connects a hospital).
      connections: { ...db, CONNECTIONS_TOKEN_KEY: this.connectionsTokenKey, INTERNAL_API_TOKEN: this.internalToken, DOCUMENTS_INTERNAL_URL: url('documents') },
    };
    return { ...common, ...byName[name], ...(this.overrides[name] ?? {}) };
  }

  async createDatabase(): Promise<void> {
    await this.pg.query('postgres', `CREATE DATABASE ${this.database}`);
  }

  async start(): Promise<void> {
    this.smtp = await startSmtpSink();
    for (const name of SERVICES) this.launch(name);
    for (const name of SERVICES) await this.waitReady(name);
    this.launch('gateway');
    await this.waitReady('gateway');
  }

  launch(name: FaultService): Running {
    const entry = `apps/${name}/src/main.js`;
    const running = startNode(entry, [], this.envFor(name), this.wrappers[name]);
    this.processes.set(name, running);
    return running;
  }

  async waitReady(name: FaultService, timeoutMs = 180_000): Promise<void> {
    const url = name === 'gateway' ? `${this.base}/api/health/` : `http://127.0.0.1:${this.ports[name]}/health/ready`;
    let portRetries = 3;
    await waitFor(`${name} readiness`, async () => {
      const running = this.processes.get(name);
      if (running && running.child.exitCode !== null) {
        // The default ports lie below the kernel's ephemeral range; one set inside it (FAULT_PORT_BASE) may be held by an outgoing connection.
        if (/EADDRINUSE/.test(running.output()) && portRetries-- > 0) {
          await new Promise((r) => setTimeout(r, 1000));
          this.launch(name);
          return undefined;
        }
        throw new Error(`${name} exited: ${running.output().slice(-2000)}`);
      }
      return (await get(url)).status === 200 ? true : undefined;
    }, timeoutMs);
  }

  /** SIGKILL, then start it again at once; resolves when it is ready. */
  async killAndRestart(name: FaultService): Promise<void> {
    await this.processes.get(name)?.stop('SIGKILL');
    this.launch(name);
    await this.waitReady(name);
  }

  pid(name: FaultService): number | undefined {
    return this.processes.get(name)?.child.pid;
  }

  logs(): string {
    return [...this.processes].map(([name, p]) => `--- ${name}\n${p.output().slice(-3000)}`).join('\n');
  }

  async stop(): Promise<void> {
    await this.processes.get('gateway')?.stop();
    await Promise.all(SERVICES.map((name) => this.processes.get(name)?.stop()));
    await this.smtp?.close().catch(() => undefined);
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** A registered, verified patient (the sign-up journey over HTTP, the code from the SMTP sink). */
  async registerPatient(): Promise<Patient> {
    const email = `fault-${randomUUID().slice(0, 8)}@example.com`;
    const password = 'correct horse battery';
    const registered = await call(this.base, 'POST', '/api/register/', { first_name: 'Ana', last_name: 'Test', phone: '+1 202 555 0143', email, password, date_of_birth: '1990-04-01' });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
    const code = await waitFor('the verification code', async () => {
      const mail = this.smtp.received.find((m) => m.recipients.includes(email));
      return mail ? /\b(\d{4})\b/.exec(mail.text)?.[1] : undefined;
    });
    const verified = await call<{ access: string }>(this.base, 'POST', '/api/verify-otp/', { email, otp: code });
    if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);
    const login = await call<{ access: string }>(this.base, 'POST', '/api/login/', { email, password });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
    return { email, password, access: login.body.access };
  }
}

const NOTIFICATIONS_KEY = randomBytes(32).toString('base64');

export interface Patient {
  email: string;
  password: string;
  access: string;
}

export interface Rig {
  nats: OwnNats;
  pg: OwnPostgres;
  product: Product;
  natsStore: string;
}

/** Whether nothing listens on 127.0.0.1:`port` (a listen there succeeds). */
async function portFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The first block of `count` free loopback ports at `preferred`, or 50 further on, and so on: two
 * rigs on one machine (the faults suite and the soak, or a second checkout's run) never share a port.
 */
export async function freePortBlock(preferred: number, count: number): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const base = preferred + attempt * 50;
    let free = true;
    for (let port = base; port < base + count && free; port += 1) free = await portFree(port);
    if (free) return base;
  }
  throw new Error(`No ${count} free loopback ports in a row from ${preferred}: set the suite's *_PORT_BASE`);
}

/**
 * Sets up NATS, PostgreSQL and the product on ports from `portBase` (NATS, PostgreSQL, then the
 * gateway and each service), or from the next free block after it when one of those ports is taken.
 * `overrides`: extra environment per process (the soak's heap-snapshot option). If any step fails,
 * what was started is stopped again before the error is thrown.
 */
export async function startRig(preferredBase: number, overrides: Product['overrides'] = {}): Promise<Rig> {
  const portBase = await freePortBlock(preferredBase, 3 + SERVICES.length);
  const natsStore = mkdtempSync(path.join(tmpdir(), 'medfolio-fault-nats-'));
  const nats = new OwnNats(portBase, natsStore);
  const pg = new OwnPostgres(portBase + 1);
  const product = new Product(nats, pg, portBase + 2);
  Object.assign(product.overrides, overrides);
  const rig = { nats, pg, product, natsStore };
  starting.add(rig);
  try {
    pg.init();
    pg.start();
    await nats.start();
    mkdirSync(product.storeDir, { recursive: true });
    await product.createDatabase();
    await product.start();
    return rig;
  } catch (error) {
    await stopRig(rig);
    throw error;
  }
}

/** Rigs started in this process: stopRig(undefined) stops them all (a start that outlived its hook's time-out). */
const starting = new Set<Rig>();

export async function stopRig(given: Rig | undefined): Promise<void> {
  for (const rig of given ? [given] : [...starting]) {
    starting.delete(rig);
    await rig.product.stop().catch(() => undefined);
    await rig.nats.stop().catch(() => undefined);
    rig.pg.destroy();
    rmSync(rig.natsStore, { recursive: true, force: true });
  }
}
