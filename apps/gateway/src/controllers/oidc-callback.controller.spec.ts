import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@medfolio/config';
import { createRpcClient, InProcessEventBus, type RpcClient } from '@medfolio/messaging';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';
import { formPostRedirect } from './oidc-callback.controller';

/** The real gateway (no services behind it: this route asks none). */
let app: NestFastifyApplication;
let rpc: RpcClient;

beforeAll(async () => {
  Logger.overrideLogger(false);
  rpc = createRpcClient('gateway', { timeoutMs: 500 });
  const config = loadConfig(GatewayConfig, { LOG_LEVEL: 'silent' });
  app = await createGatewayApp({ config, rpc, eventBus: new InProcessEventBus(), localJwks: { keys: [] }, webRoot: null });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
});

afterAll(async () => {
  await app.close();
  await rpc.close();
});

const post = (provider: string, form: string | URLSearchParams, contentType = 'application/x-www-form-urlencoded') =>
  app.inject({ method: 'POST', url: `/api/login-with-oidc/${provider}/callback/`, payload: form.toString(), headers: { 'content-type': contentType } });

describe("POST /api/login-with-oidc/{provider}/callback/ (a provider's form POST)", () => {
  it("answers 303 to the web app's callback page with the code and state, and no body to cache", async () => {
    const answer = await post('apple', new URLSearchParams({ code: 'c.0-abc_def', state: 'Xy_z-123', iss: 'https://appleid.apple.com' }));
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/auth/oidc/apple/callback?code=c.0-abc_def&state=Xy_z-123');
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it("drops Apple's user field (the name at the first sign-in) and every other field", async () => {
    const user = JSON.stringify({ name: { firstName: 'Ada', lastName: 'Byron' }, email: 'ada@example.com' });
    const answer = await post('apple', new URLSearchParams({ code: 'c1', state: 's1', user, id_token: 'a.b.c' }));
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/auth/oidc/apple/callback?code=c1&state=s1');
  });

  it('passes an error on (a cancelled sign-in), and a value that is not an error code as access_denied', async () => {
    expect((await post('apple', 'error=user_cancelled_authorize&state=s1')).headers.location).toBe('/auth/oidc/apple/callback?error=user_cancelled_authorize&state=s1');
    expect((await post('apple', 'error=%3Cscript%3Ealert(1)%3C%2Fscript%3E&code=c1')).headers.location).toBe('/auth/oidc/apple/callback?error=access_denied');
  });

  it('escapes every value it passes on: nothing the provider or anyone else posts lands in the Location unescaped', async () => {
    const answer = await post('apple', new URLSearchParams({ code: 'a&next=//evil.example#x', state: '"><script>\r\nSet-Cookie: x=1' }));
    expect(answer.statusCode).toBe(303);
    const location = String(answer.headers.location);
    expect(location.startsWith('/auth/oidc/apple/callback?')).toBe(true);
    expect(location).not.toMatch(/[<>"\r\n#\s]|&next=/);
    const query = new URL(location, 'https://app.example').searchParams;
    expect([...query.keys()]).toEqual(['code', 'state']);
    expect(query.get('code')).toBe('a&next=//evil.example#x');
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a provider name that is not lower-case letters, digits and dashes (at most 40) with 400', async () => {
    for (const provider of ['Apple', 'a%2Fb', 'a.b', 'x'.repeat(41), 'a%0D%0Ab', 'a%20b']) {
      const answer = await post(provider, 'code=c&state=s');
      expect({ provider, status: answer.statusCode, location: answer.headers.location }).toEqual({ provider, status: 400, location: undefined });
    }
    expect((await post('%2E%2E', 'code=c')).headers.location).toBeUndefined();
    expect((await post('apple', 'code=c')).statusCode).toBe(303);
    expect((await post('my-idp-2', 'code=c')).headers.location).toBe('/auth/oidc/my-idp-2/callback?code=c');
  });

  it('refuses a form with neither code nor error, an over-long code or state, JSON or text (415), and no body (400)', async () => {
    const noCode = await post('apple', 'state=s');
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json()).toEqual({ message: 'Sign-in failed: the provider sent neither a code nor an error.', code: 'VALIDATION_FAILED' });
    expect((await post('apple', `code=${'c'.repeat(2049)}`)).statusCode).toBe(400);
    expect((await post('apple', `code=c&state=${'s'.repeat(513)}`)).statusCode).toBe(400);
    const json = await post('apple', '{"code":"c"}', 'application/json');
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ message: 'This route takes a form (Content-Type: application/x-www-form-urlencoded), not application/json.' });
    expect((await post('apple', 'code=c', 'text/plain')).statusCode).toBe(415);
    expect((await app.inject({ method: 'POST', url: '/api/login-with-oidc/apple/callback/' })).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: '/api/login-with-oidc/apple/callback/?code=c' })).statusCode).toBe(404);
  });
});

describe('formPostRedirect', () => {
  it('builds the callback page address from the form alone', () => {
    expect(formPostRedirect('microsoft', { code: 'a b', state: 'é' })).toBe('/auth/oidc/microsoft/callback?code=a+b&state=%C3%A9');
    expect(formPostRedirect('apple', { error: 'access_denied', code: 'ignored' })).toBe('/auth/oidc/apple/callback?error=access_denied');
    expect(() => formPostRedirect('apple', undefined)).toThrow('Sign-in failed: the provider sent neither a code nor an error.');
  });
});
