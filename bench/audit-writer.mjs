// Audit writer benchmark: how fast the audit service drains a burst of records from the AUDIT stream
// into its hash-chained log, and whether the backlog gets back to zero.
//
//   npm run build && npm run bench:audit-writer      BENCH_RECORDS=50000   BENCH_PUBLISHERS=256 (publishes in flight)
//                                                    BENCH_CPU_PROF=<dir> (a CPU profile of the audit process)
//
// A private NATS JetStream server (nats-server on PATH) with a fresh AUDIT stream, a fresh database,
// the audit service in its own process (the multi-process shape). The burst is published as fast as
// the server acknowledges it while the writer runs; the backlog (the writer's pending plus unacked
// messages) is sampled every 250 ms until it is zero. Reported: the publish rate, the writer's
// sustained rate (records / time from the first publish to zero backlog, and the rate in the
// middle of the drain), the audit process's CPU seconds, and `verify` over the whole chain.
// Results also go to bench/results/audit-writer-<date>.json.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cpuSeconds, freePort, root } from './lib.mjs';

const require = createRequire(import.meta.url);
const { connect } = require('@nats-io/transport-node');
const { jetstream, jetstreamManager } = require('@nats-io/jetstream');
const { headers: natsHeaders } = require('@nats-io/nats-core');
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const records = Number(process.env.BENCH_RECORDS ?? 50_000);
const publishers = Number(process.env.BENCH_PUBLISHERS ?? 256);

async function waitPort(port) {
  for (let i = 0; i < 80; i += 1) {
    const up = await new Promise((resolve) => {
      const socket = netConnect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
      socket.on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`nothing listens on ${port}`);
}

async function waitOk(url) {
  for (let i = 0; i < 480; i += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not ready: ${url}`);
}

/** A record as AuditRecorder publishes it (identifiers only). */
function record(i) {
  const patient = `bench-patient-${i % 100}`;
  return {
    id: randomUUID(),
    occurredAt: new Date().toISOString(),
    service: 'documents',
    actor: patient,
    correlationId: randomUUID(),
    ip: '127.0.0.1',
    userAgent: 'bench/audit-writer',
    action: 'document.list',
    entityType: 'document',
    patientId: patient,
    outcome: 'success',
    policy: 'owner',
  };
}

const work = await mkdtemp(path.join(tmpdir(), 'medfolio-bench-audit-'));
const children = [];
const admin = new pg.Client({ connectionString: adminUrl });
const database = `medfolio_bench_audit_${Date.now()}`;
let nc;
try {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const natsPort = await freePort();
  children.push(spawn('nats-server', ['-a', '127.0.0.1', '-p', String(natsPort), '-js', '-sd', path.join(work, 'nats')], { stdio: 'ignore' }));
  await waitPort(natsPort);
  const natsUrl = `nats://127.0.0.1:${natsPort}`;
  const auditPort = await freePort();
  const env = { ...process.env, LOG_LEVEL: 'error', MEDFOLIO_MODE: 'service', NATS_URL: natsUrl, DATABASE_URL: url.toString(), PORT: String(auditPort), DATA_DIR: work };
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const audit = spawn(process.execPath, [...profile, 'dist/apps/audit/src/main.js'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(audit);
  await waitOk(`http://127.0.0.1:${auditPort}/health/ready`);

  nc = await connect({ servers: natsUrl });
  const js = jetstream(nc, { timeout: 30_000 });
  const jsm = await jetstreamManager(nc);
  const backlog = async () => {
    const info = await jsm.consumers.info('AUDIT', 'audit-writer');
    return info.num_pending + info.num_ack_pending;
  };

  const cpuBefore = await cpuSeconds(audit.pid);
  const started = performance.now();
  const samples = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: publishers }, async () => {
      for (let i = next++; i < records; i = next++) {
        const event = record(i);
        const hdrs = natsHeaders();
        hdrs.set('x-correlation-id', event.correlationId);
        await js.publish('audit.event.recorded.v1', JSON.stringify(event), { msgID: event.id, headers: hdrs });
      }
    }),
  );
  const published = (performance.now() - started) / 1000;
  console.log(`published ${records} records in ${published.toFixed(1)} s (${Math.round(records / published)}/s)`);
  for (;;) {
    const pending = await backlog();
    const at = (performance.now() - started) / 1000;
    samples.push({ at: Number(at.toFixed(2)), backlog: pending });
    if (pending === 0) break;
    if (at > 600) throw new Error(`backlog still ${pending} after 10 minutes`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const drained = (performance.now() - started) / 1000;
  const cpu = (await cpuSeconds(audit.pid)) - cpuBefore;
  const { rows } = await admin.query(`SELECT 1`).then(async () => {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      return await client.query(`SELECT count(*)::int AS n FROM audit.audit_log`);
    } finally {
      await client.end();
    }
  });
  // The writer's rate while it drained what was already published (samples after the burst).
  const after = samples.filter((s) => s.at >= published);
  const drainRate = after.length > 1 && after[0].backlog > 0 ? Math.round(after[0].backlog / (drained - after[0].at)) : null;
  const verify = spawnSync(process.execPath, ['dist/apps/audit/src/main.js', 'verify'], { cwd: root, env, encoding: 'utf8' });
  const report = JSON.parse(verify.stdout.trim().split('\n').pop() ?? '{}');
  const result = {
    records,
    publishers,
    publishSeconds: Number(published.toFixed(2)),
    publishPerSecond: Math.round(records / published),
    secondsToZeroBacklog: Number(drained.toFixed(2)),
    sustainedPerSecond: Math.round(records / drained),
    drainPerSecondAfterBurst: drainRate,
    backlogAtEndOfBurst: after[0]?.backlog ?? 0,
    auditCpuSeconds: Number(cpu.toFixed(1)),
    rowsInLog: rows[0].n,
    verify: report,
    samples,
  };
  console.log(
    `writer: backlog zero ${result.secondsToZeroBacklog} s after the burst began: ${result.sustainedPerSecond} records/s sustained` +
      ` (backlog ${result.backlogAtEndOfBurst} when publishing ended, drained at ${drainRate ?? '-'}/s); audit CPU ${result.auditCpuSeconds} s;` +
      ` ${result.rowsInLog} rows; verify: ${JSON.stringify(report)}`,
  );
  if (rows[0].n !== records || !report.intact) process.exitCode = 1;
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  await writeFile(path.join(root, 'bench/results', `audit-writer-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(result, null, 2));
} finally {
  await nc?.close().catch(() => undefined);
  for (const child of children.reverse()) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}
