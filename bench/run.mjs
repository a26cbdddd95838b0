// Benchmarks of the audited read path: figures as ratios against references measured in the same run.
//
//   npm run build && npm run bench      BENCH_SECONDS=10 (per measurement)  BENCH_ROUNDS=1
//                                       BENCH_MODES=multi,one   BENCH_CPU_PROF=<dir> (profiles of the product's processes)
//
// Targets, each loaded by autocannon with 64 connections for BENCH_SECONDS after a 2 s warm-up:
//   hello       a bare Fastify hello-world in its own process: shown (it swings with the machine's load), not aimed at
//   reference   bench/reference-server.mjs: ONE Fastify process that verifies the same ES256 token, runs the same
//               query on the same PostgreSQL and inserts an audit row (the goal is measured against it)
//   multi       Medfolio in the multi-process shape: gateway, audit and documents each in its own process, NATS
//               JetStream between them; every request audited (a JetStream publish acked before the answer)
//   one         Medfolio's one-process mode (apps/medfolio: every service in one process, in-process bus) on the
//               same PostgreSQL
// Routes: GET /api/history/ (the patient's access history, page 1) and GET /api/upload/ (the documents list of a
// user with 25 documents, each with a signed thumbnail link). The NATS server is a private one this script
// starts (nats-server on PATH; else NATS_URL), so other users of a shared server neither see nor disturb it.
// Results also go to bench/results/<date>.json.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { deployedNodeFlags, freePort, root } from './lib.mjs';

const require = createRequire(import.meta.url);
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const modes = (process.env.BENCH_MODES ?? 'multi,one').split(',');
const profileDir = process.env.BENCH_CPU_PROF;
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DOCUMENTS = 25;
const routes = (process.env.BENCH_ROUTES ?? '/api/history/,/api/upload/').split(',');

const children = [];
function start(args, env, { node = true } = {}) {
  const flags = node && profileDir && env.PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, env.PROFILE)}`] : [];
  // The product's processes run with the flags they are deployed with (bench/lib.mjs).
  if (node && /^dist\/apps\/(?!medfolio\/)/.test(args[0] ?? '')) flags.push(...deployedNodeFlags(args[0]));
  const child = spawn(node ? process.execPath : args.shift(), [...flags, ...args], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  return child;
}

async function waitOk(url, headers = {}) {
  for (let i = 0; i < 480; i += 1) {
    try {
      if ((await fetch(url, { headers })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready: ${url}`);
}

async function load(url, headers = {}) {
  await autocannon({ url, connections, duration: 2, headers }); // warm-up
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return { requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

/** A private NATS JetStream server (or NATS_URL when nats-server is not installed). */
async function startNats(work) {
  const port = await freePort();
  const child = start(['nats-server', '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', path.join(work, 'nats')], {}, { node: false });
  const failed = new Promise((resolve) => child.once('error', () => resolve(false)));
  for (let i = 0; i < 40; i += 1) {
    const up = await Promise.race([
      failed,
      new Promise((resolve) => {
        const socket = require('node:net').connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
        socket.on('error', () => resolve(null));
      }),
    ]);
    if (up === true) return `nats://127.0.0.1:${port}`;
    if (up === false) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
}

/** 25 documents (with thumbnails) for the bench user, as the documents service stores them. */
async function seedDocuments(databaseUrl, ownerId) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let i = 0; i < DOCUMENTS; i += 1) {
      const id = randomUUID();
      await client.query(
        `INSERT INTO documents.documents (id, owner_id, filename, kind, content_type, size, sha256, storage_key, thumbnail_key, uploaded_at)
         VALUES ($1, $2, $3, 'jpeg', 'image/jpeg', $4, $5, $6, $7, now() - make_interval(mins => $8))`,
        [id, ownerId, `scan-${i + 1}.jpg`, 100_000 + i, 'a'.repeat(64), `documents/${ownerId}/${id}`, `document-thumbnails/${ownerId}/${id}.webp`, i],
      );
    }
  } finally {
    await client.end();
  }
}

const admin = new pg.Client({ connectionString: adminUrl });
const databases = [];
async function database(name) {
  const db = `medfolio_bench_${name}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${db}`);
  databases.push(db);
  const url = new URL(adminUrl);
  url.pathname = `/${db}`;
  return url.toString();
}

