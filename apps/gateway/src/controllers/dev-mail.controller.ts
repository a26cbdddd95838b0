import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { Controller, Get, Inject, RequestMethod, Req, Res, type Provider, type Type } from '@nestjs/common';
import { DomainError, NOTIFICATIONS_SUBJECTS, type CallerIdentity, type DevMailEntry } from '@medfolio/contracts';
import { ServicesRepository } from '../repositories/services.repository';
import { CurrentCaller } from '../services/caller.decorator';

interface Request {
  raw: { socket: { remoteAddress?: string | undefined } };
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
}

/** The dev mailbox's secret (printed by `npm start`), injected into the controller. */
export const DEV_MAIL_KEY = Symbol('DEV_MAIL_KEY');

/** The header a script presents the dev mailbox's secret in; a browser uses `?key=` (the printed link). */
export const DEV_MAIL_KEY_HEADER = 'x-dev-mail-key';

/**
 * Headers a proxy, tunnel or load balancer adds. A request that carries any of them did not come
 * straight from a client on this machine, whatever the TCP peer says: the mailbox refuses it.
 */
export const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-forwarded-port',
  'x-forwarded-server',
  'x-real-ip',
  'x-client-ip',
  'x-original-forwarded-for',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'via',
] as const;

interface Reply {
  header(name: string, value: string): Reply;
  send(body: unknown): unknown;
}

/**
 * Outside the /api prefix, for `setGlobalPrefix('api', { exclude: [...] })` in bootstrap.ts.
 * Harmless when the controller is not registered: the paths then simply do not exist.
 */
export const DEV_MAIL_PREFIX_EXCLUDES = [
  { path: 'dev/mail', method: RequestMethod.GET },
  { path: 'dev/mail.json', method: RequestMethod.GET },
  { path: 'dev/mail.css', method: RequestMethod.GET },
];

/**
 * The embedded mode's dev mailbox: what the product "sent" while no SMTP server is configured
 * (verification codes, reset links), so a developer can sign up locally. Never cached.
 *
 * It holds every account's codes and reset links, so it answers only a request that (1) comes from
 * this machine (the TCP peer's address, never X-Forwarded-For), (2) carries no forwarding header (a
 * same-host proxy or tunnel would otherwise make every visitor look local), and (3) presents the
 * secret `npm start` prints (DEV_MAIL_KEY), as `?key=` or the X-Dev-Mail-Key header. Anything else
 * gets 404, as if the mailbox did not exist.
 */
@Controller('dev')
export class DevMailController {
  constructor(
    @Inject(ServicesRepository) private readonly services: ServicesRepository,
    @Inject(DEV_MAIL_KEY) private readonly key: string,
  ) {}

  @Get('mail.json')
  async list(@CurrentCaller() caller: CallerIdentity, @Req() request: Request, @Res() reply: Reply): Promise<void> {
    onlyTheDeveloper(request, this.key);
    const mail = await this.services.call(NOTIFICATIONS_SUBJECTS.listDevMail, {}, caller);
    reply.header('cache-control', 'no-store').header('content-type', 'application/json; charset=utf-8').send(mail);
  }

  @Get('mail')
  async page(@CurrentCaller() caller: CallerIdentity, @Req() request: Request, @Res() reply: Reply): Promise<void> {
    onlyTheDeveloper(request, this.key);
    const mail = await this.services.call(NOTIFICATIONS_SUBJECTS.listDevMail, {}, caller);
    reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('content-type', 'text/html; charset=utf-8')
      .send(renderDevMailPage(mail, this.key));
  }

  /** The page's look, as a stylesheet of our own origin: the CSP allows no inline styles. */
  @Get('mail.css')
  stylesheet(@Res() reply: Reply): void {
    reply.header('cache-control', 'no-cache').header('content-type', 'text/css; charset=utf-8').send(STYLESHEET);
  }
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback (::ffff:127.x.y.z). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  return address === '::1';
}

/** True when the request names a proxy hop (any of FORWARDING_HEADERS). */
export function isForwarded(headers: Record<string, string | string[] | undefined>): boolean {
  return FORWARDING_HEADERS.some((name) => headers[name] !== undefined);
}

/** Compares the presented secret with the expected one in constant time (both hashed to equal length). */
export function isDevMailKey(presented: unknown, key: string): boolean {
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 256 || key.length === 0) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(key));
}

function onlyTheDeveloper(request: Request, key: string): void {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const presented = request.headers[DEV_MAIL_KEY_HEADER] ?? query['key'];
  if (!isLoopbackAddress(request.raw.socket.remoteAddress) || isForwarded(request.headers) || !isDevMailKey(presented, key)) {
    throw new DomainError('NOT_FOUND', 'Not found.');
  }
}

