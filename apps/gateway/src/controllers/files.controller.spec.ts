import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@medfolio/config';
import { createRpcClient, InProcessEventBus, type RpcClient } from '@medfolio/messaging';
import { loadOrCreateSigningKeys, publicJwks } from '@medfolio/security';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';

/** A stand-in for a service's GET /internal/files/...: records what it was asked, answers `reply`. */
interface FileService {
  server: Server;
  url: string;
  seen: { url: string; headers: IncomingMessage['headers'] }[];
  /** Send the headers and this many bytes, then cut the connection. */
  cutAfter?: number;
}

async function fileService(name: string): Promise<FileService> {
  const state: FileService = { server: createServer(), url: '', seen: [] };
  state.server.on('request', (req, res) => {
    state.seen.push({ url: req.url ?? '', headers: req.headers });
    if (req.url?.includes('missing')) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found.","code":"NOT_FOUND"}');
    const body = Buffer.alloc(256 * 1024, name);
    res.writeHead(200, {
      'content-type': 'application/pdf',
      'content-length': String(body.length),
      'content-disposition': 'attachment; filename="a.pdf"',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'x-internal-detail': 'stays inside',
    });
    if (state.cutAfter !== undefined) {
      res.write(body.subarray(0, state.cutAfter));
      setTimeout(() => res.socket?.destroy(), 50);
      return;
    }
    res.end(body);
  });
  state.server.listen(0, '127.0.0.1');
  await once(state.server, 'listening');
  const address = state.server.address();
  state.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return state;
}

/** GET with node:http, resolving with what arrived, or 'cut' when the connection broke mid-body. */
function download(url: string): Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer } | 'cut'> {
  return new Promise((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', () => resolve('cut'));
      res.on('aborted', () => resolve('cut'));
    }).on('error', reject);
  });
}

describe('GET /api/files/... (served by the service that issued the link)', () => {
  let app: NestFastifyApplication;
  let base: string;
  let rpc: RpcClient;
  let documents: FileService;
  let identity: FileService;
  let dataDir: string;
  const internalToken = randomBytes(32).toString('base64url');
  const link = (key: string) => `/api/files/${key}?expires=9999999999&filename=a.pdf&type=application%2Fpdf&signature=abc`;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-files-'));
    [documents, identity] = await Promise.all([fileService('d'), fileService('i')]);
    rpc = createRpcClient('gateway', { timeoutMs: 2000 });
    const config = loadConfig(GatewayConfig, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      INTERNAL_API_TOKEN: internalToken,
      DOCUMENTS_INTERNAL_URL: documents.url,
      IDENTITY_INTERNAL_URL: identity.url,
    });
    app = await createGatewayApp({ config, rpc, eventBus: new InProcessEventBus(), localJwks: publicJwks(await loadOrCreateSigningKeys(dataDir)), webRoot: null });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
  });

  afterAll(async () => {
    await app?.close();
    documents?.server.close();
    identity?.server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    documents.seen.length = 0;
    identity.seen.length = 0;
    documents.cutAfter = undefined;
  });

  it('passes a document link to documents with the internal token, and its answer back unchanged', async () => {
    const key = `documents/${randomUUID()}/${randomUUID()}`;

    const answer = await download(`${base}${link(key)}`);

    expect(documents.seen).toEqual([{ url: link(key).replace('/api/files/', '/internal/files/'), headers: expect.objectContaining({ 'x-internal-token': internalToken }) }]);
    expect(identity.seen).toEqual([]);
    if (answer === 'cut') throw new Error('the download was cut off');
    expect(answer.status).toBe(200);
    expect(answer.body.equals(Buffer.alloc(256 * 1024, 'd'))).toBe(true);
    expect(answer.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-disposition': 'attachment; filename="a.pdf"',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    expect(answer.headers['x-internal-detail']).toBeUndefined();
  });

  it('passes thumbnails to documents and pictures to identity', async () => {
    await download(`${base}${link('document-thumbnails/u/t.webp')}`);
    await download(`${base}${link('profile-pictures/u/p.webp')}`);

    expect(documents.seen.map((s) => s.url)).toEqual([link('document-thumbnails/u/t.webp').replace('/api/files/', '/internal/files/')]);
    expect(identity.seen.map((s) => s.url)).toEqual([link('profile-pictures/u/p.webp').replace('/api/files/', '/internal/files/')]);
  });

  it("passes on the service's refusal", async () => {
    expect(await download(`${base}${link('documents/u/missing')}`)).toMatchObject({ status: 404 });
  });

  it.each([
    ['a key no service owns', 'keys/storage.json'],
    ['a key climbing out of its folder', 'documents/..%2F..%2Fdocuments'],
    ['a dot-dot path', 'documents/%2e%2e/%2e%2e/documents'],
  ])('answers 404 for %s without asking any service', async (_name, key) => {
    expect(await download(`${base}${link(key)}`)).toMatchObject({ status: 404 });
    expect([...documents.seen, ...identity.seen]).toEqual([]);
  });

  it('cuts the download off when the service does (e.g. a failed integrity check mid-way)', async () => {
    documents.cutAfter = 64 * 1024;

    expect(await download(`${base}${link('documents/u/d')}`)).toBe('cut');
  });
});
