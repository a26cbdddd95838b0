/**
 * A real S3-compatible server for integration and system tests: versitygw (installed by
 * `npm run tools:install`, see libs/tooling/tools.d/s3.sh) serving a temporary directory on a free
 * loopback port, with random credentials. It verifies SigV4 signatures like AWS does.
 *
 * Part of @medfolio/testing (test support, never built): it spawns processes and is for tests only.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectOutput, freePort, installedTool, stopProcess, waitUntilAnswering } from './tool-process';

export interface S3TestServer {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /**
   * Whether HeadObject reports the server-side encryption of objects: versitygw's posix backend
   * accepts the SSE header but does not implement SSE, so it does not. Undefined when unknown.
   */
  reportsServerSideEncryption?: boolean;
  /** Stops the server and deletes its data (a no-op for a server given through the environment). */
  stop(): Promise<void>;
}

export interface StartS3ServerOptions {
  /** Bucket name the tests should use (the server starts with no buckets). Default "medfolio-test". */
  bucket?: string;
  /** Path of the versitygw binary. Default: $VERSITYGW_BIN, else the install-tools cache. */
  binary?: string;
  /** How long to wait for the server to answer. Default 20 s. */
  startTimeoutMs?: number;
}

const REGION = 'us-east-1';
const DEFAULT_BUCKET = 'medfolio-test';

/**
 * The S3 server from the environment (S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY,
 * S3_BUCKET, S3_REGION) when S3_ENDPOINT is set, otherwise a freshly started versitygw.
 */
export async function useS3TestServer(options: StartS3ServerOptions = {}): Promise<S3TestServer> {
  const env = process.env;
  if (!env['S3_ENDPOINT']) return startS3Server(options);
  const accessKeyId = env['S3_ACCESS_KEY_ID'];
  const secretAccessKey = env['S3_SECRET_ACCESS_KEY'];
  if (!accessKeyId || !secretAccessKey)
    throw new Error('S3_ENDPOINT is set: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are needed too');
  return {
    endpoint: env['S3_ENDPOINT'],
    region: env['S3_REGION'] || REGION,
    bucket: env['S3_BUCKET'] || options.bucket || DEFAULT_BUCKET,
    accessKeyId,
    secretAccessKey,
    stop: async () => undefined,
  };
}

/** Starts versitygw on a free loopback port over a new temporary directory. */
export async function startS3Server(options: StartS3ServerOptions = {}): Promise<S3TestServer> {
  const binary = options.binary ?? installedTool('versitygw', 'VERSITYGW_BIN');
  try {
    await access(binary, constants.X_OK);
  } catch {
    throw new Error(`versitygw not found at ${binary}: run \`npm run tools:install\` (or set VERSITYGW_BIN)`);
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'medfolio-s3-'));
  const port = await freePort();
  const accessKeyId = `test${randomBytes(8).toString('hex')}`;
  const secretAccessKey = randomBytes(24).toString('base64url');
  const child = spawn(binary, ['--port', `127.0.0.1:${port}`, '--region', REGION, '--quiet', 'posix', dataDir], {
    env: { ...process.env, ROOT_ACCESS_KEY: accessKeyId, ROOT_SECRET_KEY: secretAccessKey },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    await stopProcess(child);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    // Any HTTP answer (an unsigned request gets 403) means the server is up.
    await waitUntilAnswering(() => fetch(endpoint), child, options.startTimeoutMs ?? 20_000);
  } catch (error) {
    await stop();
    throw new Error(`versitygw did not start: ${(error as Error).message}\n${output()}`);
  }
  const bucket = options.bucket ?? DEFAULT_BUCKET;
  return { endpoint, region: REGION, bucket, accessKeyId, secretAccessKey, reportsServerSideEncryption: false, stop };
}