/**
 * The controllers to register: the dev mailbox only in the one-process embedded mode without
 * SMTP_URL (the launcher passes its secret, `devMailKey`, then); never in service mode. Even when
 * registered, notifications answers NOT_FOUND (404 here) once SMTP_URL is set.
 */
export function devMailControllers(key: string | null | undefined): Type[] {
  return key ? [DevMailController] : [];
}

/** The providers the dev mailbox's controller needs (its secret); none when it is off. */
export function devMailProviders(key: string | null | undefined): Provider[] {
  return key ? [{ provide: DEV_MAIL_KEY, useValue: key }] : [];
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** Server-rendered and script-free: every value escaped; the text part of each message in <pre>. */
export function renderDevMailPage(mail: DevMailEntry[], key = ''): string {
  const items = mail.map(
    (m) => `
    <article>
      <h2>${escape(m.subject)}</h2>
      <dl>
        <dt>To</dt><dd>${escape(m.to)}</dd>
        <dt>Sent</dt><dd><time datetime="${escape(m.sent_at)}">${escape(m.sent_at)}</time></dd>
      </dl>
      <pre>${escape(m.text)}</pre>
    </article>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Medfolio dev mailbox</title>
  <link rel="stylesheet" href="/dev/mail.css">
</head>
<body>
  <header>
    <div>
      <a class="logo" href="/"><svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="${c.brand700}"/><path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#fff"/></svg><span>Medfolio</span></a>
      <a class="back" href="/otp-verify">Enter a code</a>
    </div>
  </header>
  <main>
    <h1>Dev mailbox</h1>
    <p>E-mails the product sent while no SMTP server is configured, newest first (<a href="/dev/mail.json?key=${escape(encodeURIComponent(key))}">JSON</a>). Reload for new ones.</p>
    ${items.length > 0 ? items.join('\n') : '<p class="empty">No e-mail yet.</p>'}
  </main>
</body>
</html>
`;
}

/**
 * The web app's look (apps/web/src/index.css and Tailwind's palette): its teal brand, slate greys,
 * white cards on a light background and system font, so the mailbox does not feel like another site.
 * A unit test checks the brand colours against the app's stylesheet.
 */
export const DEV_MAIL_COLOURS = {
  brand50: '#f0fdfa',
  brand700: '#0f766e',
  brand800: '#115e59',
  brand900: '#134e4a',
  slate50: '#f8fafc',
  slate200: '#e2e8f0',
  slate600: '#475569',
  slate900: '#0f172a',
} as const;
const c = DEV_MAIL_COLOURS;

const STYLESHEET = `body { margin: 0; background: ${c.slate50}; color: ${c.slate900}; font-family: ui-sans-serif, system-ui, sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'; line-height: 1.5; -webkit-font-smoothing: antialiased; }
header { background: #fff; border-bottom: 1px solid ${c.slate200}; }
header div { max-width: 72rem; margin: 0 auto; padding: 12px 16px; display: flex; align-items: center; justify-content: space-between; gap: 8px; }
.logo { display: flex; align-items: center; gap: 8px; color: ${c.brand900}; font-weight: 700; font-size: 18px; text-decoration: none; }
.logo svg { width: 32px; height: 32px; }
header a.back { color: ${c.brand800}; font-weight: 600; font-size: 14px; }
main { max-width: 48rem; margin: 0 auto; padding: 32px 16px; }
h1 { color: ${c.slate900}; font-size: 30px; font-weight: 700; margin: 0 0 8px; }
main > p { color: ${c.slate600}; }
a { color: ${c.brand800}; }
a:focus-visible { outline: 3px solid #0d9488; outline-offset: 2px; }
article { background: #fff; border-radius: 16px; box-shadow: 0 1px 2px rgb(0 0 0 / 0.05); outline: 1px solid ${c.slate200}; padding: 20px 24px; margin: 16px 0; }
h2 { font-size: 18px; font-weight: 600; margin: 0 0 8px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 12px; color: ${c.slate600}; font-size: 14px; }
dt { font-weight: 600; }
dd { margin: 0; overflow-wrap: anywhere; }
pre { white-space: pre-wrap; word-break: break-word; background: ${c.brand50}; border-left: 4px solid ${c.brand700}; border-radius: 8px; padding: 12px; margin: 0; font-size: 14px; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.empty { color: ${c.slate600}; background: #fff; border-radius: 16px; outline: 1px solid ${c.slate200}; padding: 24px; }
`;
