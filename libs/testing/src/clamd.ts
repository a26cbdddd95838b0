import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { collectOutput, freePort, stopProcess } from './tool-process';

/**
 * ClamAV's daemon for the antivirus tests: Debian's clamav-daemon (installed by
 * libs/tooling/install-tools.sh), started on a free loopback port and a unix socket in a temporary
 * directory, with a configuration file of its own and a signature database made here: the official
 * databases cannot be downloaded on these machines (freshclam never runs), and the EICAR test
 * signature is all the tests need. Signatures are matched anywhere in a file (and in the files of
 * an archive clamd unpacks), as ClamAV's own body signatures are.
 */

/** The EICAR test signature's name (clamd reports it as 'Eicar-Signature.UNOFFICIAL': a local database's). */
export const EICAR_SIGNATURE = 'Eicar-Signature';

/**
 * The EICAR anti-virus test string (harmless, detected by every scanner), put together at run time
 * so that this source file does not itself look infected to a developer's scanner.
 */
export function eicar(): Buffer {
  return Buffer.from(['X5O!P%@AP[4\\PZX54(P^)7CC)7}', '$EICAR-STANDARD-ANTIVIRUS', '-TEST-FILE!$H+H*'].join(''), 'latin1');
}

export interface Clamd {
  /** tcp://127.0.0.1:<port> (CLAMD_URL). */
  url: string;
  /** The unix socket (CLAMD_SOCKET). */
  socket: string;
  stop(): Promise<void>;
}

/** The clamd binary: CLAMD_BIN, else Debian's /usr/sbin/clamd; null if neither exists. */
export function clamdBinary(env: NodeJS.ProcessEnv = process.env): string | null {
  const binary = env['CLAMD_BIN'] || '/usr/sbin/clamd';
  return existsSync(binary) ? binary : null;
}

/**
 * Whether the antivirus tests run here: yes where clamd is installed; in CI (CI=true) always, so that
 * a missing clamd fails them rather than skipping them.
 */
export function clamdTestsRun(env: NodeJS.ProcessEnv = process.env): boolean {
  return clamdBinary(env) !== null || env['CI'] === 'true';
}

/** Starts clamd with the EICAR signature only; resolves once it answers PING. */
export async function startClamd(binary = clamdBinary()): Promise<Clamd> {
  if (!binary) {
    throw new Error('clamd not found at /usr/sbin/clamd: run libs/tooling/install-tools.sh (it installs Debian\'s clamav-daemon), or set CLAMD_BIN');
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'clamd-'));
  const database = path.join(dir, 'db');
  await mkdir(database);
  await mkdir(path.join(dir, 'tmp'));
  // An extended (.ndb) signature: name:target type (0 = any file):offset (* = anywhere):hex bytes.
  await writeFile(path.join(database, 'medfolio-test.ndb'), `${EICAR_SIGNATURE}:0:*:${eicar().toString('hex')}\n`);
  const port = await freePort();
  const socket = path.join(dir, 'clamd.sock');
  const config = path.join(dir, 'clamd.conf');
  await writeFile(
    config,
    [
      'Foreground yes',
      `TCPSocket ${port}`,
      'TCPAddr 127.0.0.1',
      `LocalSocket ${socket}`,
      `DatabaseDirectory ${database}`,
      `TemporaryDirectory ${path.join(dir, 'tmp')}`,
      // Above the largest upload (100 MB): a larger stream is refused, a larger file left unscanned.
      'StreamMaxLength 128M',
      'MaxFileSize 128M',
      'MaxScanSize 512M',
      'LogTime no',
      '',
    ].join('\n'),
  );
  const child = spawn(binary, ['--config-file', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const stop = async () => {
    await stopProcess(child);
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`clamd exited with ${child.exitCode ?? child.signalCode}:\n${output()}`);
    }
    if (await answersPing(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`clamd did not answer on port ${port} within 60 s:\n${output()}`);
    }
    await sleep(100);
  }
  return { url: `tcp://127.0.0.1:${port}`, socket, stop };
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.on('connect', () => socket.write('zPING\0'));
    socket.on('data', (data) => {
      reply += data.toString('utf8');
      if (reply.includes('\0')) done(reply.startsWith('PONG'));
    });
    socket.on('error', () => done(false));
    socket.on('close', () => done(reply.startsWith('PONG')));
  });
}
