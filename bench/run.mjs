// Benchmarks: figures as ratios against a baseline measured in the same run, on the same machine.
//
//   npm run bench            (needs `npm run build` first; PostgreSQL and NATS from DATABASE_URL / NATS_URL)
//
// history: authenticated GET /api/history/ through gateway -> NATS -> audit -> PostgreSQL, each in its
// own process (the Kubernetes shape). Every request is also audited (a JetStream publish acked
// before the answer), so this measures the real fail-closed path.
// baseline: a bare Fastify "hello world" in its own process.
// Both: autocannon, 64 connections, after a warm-up. Results also go to bench/results/<date>.json.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 64;

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  return port;
}

function start(args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, LOG_LEVEL: 'error', ...env }, stdio: ['ignore', 'inherit', 'inherit'] });
  return child;
}

async function waitOk(url, headers = {}) {
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready: ${url}`);
}

async function load(name, url, headers = {}) {
  await autocannon({ url, connections, duration: 2, headers }); // warm-up
  const result = await autocannon({ url, connections, duration: seconds, headers });
  const figures = { name, requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
  console.log(`${name.padEnd(10)} ${figures.requestsPerSecond.toFixed(0).padStart(7)} req/s   p99 ${String(figures.p99Ms).padStart(5)} ms   errors ${figures.errors}   non-2xx ${figures.non2xx}`);
  return figures;
}

const children = [];
const database = `medfolio_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: adminUrl });
try {
  // Baseline.
  const basePort = await freePort();
  children.push(start(['-e', `require('fastify')().get('/', async () => ({ hello: 'world' })).listen({ port: ${basePort}, host: '127.0.0.1' })`], {}));
  await waitOk(`http://127.0.0.1:${basePort}/`);

  // Medfolio, one process per service.
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-bench-'));
  const auditPort = await freePort();
  const gatewayPort = await freePort();
  const common = { MEDFOLIO_MODE: 'service', NATS_URL: natsUrl, DATA_DIR: dataDir, DATABASE_POOL_SIZE: '10' };
  children.push(start(['dist/apps/audit/src/main.js'], { ...common, DATABASE_URL: url.toString(), PORT: String(auditPort) }));
  children.push(start(['dist/apps/gateway/src/main.js'], { ...common, PORT: String(gatewayPort), RATE_LIMIT_PER_MINUTE: '100000000' }));
  const { createRequire } = await import('node:module');
  const { loadOrCreateSigningKeys, signAccessToken } = createRequire(import.meta.url)(path.join(root, 'dist/libs/security/src/index.js'));
  const token = await signAccessToken((await loadOrCreateSigningKeys(dataDir)).current, { sub: 'bench-patient', roles: ['patient'], sid: randomUUID() });
  const headers = { authorization: `Bearer ${token}` };
  await waitOk(`http://127.0.0.1:${gatewayPort}/api/history/`, headers);

  const baseline = await load('baseline', `http://127.0.0.1:${basePort}/`);
  const history = await load('history', `http://127.0.0.1:${gatewayPort}/api/history/`, headers);
  const ratio = {
    throughput: history.requestsPerSecond / baseline.requestsPerSecond,
    p99: history.p99Ms / Math.max(baseline.p99Ms, 1),
  };
  console.log(`\nhistory / baseline: throughput ${(ratio.throughput * 100).toFixed(1)} %, p99 latency x${ratio.p99.toFixed(1)}`);
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify({ seconds, connections, baseline, history, ratio }, null, 2));
  console.log(`written ${path.relative(root, file)}`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
}
