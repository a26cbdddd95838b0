import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@medfolio/config';
import { createRpcClient, InProcessEventBus, type RpcClient } from '@medfolio/messaging';
import { loadOrCreateSigningKeys, publicJwks } from '@medfolio/security';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from './http-hardening';

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
    app = await createGatewayApp({ config, rpc, eventBus: new InProcessEventBus(), localJwks: publicJwks(await loadOrCreateSigningKeys(dataDir)), webRoot: null });
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

  it('refuses form-encoded and text bodies on JSON APIs with 415', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/xml']) {
      const response = await post('email=a%40example.com&password=x', type);
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({ message: `This API accepts JSON only (Content-Type: application/json), not ${type}.`, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
  });

  it('refuses prototype poisoning and malformed JSON with 400', async () => {
    expect((await post('{"__proto__":{"admin":true}}', 'application/json')).statusCode).toBe(400);
    const malformed = await post('{"email":', 'application/json');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ message: 'The request body is not valid JSON.' });
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
});
