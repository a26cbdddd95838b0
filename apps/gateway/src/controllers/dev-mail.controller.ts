import { isIP } from 'node:net';
import { Controller, Get, Inject, RequestMethod, Req, Res, type Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DomainError, type CallerIdentity, type DevMailEntry } from '@medfolio/contracts';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { CurrentCaller } from '../services/caller.decorator';

interface Request {
  raw: { socket: { remoteAddress?: string | undefined } };
}

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
 * It holds every account's codes and reset links, so it answers only clients on this machine
 * (the TCP peer's address, never X-Forwarded-For): anyone else gets 404, as if it did not exist.
 */
@ApiExcludeController()
@Controller('dev')
export class DevMailController {
  constructor(@Inject(NotificationsRepository) private readonly notifications: NotificationsRepository) {}

  @Get('mail.json')
  async list(@CurrentCaller() caller: CallerIdentity, @Req() request: Request, @Res() reply: Reply): Promise<void> {
    onlyFromThisMachine(request);
    const mail = await this.notifications.devMail(caller);
    reply.header('cache-control', 'no-store').header('content-type', 'application/json; charset=utf-8').send(mail);
  }

  @Get('mail')
  async page(@CurrentCaller() caller: CallerIdentity, @Req() request: Request, @Res() reply: Reply): Promise<void> {
    onlyFromThisMachine(request);
    const mail = await this.notifications.devMail(caller);
    reply.header('cache-control', 'no-store').header('content-type', 'text/html; charset=utf-8').send(renderDevMailPage(mail));
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

function onlyFromThisMachine(request: Request): void {
  if (!isLoopbackAddress(request.raw.socket.remoteAddress)) throw new DomainError('NOT_FOUND', 'Not found.');
}

/**
 * The controllers to register: the dev mailbox only in the one-process embedded mode without
 * SMTP_URL (the launcher passes `devMail: !notificationsConfig.smtpUrl`); never in service mode.
 * Even when registered, notifications answers NOT_FOUND (404 here) once SMTP_URL is set.
 */
export function devMailControllers(enabled: boolean): Type[] {
  return enabled ? [DevMailController] : [];
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (value: string) => value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);

/** Server-rendered and script-free: every value escaped; the text part of each message in <pre>. */
export function renderDevMailPage(mail: DevMailEntry[]): string {
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
  <main>
    <h1>Medfolio dev mailbox</h1>
    <p>E-mails the product sent while no SMTP server is configured, newest first (<a href="/dev/mail.json">JSON</a>). Reload for new ones.</p>
    ${items.length > 0 ? items.join('\n') : '<p class="empty">No e-mail yet.</p>'}
  </main>
</body>
</html>
`;
}

const STYLESHEET = `body { margin: 0; background: #f3f6fb; color: #1d2939; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; }
main { max-width: 760px; margin: 0 auto; padding: 24px 16px; }
h1 { color: #1f5fbf; font-size: 24px; }
article { background: #fff; border: 1px solid #e3e8f0; border-radius: 12px; padding: 16px 20px; margin: 16px 0; }
h2 { font-size: 18px; margin: 0 0 8px; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 12px; color: #667085; font-size: 14px; }
dt { font-weight: 600; }
dd { margin: 0; }
pre { white-space: pre-wrap; word-break: break-word; background: #f8fafc; border-radius: 8px; padding: 12px; margin: 0; font-size: 14px; }
.empty { color: #667085; }
`;
