import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Controller, Logger, Module, UseFilters, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@medfolio/config';
import { DomainError, NOTIFICATIONS_SUBJECTS, type CallerIdentity, type DevMailEntry } from '@medfolio/contracts';
import { Caller, createRpcClient, InProcessEventBus, InProcessServer, RpcErrorFilter } from '@medfolio/messaging';
import { createGatewayApp } from '../bootstrap';
import { GatewayConfig } from '../config';
import { FORWARDING_HEADERS } from './dev-mail.controller';

/** A stand-in for notifications behind the request/reply client. */
class FakeNotifications {
  readonly contacts: [unknown, CallerIdentity][] = [];
  mailbox: DevMailEntry[] | DomainError = [];
}
let current = new FakeNotifications();

@Controller()
@UseFilters(RpcErrorFilter)
class FakeNotificationsRpc {
  @MessagePattern(NOTIFICATIONS_SUBJECTS.submitContact)
  submit(@Payload() form: unknown, @Caller() caller: CallerIdentity) {
    current.contacts.push([form, caller]);
    return { message: 'Thank you! Your message has been sent.' };
  }

  @MessagePattern(NOTIFICATIONS_SUBJECTS.listDevMail)
  devMail(): DevMailEntry[] {
    if (current.mailbox instanceof DomainError) throw current.mailbox;
    return current.mailbox;
  }
}

@Module({ controllers: [FakeNotificationsRpc] })
class FakeNotificationsModule {}

let service: INestMicroservice | undefined;
let dataDir: string;
const apps: NestFastifyApplication[] = [];

beforeAll(async () => {
  Logger.overrideLogger(false);
  dataDir = await mkdtemp(path.join(tmpdir(), 'gateway-notifications-'));
  service = await NestFactory.createMicroservice(FakeNotificationsModule, { strategy: new InProcessServer(), logger: false });
  await service.listen();
});

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  await service?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** The real gateway (routes from the table, the dev mailbox when a key is given) in front of the stand-in. */
async function gateway(fake: FakeNotifications, devMailKey: string | null): Promise<NestFastifyApplication> {
  current = fake;
  const config = loadConfig(GatewayConfig, { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SERVICES: 'notifications' });
  const rpc = createRpcClient('gateway', { timeoutMs: 2000 });
  const app = await createGatewayApp({ config, rpc, eventBus: new InProcessEventBus(), localJwks: { keys: [] }, devMailKey, webRoot: null });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  apps.push(app);
  return app;
}

const valid = { firstname: 'Ada', lastname: 'Lovelace', email: 'ada@example.com', message: 'Please call me back.' };

