import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Logger, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DOCUMENTS_SUBJECTS, DomainError, type CallerIdentity } from '@medfolio/contracts';
import { loadConfig } from '@medfolio/config';
import {
  Caller,
  callerFromHeaders,
  createRpcClient,
  InProcessEventBus,
  InProcessServer,
  RpcErrorFilter,
  type RpcClient,
} from '@medfolio/messaging';
import { loadOrCreateSigningKeys, publicJwks, signAccessToken } from '@medfolio/security';
import { UPLOAD_DRAIN_LIMITS } from '@medfolio/storage';
import { UseFilters } from '@nestjs/common';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';

/** What the documents service stand-ins saw. */
const seen = { rpc: [] as { subject: string; payload: unknown; caller: CallerIdentity }[] };

/** A stand-in for the documents service's request/reply side. */
@Controller()
@UseFilters(RpcErrorFilter)
class FakeDocumentsRpc {
  @MessagePattern(DOCUMENTS_SUBJECTS.list)
  list(@Payload() payload: unknown, @Caller() caller: CallerIdentity) {
    seen.rpc.push({ subject: DOCUMENTS_SUBJECTS.list, payload, caller });
    return [
      {
        id: 'd1',
        filename: 'a.pdf',
        url: null,
        uploaded_at: '2026-01-01T00:00:00.000Z',
        size: 3,
        content_type: 'application/pdf',
      },
    ];
  }

  @MessagePattern(DOCUMENTS_SUBJECTS.delete)
  delete(@Payload() payload: { document_id: string }, @Caller() caller: CallerIdentity) {
    seen.rpc.push({ subject: DOCUMENTS_SUBJECTS.delete, payload, caller });
    if (payload.document_id !== MINE) throw new DomainError('NOT_FOUND', 'Document not found.');
    return { message: 'Document deleted.' };
  }

  @MessagePattern(DOCUMENTS_SUBJECTS.downloadLink)
  downloadLink(@Payload() payload: { document_id: string }, @Caller() caller: CallerIdentity) {
    seen.rpc.push({ subject: DOCUMENTS_SUBJECTS.downloadLink, payload, caller });
    if (payload.document_id !== MINE) throw new DomainError('NOT_FOUND', 'Document not found.');
    return { download_url: '/api/files/x', filename: 'a.pdf', expires_at: '2026-01-01T00:05:00.000Z' };
  }
}

@Module({ controllers: [FakeDocumentsRpc] })
class FakeDocumentsModule {}

const MINE = '3f0c2a5e-8d41-4a7e-9b1a-2c4d6e8f0a1b';

/** How the stand-in internal upload endpoint answers, and what it received. */
interface Upstream {
  server: Server;
  url: string;
  requests: { url: string; headers: IncomingMessage['headers']; bytes: number; complete: boolean; aborted: boolean }[];
  /** Answer after this many bytes with this status and body; undefined: after the whole body. */
  answerAfter?: { bytes: number; status: number; body: unknown };
}

