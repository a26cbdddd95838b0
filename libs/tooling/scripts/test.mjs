// `npm test`: everything CI checks, in order, failing fast between phases:
//   1. type check (tsc)              4. unit tests
//   2. lint (ESLint + boundaries)    5. integration tests (real Postgres, NATS JetStream, S3 server, Redis)
//   3. build, then the soak starts   6. system tests (both run modes over HTTP, the fault injection on
//      in the background                its own NATS and PostgreSQL; the web app in Chromium)
//                                    7. the soak's result (SOAK_MINUTES, default 10; 0 skips it)
// Ends with one line "N passed, N failed" summed over every Jest run.
// Service URLs come from the environment (DATABASE_URL, NATS_URL, REDIS_URL, S3_*), defaulting to
// this machine's local services; the S3 server is installed by libs/tooling/install-tools.sh.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const results = path.join(root, 'tmp/test-results');
const binDir = path.join(root, 'node_modules/.bin');
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });

const env = {
  ...process.env,
  PATH: `${binDir}:${process.env.PATH}`,
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim(),
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_ISOLATE_PLUGINS: 'false',
  NX_TUI: 'false',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};

function run(title, command, args, options = {}) {
  const started = Date.now();
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, env, stdio: options.capture ? 'pipe' : 'inherit', encoding: 'utf8' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    if (options.capture) process.stdout.write(`${result.stdout}${result.stderr}`);
    console.log(`=== ${title}: FAILED after ${seconds} s`);
    stopSoak();
    summary();
    process.exit(result.status ?? 1);
  }
  console.log(`=== ${title}: ok in ${seconds} s`);
  return result.stdout;
}

function summary() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of readdirSync(results).filter((f) => f.endsWith('.json'))) {
    const report = JSON.parse(readFileSync(path.join(results, file), 'utf8'));
    if (report.stats) {
      // Playwright's JSON reporter (the browser tests)
      passed += report.stats.expected + report.stats.flaky;
      failed += report.stats.unexpected;
      skipped += report.stats.skipped;
      continue;
    }
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  }
  console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
}

// The soak runs beside the other phases (its own NATS, PostgreSQL and ports), at a moderate rate so it
// does not starve them; its output goes to a file (spawnSync blocks this process, so a pipe would fill).
// SOAK_MINUTES=0 skips it (a quicker local run).
let soak;
const soakMinutes = Number(process.env.SOAK_MINUTES ?? 10);
const soakLog = path.join(root, 'tmp/soak.log');

function startSoak() {
  if (!(soakMinutes > 0)) return;
  const out = openSync(soakLog, 'w');
  const child = spawn('npx', ['jest', '-c', 'apps/system-e2e/jest.soak.config.cjs', '--runInBand', '--json', `--outputFile=${path.join(results, 'soak.json')}`], {
    cwd: root,
    env: { ...env, SOAK_MINUTES: String(soakMinutes) },
    stdio: ['ignore', out, out],
    detached: true, // its own process group, to stop it with what it started if another phase fails
  });
  closeSync(out);
  soak = { child, started: Date.now(), exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  console.log(`\n=== soak: started in the background (${soakMinutes} min; output in tmp/soak.log)`);
}

function stopSoak() {
  if (soak && soak.child.exitCode === null) {
    try {
      process.kill(-soak.child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

async function finishSoak() {
  if (!soak) return;
  console.log('\n=== soak: waiting for it to finish');
  const code = await soak.exited;
  const seconds = ((Date.now() - soak.started) / 1000).toFixed(1);
  const output = readFileSync(soakLog, 'utf8');
  process.stdout.write(output.split('\n').filter((line) => /soak |RSS|✓|✕|●|Tests:/.test(line)).join('\n') + '\n');
  if (code !== 0) {
    process.stdout.write(output.slice(-6000));
    console.log(`=== soak: FAILED after ${seconds} s`);
    summary();
    process.exit(code ?? 1);
  }
  console.log(`=== soak: ok in ${seconds} s`);
}

const nx = (target, extra = []) => ['nx', 'run-many', '-t', target, '--outputStyle=stream', ...extra];

run('type check', 'tsc', ['-p', 'tsconfig.json']);
run('type check (web app)', 'tsc', ['-p', 'apps/web/tsconfig.json']);
run('lint', 'npx', nx('lint', ['--parallel=2']));
const toolsOut = run('tools', 'bash', ['libs/tooling/install-tools.sh'], { capture: true });
env.PATH = `${toolsOut.trim().split('\n').pop()}:${env.PATH}`;
run('build', 'node', ['libs/tooling/build.mjs']);
startSoak();
// Tests always run (no cache replay), so the closing count covers every test.
run('unit tests', 'npx', nx('test', ['--parallel=2', '--skip-nx-cache']));
run('integration tests', 'npx', nx('int', ['--parallel=2', '--skip-nx-cache']));
run('system tests', 'npx', nx('e2e', ['--parallel=1', '--skip-nx-cache']));
await finishSoak();
summary();
