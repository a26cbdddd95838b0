import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@medfolio/config';
import { API_ROUTES } from '@medfolio/contracts';
import { createRpcClient, InProcessEventBus } from '@medfolio/messaging';
import { HttpErrorFilter } from '@medfolio/runtime';
import { loadOrCreateSigningKeys, publicJwks, signAccessToken } from '@medfolio/security';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';
import { fastifyPath } from './table-routes';

/** Paths the gateway serves that are not part of the API: infrastructure and the signed file links. */
const NOT_API = [/^\/api\/docs/, /^\/api\/files\//, /^\/api\/health\/(live|ready)/];

describe('the route table and the gateway', () => {
  let app: NestFastifyApplication;
  const nestRoutes: { method: string; url: string }[] = [];

  beforeAll(async () => {
    Logger.overrideLogger(false);
    const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent' });
    app = await createGatewayApp({ config, rpc: createRpcClient('gateway', { timeoutMs: 1000 }), eventBus: new InProcessEventBus(), localJwks: { keys: [] }, webRoot: null });
    // Nest adds its controllers' routes at init: everything seen from here on is hand-written.
    app.getHttpAdapter().getInstance().addHook('onRoute', (route: { method: string | string[]; url: string }) => {
      for (const method of [route.method].flat()) nestRoutes.push({ method, url: route.url });
    });
    await app.init();
  });

  afterAll(() => app?.close());

  it('serves every route of the table', () => {
    const fastify = app.getHttpAdapter().getInstance();
    const missing = Object.entries(API_ROUTES).filter(([, route]) => !fastify.hasRoute({ method: route.method, url: fastifyPath(route.path).replace(/\/$/, '') }));
    expect(missing.map(([name]) => name)).toEqual([]);
  });

  it('has a hand-written controller only for the routes the table says are hand-written, and no route outside the table', () => {
    const handled = new Set(Object.values(API_ROUTES).filter((r) => !r.subject).map((r) => `${r.method} ${fastifyPath(r.path).replace(/\/$/, '')}`));
    const api = nestRoutes.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD' && !NOT_API.some((p) => p.test(r.url)));
    expect(api.length).toBeGreaterThan(5);
    const outside = api.filter((r) => !handled.has(`${r.method} ${r.url.replace(/\/$/, '')}`) && r.method !== 'OPTIONS');
    expect(outside).toEqual([]);
    const forwardedButHandWritten = Object.entries(API_ROUTES).filter(
      ([, r]) => r.subject && api.some((n) => n.method === r.method && n.url.replace(/\/$/, '') === fastifyPath(r.path).replace(/\/$/, '')),
    );
    expect(forwardedButHandWritten.map(([name]) => name)).toEqual([]);
  });

  it('answers an error once: the filter runs one time and nothing is sent twice', async () => {
    const filter = jest.spyOn(HttpErrorFilter.prototype, 'catch');
    try {
      const signedOut = await app.inject({ method: 'GET', url: '/api/profile/' });
      expect(signedOut.statusCode).toBe(401);
      expect(signedOut.json()).toEqual({ message: 'Authentication credentials were not provided or are invalid.', code: 'UNAUTHENTICATED' });
      const invalid = await app.inject({ method: 'POST', url: '/api/login/', payload: { email: '' } });
      expect(invalid.statusCode).toBe(400);
      expect(filter).toHaveBeenCalledTimes(2);
    } finally {
      filter.mockRestore();
    }
  });
});

describe('the per-provider rate limit of the table routes', () => {
  let app: NestFastifyApplication;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-provider-limit-'));
    const keys = await loadOrCreateSigningKeys(dataDir);
    const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent', DATA_DIR: dataDir, PROVIDER_RATE_LIMIT_PER_MINUTE: '2' });
    app = await createGatewayApp({ config, rpc: createRpcClient('gateway', { timeoutMs: 200 }), eventBus: new InProcessEventBus(), localJwks: publicJwks(keys), webRoot: null });
    await app.init();
    token = await signAccessToken(keys.current, { sub: randomUUID(), roles: ['patient', 'provider'], sid: randomUUID() });
  });

  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('counts per provider account, after the token check: past the limit 429 with Retry-After, and a signed-out caller is not counted', async () => {
    const call = (authorization?: string) => app.inject({ method: 'GET', url: '/api/providers/patients/', headers: authorization ? { authorization } : {} });
    for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(401);
    expect((await call(`Bearer ${token}`)).statusCode).not.toBe(429);
    expect((await call(`Bearer ${token}`)).statusCode).not.toBe(429);
    const third = await call(`Bearer ${token}`);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests from this provider account\. Please try again in \d+ seconds\.$/) });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });
});
