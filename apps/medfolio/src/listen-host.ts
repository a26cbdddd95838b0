import { randomBytes } from 'node:crypto';
import { isLoopbackAddress } from '@medfolio/gateway-app';

/**
 * Where `npm start` listens. The one-process mode is for a developer's own machine and, without
 * SMTP_URL, serves every account's codes and reset links at /dev/mail: so it listens on loopback
 * unless HOST says otherwise. Kubernetes runs the services' own mains, which keep HOST's 0.0.0.0.
 */
export function embeddedListenHost(env: NodeJS.ProcessEnv): string {
  const host = env['HOST']?.trim();
  return host ? host : '127.0.0.1';
}

/** The start-up warning for a HOST that other machines can reach while the dev mailbox is on, or null. */
export function exposedDevMailWarning(host: string, devMail: boolean): string | null {
  if (!devMail || host === 'localhost' || isLoopbackAddress(host)) return null;
  return (
    `Warning: HOST=${host} lets other machines reach this server while the dev mailbox is on (no SMTP_URL). ` +
    'The mailbox itself answers only requests from this machine, with no proxy header, that carry the secret printed above; still, set SMTP_URL before sharing the server.\n'
  );
}

/**
 * The dev mailbox's secret for this run: DEV_MAIL_KEY when set (at least 16 characters; test
 * harnesses set it so they can read the mailbox), otherwise random. `npm start` prints the
 * mailbox's link with it; a request without it gets 404 even from this machine.
 */
export function devMailKey(env: NodeJS.ProcessEnv): string {
  const given = env['DEV_MAIL_KEY']?.trim();
  if (!given) return randomBytes(18).toString('base64url');
  if (given.length < 16 || !/^[A-Za-z0-9._~-]+$/.test(given)) {
    throw new Error('DEV_MAIL_KEY must be at least 16 characters of letters, digits, ".", "_", "~" or "-"');
  }
  return given;
}
