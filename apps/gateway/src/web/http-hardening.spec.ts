import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@medfolio/config';
import { BILLING_SUBJECTS } from '@medfolio/contracts';
import { createRpcClient, InProcessBroker, InProcessEventBus, type RpcClient } from '@medfolio/messaging';
import { loadOrCreateSigningKeys, publicJwks } from '@medfolio/security';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';
import { FORM_BODY_LIMIT, fieldWithNul, jsonNestedDeeperThan, MAX_JSON_DEPTH, parseFormBody, SHARE_HEADERS } from './http-hardening';

describe('jsonNestedDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonNestedDeeperThan('{"a":[{"b":1}]}', 3)).toBe(false);
    expect(jsonNestedDeeperThan('{"a":[{"b":[1]}]}', 3)).toBe(true);
    expect(jsonNestedDeeperThan(JSON.stringify({ s: '[[[[[[{{{{{{' }), 2)).toBe(false);
    expect(jsonNestedDeeperThan(JSON.stringify({ s: 'a \\" [[[[' }), 1)).toBe(false);
  });
});

describe('the gateway’s request rules (the real createGatewayApp; no services behind it)', () => {
  let app: NestFastifyApplication;
  let rpc: RpcClient;
  let dataDir: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-hardening-'));
    rpc = createRpcClient('gateway', { timeoutMs: 500 });
    const config = loadConfig(GatewayConfig, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', TRUST_PROXY_HOPS: '1', WEB_ROOT: dataDir });
    // A web app to serve: the public summary page's headers are checked too.
    await writeFile(path.join(dataDir, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
    app = await createGatewayApp({ config, rpc, eventBus: new InProcessEventBus(), localJwks: publicJwks(await loadOrCreateSigningKeys(dataDir)), webRoot: dataDir });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app.close();
    await rpc.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const post = (payload: string, contentType: string) =>
    app.inject({ method: 'POST', url: '/api/login/', payload, headers: { 'content-type': contentType } });

  it('refuses JSON nested deeper than the limit with 400 and a clear message, before validation (5,000 levels gave a 500)', async () => {
    const deep = `{"email":${'['.repeat(5000)}${']'.repeat(5000)},"password":"x"}`;
    const response = await post(deep, 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: `The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`, code: 'VALIDATION_FAILED' });
    const justOver = `{"email":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    expect((await post(justOver, 'application/json')).statusCode).toBe(400);
  });

  it('still parses ordinary JSON (the login then fails for want of identity, not of the body)', async () => {
    const response = await post(JSON.stringify({ email: 'a@example.com', password: 'correct horse battery' }), 'application/json; charset=utf-8');
    expect([503, 504]).toContain(response.statusCode);
  });

  it("hands Stripe's webhook body to billing as the exact text received, with no bearer token, and refuses it unsigned", async () => {
    const received: unknown[] = [];
    InProcessBroker.register(BILLING_SUBJECTS.webhook, async (data) => {
      received.push(data);
      return { received: true, outcome: 'processed' };
    });
    try {
      const body = '{\n  "id": "evt_1",   "type": "invoice.paid",\n  "note": "caf\u00e9 \\u00e9"\n}';
      const signed = await app.inject({ method: 'POST', url: '/api/stripe/webhook/', payload: body, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': 't=1,v1=abc' } });
      expect(signed.statusCode).toBe(200);
      expect(received).toEqual([{ payload: body, signature: 't=1,v1=abc' }]);
      const unsigned = await app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: body, headers: { 'content-type': 'application/json' } });
      expect(unsigned.statusCode).toBe(400);
      expect(received).toHaveLength(1);
      // Every other route still gets parsed JSON.
      expect((await post('{"email": 1', 'application/json')).json()).toMatchObject({ message: 'The request body is not valid JSON.' });
    } finally {
      InProcessBroker.unregister(BILLING_SUBJECTS.webhook);
    }
  });

  it('refuses form-encoded and text bodies on JSON APIs with 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/xml']) {
      const response = await post('email=a%40example.com&password=x', type);
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({ message: `This API accepts JSON only (Content-Type: application/json), not ${type}.`, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  it("takes a form only on the OpenID providers' form_post callback path, at most 16 KB, and answers 415 to a form anywhere else", async () => {
    const form = (url: string, payload: string) => app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect((await form('/api/login-with-oidc/apple/callback/', 'code=c&state=s')).statusCode).toBe(303);
    expect((await form('/api/login-with-oidc/apple/callback', 'code=c&state=s')).statusCode).toBe(303);
    const tooLarge = await form('/api/login-with-oidc/apple/callback/', `code=${'c'.repeat(FORM_BODY_LIMIT)}`);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ message: `The form is too large (more than ${FORM_BODY_LIMIT} bytes).` });
    // The neighbouring routes, the sign-in itself included, stay JSON only.
    for (const url of ['/api/login-with-oidc/apple/', '/api/login-with-oidc/apple/callback/x/', '/api/login-with-oidc/providers/', '/api/login/']) {
      const response = await form(url, 'code=c&state=s');
      expect({ url, status: response.statusCode }).toEqual({ url, status: 415 });
    }
    expect((await form('/api/login-with-oidc/apple/callback/', 'code=a%00b&state=s')).json()).toEqual({ message: "The field 'code' contains a NUL character (\\u0000), which is not allowed.", code: 'VALIDATION_FAILED' });
    expect((await form('/api/login-with-oidc/apple/callback/', 'code=a&code=b')).statusCode).toBe(400);
  });

  it('parses a form into own string fields only', () => {
    const parsed = parseFormBody('code=a%2Bb+c&__proto__=x&state=%C3%A9');
    expect({ ...parsed }).toEqual({ code: 'a+b c', ['__proto__']: 'x', state: 'é' });
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(() => parseFormBody('state=1&state=2')).toThrow("The field 'state' is given more than once.");
  });

  it('refuses prototype poisoning and malformed JSON with 400', async () => {
    expect((await post('{"__proto__":{"admin":true}}', 'application/json')).statusCode).toBe(400);
    const malformed = await post('{"email":', 'application/json');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ message: 'The request body is not valid JSON.' });
  });

  it('refuses a NUL character in any field with 400 naming the field (it answered 500 on login, register, profile, share links and facts)', async () => {
    const cases: [url: string, method: 'POST' | 'PUT', body: string, field: string][] = [
      ['/api/login/', 'POST', '{"email":"a\\u0000@example.com","password":"x"}', 'email'],
      ['/api/register/', 'POST', '{"first_name":"Ana","email":"a@example.com","password":"correct horse\\u0000"}', 'password'],
      ['/api/profile/', 'PUT', '{"first_name":"A\\u0000na","phone":"+1 202 555 0143"}', 'first_name'],
      ['/api/share-links/', 'POST', '{"label":"Dr\\u0000 Lee"}', 'label'],
      ['/api/summary/facts/', 'POST', '{"section":"allergies","text":"ok","extra":[{"note":"\\u0000"}]}', 'extra[0].note'],
      ['/api/login/', 'POST', '{"em\\u0000ail":"a@example.com"}', 'email'],
    ];
    for (const [url, method, payload, field] of cases) {
      const response = await app.inject({ method, url, payload, headers: { 'content-type': 'application/json' } });
      expect({ url, status: response.statusCode, body: response.json() }).toEqual({
        url,
        status: 400,
        body: { message: `The field '${field}' contains a NUL character (\\u0000), which is not allowed.`, code: 'VALIDATION_FAILED' },
      });
    }
    expect(fieldWithNul({ a: ['ok', { b: 'x\u0000' }] })).toBe('a[1].b');
    expect(fieldWithNul({ a: ['ok', { b: 'x\u0001' }], n: 1, t: true, z: null })).toBeNull();
    expect(fieldWithNul('\u0000')).toBe('');
  });

  it('sends Cache-Control: no-store on /api answers (personal data is never cached)', async () => {
    for (const url of ['/api/profile/', '/api/history/', '/api/upload/', '/api/unknown/']) {
      expect((await app.inject({ method: 'GET', url })).headers['cache-control']).toBe('no-store');
    }
    expect((await post('{}', 'application/x-www-form-urlencoded')).headers['cache-control']).toBe('no-store');
  });

  it('sends HSTS only when the request came over https (as the trusted proxy says)', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/history/' })).headers['strict-transport-security']).toBeUndefined();
    const overHttps = await app.inject({ method: 'GET', url: '/api/history/', headers: { 'x-forwarded-proto': 'https' } });
    expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('sends no-referrer, noindex and no-store on every answer where a share id travels, whatever the outcome', async () => {
    const shareId = 'kq3C1uXW0pDq3b0F7nHqXg';
    const urls = [`/api/summary/?user=${shareId}`, `/api/summary?user=${shareId}&view_token=1.x`, '/api/summary/unlock/', '/api/summary/unlock/ (bad JSON)', `/summary/${shareId}`];
    const answers = [
      // The services are not running here: the API answers 503, and must still carry the headers.
      await app.inject({ method: 'GET', url: `/api/summary/?user=${shareId}` }),
      await app.inject({ method: 'GET', url: `/api/summary?user=${shareId}&view_token=1.x` }),
      await app.inject({ method: 'POST', url: '/api/summary/unlock/', payload: { user: shareId, passcode: 'x' } }),
      await app.inject({ method: 'POST', url: '/api/summary/unlock/', payload: '{', headers: { 'content-type': 'application/json' } }),
      await app.inject({ method: 'GET', url: `/summary/${shareId}`, headers: { accept: 'text/html' } }),
    ];
    answers.forEach((answer, i) => expect({ url: urls[i], ...pick(answer.headers) }).toEqual({ url: urls[i], ...SHARE_HEADERS }));
    expect(answers[4]!.statusCode).toBe(200);
    expect(answers[4]!.headers['content-type']).toContain('text/html');
    const elsewhere = await app.inject({ method: 'GET', url: '/about', headers: { accept: 'text/html' } });
    expect(elsewhere.headers['x-robots-tag']).toBeUndefined();
    expect(elsewhere.headers['cache-control']).toBe('no-cache');
  });

  it("sends the share headers on the summary's formats and SMART Health Link answers too", async () => {
    const q = 'user=kq3C1uXW0pDq3b0F7nHqXg&tag=' + 'A'.repeat(43);
    const requests = [
      { method: 'GET' as const, url: '/api/summary/fhir/?user=kq3C1uXW0pDq3b0F7nHqXg' },
      { method: 'GET' as const, url: '/api/summary/pdf/?user=kq3C1uXW0pDq3b0F7nHqXg&size=letter' },
      { method: 'POST' as const, url: `/api/summary/shl/?${q}`, payload: { recipient: 'Dr Lee' } },
      { method: 'GET' as const, url: `/api/summary/shl/file/?${q}&token=1.${'A'.repeat(43)}` },
    ];
    for (const request of requests) {
      const answer = await app.inject(request);
      expect({ url: request.url, ...pick(answer.headers) }).toEqual({ url: request.url, ...SHARE_HEADERS });
    }
  });
});

function pick(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.keys(SHARE_HEADERS).map((name) => [name, headers[name]]));
}
