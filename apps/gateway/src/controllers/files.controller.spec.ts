import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@medfolio/config';
import { createRpcClient, type RpcClient } from '@medfolio/messaging';
import { createStorageFor } from '@medfolio/runtime';
import { loadOrCreateSigningKeys, publicJwks } from '@medfolio/security';
import type { BlobStorage } from '@medfolio/storage';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';

/** What a browser downloading the link gets: the bytes, whether the response completed, and how it ended. */
function download(url: string): Promise<{ status: number; body: Buffer; complete: boolean; failure?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      const chunks: Buffer[] = [];
      const settle = (failure?: string) =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          complete: res.complete,
          ...(failure ? { failure } : {}),
        });
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => settle());
      res.on('error', (error) => settle(error.message));
      res.on('aborted', () => settle('aborted'));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The gateway's /api/files/ route on the embedded filesystem store, when a stored file fails its
 * encryption check part-way: the browser must see a broken download, never a shorter file that looks
 * complete, and no byte past the last frame that authenticated.
 */
describe('downloads of damaged files through the gateway', () => {
  const CHUNK = 1024 * 1024;
  const data = randomBytes(3 * CHUNK + 1000);
  let app: NestFastifyApplication;
  let rpc: RpcClient;
  let storage: BlobStorage;
  let base: string;
  let dataDir: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-files-'));
    const config = loadConfig(GatewayConfig, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      INTERNAL_API_TOKEN: randomBytes(32).toString('base64url'),
      DOCUMENTS_INTERNAL_URL: 'http://127.0.0.1:9',
      WEB_ROOT: dataDir,
    });
    rpc = createRpcClient('gateway', { timeoutMs: 2000 });
    app = await createGatewayApp({
      config,
      rpc,
      localJwks: publicJwks(await loadOrCreateSigningKeys(dataDir)),
      webRoot: null,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
    // The same store (directory and generated keys in DATA_DIR) the gateway reads from.
    storage = await createStorageFor(config);
  });

  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function storedLink(key: string): Promise<string> {
    await storage.put(key, Readable.from([data]), { contentType: 'application/pdf' });
    return `${base}${await storage.createDownloadUrl(key, { expiresInSeconds: 60, filename: 'scan.pdf', contentType: 'application/pdf' })}`;
  }

  it('serves an intact file whole, and the response completes', async () => {
    const result = await download(await storedLink('documents/p1/intact.pdf'));
    expect(result).toMatchObject({ status: 200, complete: true });
    expect(result.failure).toBeUndefined();
    expect(result.body.equals(data)).toBe(true);
  });

  it.each([
    ['a flipped byte in frame 2', (bytes: Buffer) => void (bytes[bytes.length - CHUNK] ^= 0x01), 2],
    ['the final frame cut off', (bytes: Buffer) => bytes.subarray(0, bytes.length - 1000 - 21), 3],
  ])(
    'cuts the download off at %s: incomplete, and only bytes of frames before it',
    async (_name, damage, intactFrames) => {
      const key = `documents/p1/${randomBytes(4).toString('hex')}.pdf`;
      const link = await storedLink(key);
      const file = path.join(dataDir, 'files', key);
      const bytes = await readFile(file);
      await writeFile(file, damage(bytes) ?? bytes);

      const result = await download(link);

      expect(result.status).toBe(200); // the headers went out before the damage was reached
      expect(result.complete).toBe(false);
      expect(result.failure).toBeDefined();
      expect(result.body.length).toBeLessThan(data.length);
      expect(result.body.equals(data.subarray(0, result.body.length))).toBe(true);
      expect(result.body.length).toBeLessThanOrEqual(intactFrames * CHUNK);
    },
  );
});