const work = await mkdtemp(path.join(tmpdir(), 'medfolio-bench-'));
// A child ended by a signal keeps exitCode null (its signalCode is set): it counts as stopped.
const running = (child) => child.exitCode === null && child.signalCode === null;
const stopAll = async (list) => {
  for (const child of list) if (running(child)) child.kill('SIGTERM');
  await Promise.all(list.map((child) => (running(child) ? once(child, 'exit') : undefined)));
};
try {
  await admin.connect();
  require('reflect-metadata');
  const { loadOrCreateSigningKeys, signAccessToken } = require(path.join(root, 'dist/libs/security/src/index.js'));
  const results = { seconds, connections, documents: DOCUMENTS, rounds: [] };

  for (let round = 1; round <= rounds; round += 1) {
    const row = { round };
    for (const mode of modes) {
      const dataDir = path.join(work, `data-${mode}-${round}`);
      await mkdir(dataDir, { recursive: true });
      const databaseUrl = await database(mode);
      const userId = randomUUID();
      const token = await signAccessToken((await loadOrCreateSigningKeys(dataDir)).current, { sub: userId, roles: ['patient'], sid: randomUUID() });
      const headers = { authorization: `Bearer ${token}` };
      const started = [];
      const track = (child) => (started.push(child), child);
      const gatewayPort = await freePort();
      const limits = { RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE ?? '10' };
      if (mode === 'multi') {
        const natsUrl = await startNats(work);
        // Service mode needs the file store's keys (the embedded mode makes its own in DATA_DIR).
        const storageKeys = { STORAGE_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`, STORAGE_URL_SIGNING_KEY: randomBytes(32).toString('base64url') };
        const common = { ...limits, ...storageKeys, MEDFOLIO_MODE: 'service', NATS_URL: natsUrl, DATA_DIR: dataDir, INTERNAL_API_TOKEN: randomUUID() };
        const [auditPort, documentsPort] = [await freePort(), await freePort()];
        track(start(['dist/apps/audit/src/main.js'], { ...common, DATABASE_URL: databaseUrl, PORT: String(auditPort), PROFILE: 'audit' }));
        track(start(['dist/apps/documents/src/main.js'], { ...common, DATABASE_URL: databaseUrl, PORT: String(documentsPort), PROFILE: 'documents' }));
        await waitOk(`http://127.0.0.1:${auditPort}/health/ready`);
        await waitOk(`http://127.0.0.1:${documentsPort}/health/ready`);
        track(start(['dist/apps/gateway/src/main.js'], { ...common, PORT: String(gatewayPort), DOCUMENTS_INTERNAL_URL: `http://127.0.0.1:${documentsPort}`, PROFILE: 'gateway' }));
      } else {
        track(start(['dist/apps/medfolio/src/main.js'], { ...limits, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, PORT: String(gatewayPort), HOST: '127.0.0.1', PROFILE: 'one-process' }));
      }
      await waitOk(`http://127.0.0.1:${gatewayPort}/api/history/`, headers);
      await seedDocuments(databaseUrl, userId);
      // The references: hello-world and the single-process reference, on the same database.
      const [helloPort, referencePort] = [await freePort(), await freePort()];
      track(start(['-e', `require('fastify')().get('/', async () => ({ hello: 'world' })).listen({ port: ${helloPort}, host: '127.0.0.1' })`], {}));
      track(start(['bench/reference-server.mjs'], { PORT: String(referencePort), DATABASE_URL: databaseUrl, DATA_DIR: dataDir }));
      await waitOk(`http://127.0.0.1:${helloPort}/`);
      await waitOk(`http://127.0.0.1:${referencePort}/api/upload/`, headers);

      const figures = { hello: await load(`http://127.0.0.1:${helloPort}/`) };
      for (const route of routes) {
        const reference = await load(`http://127.0.0.1:${referencePort}${route}`, headers);
        const product = await load(`http://127.0.0.1:${gatewayPort}${route}`, headers);
        figures[route] = { reference, [mode]: product, ratio: Number((product.requestsPerSecond / reference.requestsPerSecond).toFixed(2)) };
      }
      row[mode] = figures;
      console.log(`round ${round}, ${mode === 'multi' ? 'multi-process' : 'one process'}: hello-world ${figures.hello.requestsPerSecond} req/s, p99 ${figures.hello.p99Ms} ms`);
      for (const route of routes) {
        const { reference, ratio } = figures[route];
        const product = figures[route][mode];
        const line = (name, f) => `  ${route.padEnd(14)} ${name.padEnd(10)} ${String(f.requestsPerSecond).padStart(6)} req/s  p50 ${String(f.p50Ms).padStart(4)} ms  p99 ${String(f.p99Ms).padStart(4)} ms  errors ${f.errors}  non-2xx ${f.non2xx}`;
        console.log(line('reference', reference));
        console.log(`${line(mode, product)}  ratio ${(ratio * 100).toFixed(0)} %`);
      }
      await stopAll(started);
    }
    results.rounds.push(row);
  }
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, JSON.stringify(results, null, 2));
  console.log(`written ${path.relative(root, file)}`);
} finally {
  await stopAll(children);
  for (const db of databases) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}