async function upstream(): Promise<Upstream> {
  const state: Upstream = { server: createServer(), url: '', requests: [] };
  state.server.on('request', (req, res) => {
    const record = { url: req.url ?? '', headers: req.headers, bytes: 0, complete: false, aborted: false };
    state.requests.push(record);
    let answered = false;
    const answer = (status: number, body: unknown) => {
      if (answered) return;
      answered = true;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    req.on('data', (chunk: Buffer) => {
      record.bytes += chunk.length;
      const early = state.answerAfter;
      if (early && record.bytes >= early.bytes) answer(early.status, early.body);
    });
    req.on('end', () => {
      record.complete = true;
      answer(201, { message: '1 file uploaded successfully.', received: record.bytes });
    });
    req.on('close', () => {
      if (!record.complete) record.aborted = true;
    });
  });
  state.server.listen(0, '127.0.0.1');
  await once(state.server, 'listening');
  const address = state.server.address();
  state.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return state;
}

/** What `send` needs to post a whole multipart body. */
interface MultipartSend {
  contentType: string;
  length: number;
  pieces: Iterable<Buffer>;
}

/** A multipart body of `size` bytes of file content, produced piece by piece; `sent()` gives it to `send`. */
function multipart(size: number): { boundary: string; pieces: () => Generator<Buffer>; length: number; sent: () => MultipartSend } {
  const boundary = `----medfolio${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const piece = Buffer.alloc(64 * 1024, 0x41);
  const length = head.length + size + tail.length;
  const pieces = function* () {
    yield head;
    for (let sent = 0; sent < size; sent += piece.length)
      yield piece.subarray(0, Math.min(piece.length, size - sent));
    yield tail;
  };
  return {
    boundary,
    length,
    pieces,
    sent: () => ({ contentType: `multipart/form-data; boundary=${boundary}`, length, pieces: pieces() }),
  };
}

/** Sends a request with node:http (to control the body), resolving with the status and the JSON. */
function send(
  url: string,
  options: { token?: string; contentType?: string; length?: number; pieces: Iterable<Buffer>; abortAfter?: number },
): Promise<{ status: number; body: unknown } | 'aborted'> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.contentType ? { 'content-type': options.contentType } : {}),
        ...(options.length !== undefined ? { 'content-length': String(options.length) } : {}),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }),
      );
    });
    req.on('error', (error) => (options.abortAfter !== undefined ? resolve('aborted') : reject(error)));
    let sent = 0;
    const iterator = options.pieces[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        const next = iterator.next();
        if (next.done) return void req.end();
        sent += next.value.length;
        if (options.abortAfter !== undefined && sent > options.abortAfter) {
          req.destroy();
          return resolve('aborted');
        }
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

describe('the documents routes of the gateway', () => {
  let app: NestFastifyApplication;
  let base: string;
  let rpc: RpcClient;
  let service: INestMicroservice;
  let docs: Upstream;
  let dataDir: string;
  let token: string;
  const userId = randomUUID();
  const internalToken = randomBytes(32).toString('base64url');

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-documents-'));
    docs = await upstream();
    service = await NestFactory.createMicroservice(FakeDocumentsModule, {
      strategy: new InProcessServer(),
      logger: false,
    });
    await service.listen();
    rpc = createRpcClient('gateway', { timeoutMs: 2000 });
    const config = loadConfig(GatewayConfig, {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      INTERNAL_API_TOKEN: internalToken,
      DOCUMENTS_INTERNAL_URL: docs.url,
      // The same stand-in plays identity's internal endpoint: both uploads take the same path.
      IDENTITY_INTERNAL_URL: docs.url,
      WEB_ROOT: dataDir,
    });
    const keys = await loadOrCreateSigningKeys(dataDir);
    app = await createGatewayApp({ config, rpc, eventBus: new InProcessEventBus(), localJwks: publicJwks(keys), webRoot: null });
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = await app.getUrl();
    token = await signAccessToken(keys.current, { sub: userId, roles: ['patient'], sid: randomUUID() });
  });

  afterAll(async () => {
    await app?.close();
    await service?.close();
    docs?.server.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  beforeEach(() => {
    seen.rpc.length = 0;
    docs.requests.length = 0;
    docs.answerAfter = undefined;
  });

  /** A JSON body sent to an upload route: 400 with the route's message, and nothing forwarded. */
  async function expectMultipartRefusal(route: string, json: string, message: string): Promise<void> {
    const answer = await send(`${base}${route}`, { token, contentType: 'application/json', pieces: [Buffer.from(json)] });
    expect(answer).toEqual({ status: 400, body: { message, code: 'VALIDATION_FAILED' } });
    expect(docs.requests).toEqual([]);
  }

  describe('POST /api/upload/', () => {
    it('streams the multipart body unchanged to the documents service, with the caller from the token and the internal token', async () => {
      const body = multipart(3 * 1024 * 1024);
      const answer = await send(`${base}/api/upload/`, { token, ...body.sent() });

      expect(answer).toEqual({
        status: 201,
        body: { message: '1 file uploaded successfully.', received: body.length },
      });
      const [received] = docs.requests;
      expect(received).toMatchObject({ url: '/internal/documents', bytes: body.length, complete: true });
      expect(received!.headers['content-type']).toBe(`multipart/form-data; boundary=${body.boundary}`);
      expect(received!.headers['x-internal-token']).toBe(internalToken);
      const caller = callerFromHeaders((name) => received!.headers[name] as string | undefined);
      expect(caller).toMatchObject({ userId, roles: ['patient'] });
    });

    it('stops forwarding at once when the service refuses early, and the browser still gets the answer', async () => {
      docs.answerAfter = {
        bytes: 64 * 1024,
        status: 415,
        body: { message: '"big.pdf" is not a PDF: it is a Windows program (.exe).', code: 'UNSUPPORTED_MEDIA_TYPE' },
      };
      const body = multipart(64 * 1024 * 1024);

      const answer = await send(`${base}/api/upload/`, { token, ...body.sent() });

      expect(answer).toEqual({
        status: 415,
        body: { message: '"big.pdf" is not a PDF: it is a Windows program (.exe).', code: 'UNSUPPORTED_MEDIA_TYPE' },
      });
      const [received] = docs.requests;
      expect(received!.complete).toBe(false);
      expect(received!.bytes).toBeLessThan(16 * 1024 * 1024);
    });

    it('past the drain limits, answers at once and closes the connection rather than read on', async () => {
      const limits = { ...UPLOAD_DRAIN_LIMITS };
      UPLOAD_DRAIN_LIMITS.bytes = 8 * 1024 * 1024;
      try {
        docs.answerAfter = {
          bytes: 64 * 1024,
          status: 413,
          body: { message: '"big.pdf" is larger than 100 MB, the most a file may be.', code: 'PAYLOAD_TOO_LARGE' },
        };
        const body = multipart(256 * 1024 * 1024);
        const outcome = await new Promise<{ status?: number; connection?: string; closedAfter: number }>((resolve) => {
          let sent = 0;
          const req = request(`${base}/api/upload/`, {
            method: 'POST',
            agent: false,
            headers: {
              authorization: `Bearer ${token}`,
              'content-type': `multipart/form-data; boundary=${body.boundary}`,
              'content-length': String(body.length),
            },
          });
          const result: { status?: number; connection?: string; closedAfter: number } = { closedAfter: 0 };
          req.on('response', (res) => {
            result.status = res.statusCode;
            result.connection = res.headers['connection'];
            res.resume();
          });
          req.on('close', () => resolve({ ...result, closedAfter: sent }));
          req.on('error', () => undefined);
          const pieces = body.pieces();
          const pump = () => {
            for (let next = pieces.next(); !next.done; next = pieces.next()) {
              sent += next.value.length;
              if (!req.write(next.value)) return void req.once('drain', pump);
            }
            req.end();
          };
          pump();
        });
        // The gateway stopped reading long before the end of the body, and closed the connection.
        expect(outcome.closedAfter).toBeLessThan(128 * 1024 * 1024);
        if (outcome.status !== undefined) expect(outcome).toMatchObject({ status: 413, connection: 'close' });
        expect(docs.requests[0]!.bytes).toBeLessThan(16 * 1024 * 1024);
      } finally {
        Object.assign(UPLOAD_DRAIN_LIMITS, limits);
      }
    });

    it('cuts the internal request when the browser goes away, so the service discards the upload', async () => {
      const body = multipart(32 * 1024 * 1024);
      const answer = await send(`${base}/api/upload/`, {
        token,
        ...body.sent(),
        abortAfter: 4 * 1024 * 1024,
      });
      expect(answer).toBe('aborted');
      // The cut reaches the service a moment later (longer on a loaded machine): wait up to 5 s for it.
      for (let waited = 0; waited < 5000 && !docs.requests[0]?.aborted; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      const [received] = docs.requests;
      expect(received).toMatchObject({ complete: false, aborted: true });
    });

    it('refuses a body that is not multipart without calling the service', () =>
      expectMultipartRefusal('/api/upload/', '{"files":[]}', 'Send the files as multipart/form-data, in the field "files".'));

    it('refuses an upload without a valid access token before reading it', async () => {
      const body = multipart(1024);
      const answer = await send(`${base}/api/upload/`, body.sent());
      expect(answer).toMatchObject({ status: 401 });
      expect(docs.requests).toEqual([]);
    });

    it('answers 503 when the documents service cannot be reached', async () => {
      const down = loadConfig(GatewayConfig, {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        INTERNAL_API_TOKEN: internalToken,
        DOCUMENTS_INTERNAL_URL: 'http://127.0.0.1:9',
      });
      const keys = await loadOrCreateSigningKeys(dataDir);
      const other = await createGatewayApp({ config: down, rpc, eventBus: new InProcessEventBus(), localJwks: publicJwks(keys), webRoot: null });
      await other.listen({ port: 0, host: '127.0.0.1' });
      try {
        const body = multipart(1024);
        const answer = await send(`${await other.getUrl()}/api/upload/`, { token, ...body.sent() });
        expect(answer).toEqual({
          status: 503,
          body: { message: 'The upload could not be completed; please try again shortly.', code: 'UNAVAILABLE' },
        });
      } finally {
        await other.close();
      }
    });
  });

  describe('POST /api/profile/picture/', () => {
    it("pipes the multipart body unchanged to identity's internal endpoint, as uploads of documents go", async () => {
      const body = multipart(2 * 1024 * 1024);
      docs.answerAfter = undefined;

      const answer = await send(`${base}/api/profile/picture/`, { token, ...body.sent() });

      expect(answer).toEqual({ status: 201, body: { message: '1 file uploaded successfully.', received: body.length } });
      const [received] = docs.requests;
      expect(received).toMatchObject({ url: '/internal/profile-picture', bytes: body.length, complete: true });
      expect(received!.headers['content-type']).toBe(`multipart/form-data; boundary=${body.boundary}`);
      expect(received!.headers['x-internal-token']).toBe(internalToken);
      expect(callerFromHeaders((name) => received!.headers[name] as string | undefined)).toMatchObject({ userId });
    });

    it('refuses a body that is not multipart without calling identity', () =>
      expectMultipartRefusal('/api/profile/picture/', '{"picture":"me.png"}', 'Send the picture as multipart/form-data in the field "picture".'));
  });

  describe('list, delete, download link', () => {
    const get = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      });
      return { status: response.status, body: (await response.json()) as unknown, headers: response.headers };
    };

    it('asks documents over request/reply with the caller from the token', async () => {
      expect((await get(`${base}/api/upload/`)).body).toEqual([
        expect.objectContaining({ id: 'd1', filename: 'a.pdf' }),
      ]);
      expect(
        await get(`${base}/api/upload/`, { method: 'DELETE', body: JSON.stringify({ document_id: MINE }) }),
      ).toMatchObject({ status: 200, body: { message: 'Document deleted.' } });
      expect(await get(`${base}/api/get-document-download-link/${MINE.toUpperCase()}/`)).toMatchObject({
        status: 200,
        body: { download_url: '/api/files/x' },
      });
      expect(seen.rpc.map((r) => [r.subject, r.payload, r.caller.userId])).toEqual([
        [DOCUMENTS_SUBJECTS.list, {}, userId],
        [DOCUMENTS_SUBJECTS.delete, { document_id: MINE }, userId],
        [DOCUMENTS_SUBJECTS.downloadLink, { document_id: MINE }, userId],
      ]);
    });

    it("answers 404 for a document that is not the caller's, and for an id that is no id at all", async () => {
      const other = randomUUID();
      expect(await get(`${base}/api/get-document-download-link/${other}/`)).toMatchObject({
        status: 404,
        body: { message: 'Document not found.', code: 'NOT_FOUND' },
      });
      expect(
        await get(`${base}/api/upload/`, { method: 'DELETE', body: JSON.stringify({ document_id: other }) }),
      ).toMatchObject({ status: 404 });
      expect(await get(`${base}/api/get-document-download-link/..%2F..%2Fetc%2Fpasswd/`)).toMatchObject({
        status: 404,
        body: { message: 'Document not found.' },
      });
      expect(seen.rpc.map((r) => r.subject)).toEqual([DOCUMENTS_SUBJECTS.downloadLink, DOCUMENTS_SUBJECTS.delete]);
    });

    it("refuses a delete without a document id with the contract's message", async () => {
      expect(await get(`${base}/api/upload/`, { method: 'DELETE', body: JSON.stringify({}) })).toMatchObject({
        status: 400,
        body: { message: 'document_id must be the id of one of your documents.', code: 'VALIDATION_FAILED' },
      });
      expect(seen.rpc).toEqual([]);
    });
  });

  it('documents the routes in OpenAPI for the web app, paths ending in "/"', async () => {
    const doc = (await (await fetch(`${base}/api/docs-json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            requestBody?: { content: Record<string, { schema: unknown }> };
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const upload = doc.paths['/api/upload/']!;
    expect(Object.fromEntries(Object.entries(upload).map(([method, op]) => [method, op.operationId]))).toEqual({
      post: 'documentsUpload',
      get: 'documentsList',
      delete: 'documentsDelete',
    });
    expect(upload['post']!.requestBody!.content['multipart/form-data']!.schema).toEqual({
      type: 'object',
      required: ['files'],
      properties: {
        files: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'One entry per file' },
      },
    });
    expect(Object.keys(upload['post']!.responses).sort()).toEqual(['201', '400', '401', '402', '403', '413', '415', '429', '500', '503', '504']);
    expect(doc.paths['/api/get-document-download-link/{documentId}/']!['get']!.operationId).toBe(
      'documentsDownloadLink',
    );
  });
});
