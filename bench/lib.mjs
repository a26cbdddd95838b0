// What the benches that drive the product over HTTP share: a free port, the one-process product
// started on it (as `npm start` runs it, in a data folder of its own), a signed-in patient, JSON calls
// and the figures' arithmetic. Each bench keeps only what it measures.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** User + system CPU seconds of a process so far (from /proc). */
export async function cpuSeconds(pid) {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The q-quantile of xs (nearest rank), to 0.1. */
export const quantile = (xs, q) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1));
};

/**
 * The Node.js flags an application's process runs with where it is deployed (the chart's NODE_OPTIONS;
 * the system tests' nodeOptionsFor): a 1 MB young generation for the gateway and documents, 16 MB for
 * the rest. `entry` is the process's main file under dist/.
 */
export function deployedNodeFlags(entry) {
  return /apps\/(gateway|documents)\//.test(entry) ? ['--max-semi-space-size=1'] : ['--max-semi-space-size=16'];
}

export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  return port;
}

/** One JSON call: { status, body } whatever the status (body parsed when it is JSON). */
export async function call(base, method, url, body, token) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith('{') || text.startsWith('[') ? JSON.parse(text) : text || null };
}

/** One JSON call that must succeed: its body, or an error naming the call and the answer. */
export async function api(base, method, url, body, token) {
  const { status, body: answer } = await call(base, method, url, body, token);
  if (status >= 400) throw new Error(`${method} ${url}: ${status} ${typeof answer === 'string' ? answer : JSON.stringify(answer)}`);
  return answer;
}

/** The dev mailbox's secret the benches start the product with (npm start prints a random one otherwise). */
const DEV_MAIL_KEY = 'bench-dev-mail-key-0000';

/**
 * The one-process product (dist/apps/medfolio: embedded PGlite, in-process messaging, the
 * filesystem store) on a free port with a fresh data folder; `env` adds to the defaults.
 * Resolves once it says it is running; `stop()` ends it and removes the folder.
 */
export async function startOneProcess(name, env = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), `medfolio-bench-${name}-`));
  const port = await freePort();
  const product = spawn(process.execPath, ['dist/apps/medfolio/src/main.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'error', DATABASE_URL: '', NATS_URL: '', DEV_MAIL_KEY, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  product.stdout.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    if (product.exitCode === null && product.signalCode === null) {
      product.kill('SIGINT');
      await once(product, 'exit').catch(() => undefined);
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; !/running at/.test(output); i++) {
      if (i > 1200 || product.exitCode !== null) throw new Error(`the product did not start:\n${output}`);
      await sleep(100);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, dataDir, stop };
}

/** A new patient, signed up, verified through the dev mailbox and signed in: { access, userId, email }. */
export async function signedInPatient(base) {
  const email = `bench-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  await api(base, 'POST', '/api/register/', { first_name: 'Bench', last_name: 'Patient', phone: '+1 202 555 0143', email, password, date_of_birth: '1980-01-01' });
  let mail;
  for (let i = 0; !mail; i++) {
    if (i > 300) throw new Error(`no verification e-mail for ${email}`);
    mail = (await api(base, 'GET', `/dev/mail.json?key=${DEV_MAIL_KEY}`)).find((m) => m.to === email);
    if (!mail) await sleep(100);
  }
  await api(base, 'POST', '/api/verify-otp/', { email, otp: /\b(\d{4})\b/.exec(mail.text)[1] });
  const { access } = await api(base, 'POST', '/api/login/', { email, password });
  const userId = JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString()).sub;
  return { access, userId, email };
}

/** Writes a bench's figures to bench/results/<name>-<date>.json; answers the path from the root. */
export async function saveResults(name, figures) {
  await mkdir(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', `${name}-${new Date().toISOString().slice(0, 10)}.json`);
  await writeFile(file, JSON.stringify(figures, null, 2));
  return path.relative(root, file);
}
