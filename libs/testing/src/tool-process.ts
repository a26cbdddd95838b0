import { type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What the test helpers that run a local tool as a child process share (versitygw, stripe-mock):
 * where libs/tooling/install-tools.sh put it, a free port, its output kept for error messages,
 * waiting until it answers, and stopping it.
 */

/** The installed binary: `$<envVar>` if set, else $MEDFOLIO_TOOLS_DIR/bin/<name> (default ~/.cache/medfolio/tools). */
export function installedTool(name: string, envVar: string): string {
  if (process.env[envVar]) return process.env[envVar];
  const toolsDir = process.env['MEDFOLIO_TOOLS_DIR'] || path.join(homedir(), '.cache', 'medfolio', 'tools');
  return path.join(toolsDir, 'bin', name);
}

/** A port the OS considers free right now (it could in theory be taken before a server binds it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('Could not find a free port');
  return address.port;
}

/** Keeps the last few KB of the child's output for error messages (and drains its pipes). */
export function collectOutput(child: ChildProcess): () => string {
  let text = '';
  const append = (chunk: Buffer): void => {
    text = (text + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  return () => text;
}

/** Resolves once `request()` gets any HTTP answer; fails if the child exits first or the time runs out. */
export async function waitUntilAnswering(request: () => Promise<Response>, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
    try {
      await (await request()).arrayBuffer();
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`no answer within ${timeoutMs} ms`);
}

/** SIGTERM, then SIGKILL after 5 s; resolves when it has exited. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killTimer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(killTimer);
}
