import helmet from '@fastify/helmet';
import { Logger, Module, RequestMethod, type Type } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { DomainError, type CallerIdentity, type DevMailEntry } from '@medfolio/contracts';
import { createValidationPipe } from '@medfolio/messaging';
import { HttpErrorFilter } from '@medfolio/runtime';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { ContactController } from './contact.controller';
import { DEV_MAIL_PREFIX_EXCLUDES, FORWARDING_HEADERS, devMailControllers, devMailProviders } from './dev-mail.controller';

/** A stand-in for notifications behind the request/reply client. */
class FakeNotifications {
  readonly contacts: [unknown, CallerIdentity][] = [];
  mailbox: DevMailEntry[] | DomainError = [];

  async submitContact(form: unknown, caller: CallerIdentity) {
    this.contacts.push([form, caller]);
    return { message: 'Thank you! Your message has been sent.' };
  }

  async devMail(): Promise<DevMailEntry[]> {
    if (this.mailbox instanceof DomainError) throw this.mailbox;
    return this.mailbox;
  }
}

/** The gateway's HTTP setup as bootstrap.ts and app.module.ts make it, with these two controllers. */
async function gateway(fake: FakeNotifications, devMailKey: string | null): Promise<NestFastifyApplication> {
  const controllers: Type[] = [ContactController, ...devMailControllers(devMailKey)];
  @Module({
    imports: [ThrottlerModule.forRoot({ throttlers: [{ name: 'per-client', ttl: 60_000, limit: 300 }] })],
    controllers,
    providers: [
      { provide: NotificationsRepository, useValue: fake },
      { provide: APP_GUARD, useClass: ThrottlerGuard },
      { provide: APP_FILTER, useClass: HttpErrorFilter },
      { provide: APP_PIPE, useValue: createValidationPipe() },
      ...devMailProviders(devMailKey),
    ],
  })
  class TestGatewayModule {}
  const app = await NestFactory.create<NestFastifyApplication>(TestGatewayModule, new FastifyAdapter({ routerOptions: { ignoreTrailingSlash: true } }), {
    logger: false,
  });
  await app.register(helmet, { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'"] } } });
  app.setGlobalPrefix('api', { exclude: [{ path: 'health/live', method: RequestMethod.GET }, ...DEV_MAIL_PREFIX_EXCLUDES] });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
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
