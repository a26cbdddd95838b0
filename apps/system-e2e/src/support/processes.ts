import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../../..');
export const DIST = path.join(ROOT, 'dist');

/** Variables that would switch the product to real services; removed unless a test sets them. */
const EXTERNAL = ['DATABASE_URL', 'NATS_URL', 'REDIS_URL', 'S3_ENDPOINT', 'JWT_JWKS_URL', 'PORT', 'MEDFOLIO_MODE', 'DATA_DIR'];

/**
 * The dev mailbox's secret for every product the system tests start (the launcher reads DEV_MAIL_KEY;
 * without it, `npm start` makes a random one and prints it). DEV_MAIL_JSON is the mailbox's JSON path with it.
 */
export const DEV_MAIL_KEY = 'system-e2e-dev-mail-key';
export const DEV_MAIL_JSON = `/dev/mail.json?key=${DEV_MAIL_KEY}`;

export interface Running {
  child: ChildProcess;
  output: () => string;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/**
 * The Node.js flags each application runs with where it is deployed (the chart's NODE_OPTIONS in
 * helm/medfolio/templates/_helpers.tpl, and docker/compose.yaml), so the system tests, the fault
 * suites and the soak judge the processes as they run there: a 1 MB young generation for the two
 * that stream uploads, 16 MB for the rest (Node's own default grows it to 64 MB on a large machine,
 * which made RSS swing by a hundred megabytes with the allocation rate).
 */
export function nodeOptionsFor(entry: string): string {
  return /apps\/(gateway|documents)\//.test(entry) ? '--max-semi-space-size=1' : '--max-semi-space-size=16';
}

/** Starts `node dist/<entry> [args]` with a clean environment plus `env` (under `wrapper`, e.g. prlimit, if given). */
export function startNode(entry: string, args: string[], env: Record<string, string>, wrapper: string[] = []): Running {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !EXTERNAL.includes(k)));
  const command = [...wrapper, process.execPath, path.join(DIST, entry), ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: ROOT,
    env: { ...base, NODE_OPTIONS: nodeOptionsFor(entry), LOG_LEVEL: 'warn', DEV_MAIL_KEY, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return {
    child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const [code] = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/** Runs a command to completion. */
export async function runNode(entry: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const running = startNode(entry, args, env);
  const [code] = (await once(running.child, 'exit')) as [number | null];
  return { code, output: running.output() };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`Timed out waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