describe('POST /api/contact/', () => {
  let fake: FakeNotifications;
  let app: NestFastifyApplication;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(async () => {
    fake = new FakeNotifications();
    app = await gateway(fake, null);
  });

  afterEach(() => app.close());

  const post = (body: unknown) => app.inject({ method: 'POST', url: '/api/contact/', payload: body as Record<string, unknown> });

  it('needs no sign-in, passes the trimmed form on and answers 200 with the thanks', async () => {
    const response = await post({ ...valid, firstname: '  Ada  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Thank you! Your message has been sent.' });
    expect(fake.contacts).toHaveLength(1);
    const [form, caller] = fake.contacts[0]!;
    expect({ ...(form as object) }).toEqual(valid);
    expect(caller).toMatchObject({ roles: [] });
    expect(caller.userId).toBeUndefined();
  });

  it.each([
    [{ ...valid, firstname: undefined }, 'Firstname is required'],
    [{ ...valid, firstname: 'x'.repeat(101) }, 'Limit exceeded (100 characters)'],
    [{ ...valid, lastname: '' }, 'Lastname is required'],
    [{ ...valid, lastname: 'x'.repeat(101) }, 'Limit exceeded (100 characters)'],
    [{ ...valid, email: '' }, 'Email is required'],
    [{ ...valid, email: 'ada-at-example' }, 'Invalid email'],
    [{ ...valid, email: `${'a'.repeat(60)}@${'b'.repeat(40)}.com` }, 'Limit exceeded (100 characters)'],
    [{ ...valid, message: '   ' }, 'Message is required'],
    [{ ...valid, message: 'x'.repeat(201) }, 'Limit exceeded (200 characters)'],
    [{}, 'Firstname is required'],
  ])('%#: 400 with the exact message "%s"', async (body, message) => {
    const response = await post(body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, code: 'VALIDATION_FAILED' });
    expect(fake.contacts).toEqual([]);
  });

  it('is throttled at 10 a minute per client', async () => {
    for (let i = 0; i < 10; i++) expect((await post(valid)).statusCode).toBe(200);
    const eleventh = await post(valid);
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('has no dev mailbox unless enabled', async () => {
    for (const url of ['/dev/mail', '/dev/mail.json', '/dev/mail.css', '/api/dev/mail']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});

describe('GET /dev/mail and /dev/mail.json (embedded mode without SMTP_URL)', () => {
  let fake: FakeNotifications;
  let app: NestFastifyApplication;
  const hostile: DevMailEntry = {
    to: 'ada@example.com',
    subject: 'New contact message from <script>alert(1)</script>',
    text: 'Hello <img src=x onerror=alert(1)> & "you"\nsecond line',
    html: '<p>html</p>',
    sent_at: '2026-01-02T03:04:05.000Z',
  };

  const key = 'the-secret-npm-start-printed';

  beforeEach(async () => {
    fake = new FakeNotifications();
    app = await gateway(fake, key);
  });

  afterEach(() => app.close());

  it('serves the mailbox as JSON outside /api, never cached', async () => {
    fake.mailbox = [hostile];
    const response = await app.inject({ method: 'GET', url: `/dev/mail.json?key=${key}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual([hostile]);
    expect((await app.inject({ method: 'GET', url: `/api/dev/mail.json?key=${key}` })).statusCode).toBe(404);
  });

  it('answers only with the secret printed at start (as ?key= or X-Dev-Mail-Key): without it, or with another, 404', async () => {
    fake.mailbox = [hostile];
    for (const url of ['/dev/mail', '/dev/mail.json']) {
      expect((await app.inject({ method: 'GET', url: `${url}?key=${key}` })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url, headers: { 'x-dev-mail-key': key } })).statusCode).toBe(200);
      for (const wrong of [`${url}`, `${url}?key=`, `${url}?key=${key}x`, `${url}?key=${key.slice(0, -1)}`, `${url}?key[]=${key}`]) {
        const response = await app.inject({ method: 'GET', url: wrong });
        expect([wrong, response.statusCode]).toEqual([wrong, 404]);
        expect(response.body).not.toContain('ada@example.com');
      }
      expect((await app.inject({ method: 'GET', url, headers: { 'x-dev-mail-key': 'guess-guess-guess' } })).statusCode).toBe(404);
    }
  });

  it('refuses a request that came through a proxy or tunnel on this machine (any forwarding header), secret or not', async () => {
    fake.mailbox = [hostile];
    for (const header of FORWARDING_HEADERS) {
      for (const url of ['/dev/mail', '/dev/mail.json']) {
        const response = await app.inject({ method: 'GET', url: `${url}?key=${key}`, remoteAddress: '127.0.0.1', headers: { [header]: '127.0.0.1' } });
        expect([header, url, response.statusCode]).toEqual([header, url, 404]);
        expect(response.body).not.toContain('ada@example.com');
      }
    }
  });

  it('renders a readable page with every value escaped, and nothing inline the CSP would block', async () => {
    fake.mailbox = [hostile, { ...hostile, subject: 'Your Medfolio verification code', text: 'code 4821' }];
    const response = await app.inject({ method: 'GET', url: `/dev/mail?key=${key}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['content-security-policy']).toContain("style-src 'self'");
    const html = response.body;
    expect(html).toContain('<h2>New contact message from &lt;script&gt;alert(1)&lt;/script&gt;</h2>');
    expect(html).toContain('<pre>Hello &lt;img src=x onerror=alert(1)&gt; &amp; &quot;you&quot;\nsecond line</pre>');
    expect(html).toContain('<dd>ada@example.com</dd>');
    expect(html).toContain('<time datetime="2026-01-02T03:04:05.000Z">');
    expect(html.indexOf('<script>alert')).toBe(-1);
    expect(html).not.toMatch(/<(script|style)\b/i); // no inline script or style element
    expect(html).not.toMatch(/<[^>]*\s(on[a-z]+|style)=/i); // no handler or style attribute in any tag
    expect(html.indexOf('New contact message')).toBeLessThan(html.indexOf('verification code'));
    expect(html).toContain('<link rel="stylesheet" href="/dev/mail.css">');
    expect(html).toContain(`<a href="/dev/mail.json?key=${key}">JSON</a>`);

    const css = await app.inject({ method: 'GET', url: '/dev/mail.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers only clients on this machine: anyone else on the network gets 404 (it holds every code and reset link)', async () => {
    fake.mailbox = [hostile];
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect((await app.inject({ method: 'GET', url: `/dev/mail.json?key=${key}`, remoteAddress })).statusCode).toBe(200);
    }
    for (const remoteAddress of ['192.0.2.7', '::ffff:192.0.2.7', '2001:db8::1', '10.0.0.2']) {
      for (const url of ['/dev/mail', '/dev/mail.json']) {
        const response = await app.inject({ method: 'GET', url: `${url}?key=${key}`, remoteAddress });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('ada@example.com');
      }
    }
  });

  it('says so when the mailbox is empty', async () => {
    expect((await app.inject({ method: 'GET', url: `/dev/mail?key=${key}` })).body).toContain('No e-mail yet.');
  });

  it('is a 404 when notifications sends over SMTP', async () => {
    fake.mailbox = new DomainError('NOT_FOUND', 'Not found.');
    const response = await app.inject({ method: 'GET', url: `/dev/mail.json?key=${key}` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.', code: 'NOT_FOUND' });
    expect((await app.inject({ method: 'GET', url: `/dev/mail?key=${key}` })).statusCode).toBe(404);
  });
});
