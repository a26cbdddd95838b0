import { isIP } from 'node:net';
import type { PublicUrlSettings } from './concerns';

/**
 * The one base URL of every link the product writes (e-mails, referral links, share links, the SHL
 * payload's `url` and its manifest's file locations, the wallet pass's web service), in this order:
 *
 *   1. PUBLIC_BASE_URL, when set: the address users' browsers see (a proxy, an ingress, https).
 *   2. Otherwise where the product was started: `http://<host>:<port>` with the port it listens on
 *      and the host it listens on (`localhost` for a wildcard or loopback address, since a browser
 *      on this machine is the only one such a run is known to serve).
 *
 * `npm start` (apps/medfolio) applies this to every service once its gateway listens. A service run
 * on its own (service mode) listens on its own port, not the gateway's, so it cannot know the second;
 * there PUBLIC_BASE_URL is what counts (the chart and docker compose set it).
 */
export function publicBaseUrlOf(env: NodeJS.ProcessEnv, listening: { host: string; port: number }): string {
  const given = env['PUBLIC_BASE_URL']?.trim();
  if (given) return withoutTrailingSlash(given);
  return `http://${linkHost(listening.host)}:${listening.port}`;
}

/** How a browser names the host the product listens on. */
export function linkHost(host: string): string {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (bare === '' || bare === 'localhost' || isWildcardOrLoopback(bare)) return 'localhost';
  if (isIP(bare) === 6) return `[${bare}]`;
  // The URL goes into e-mails' HTML: a host name or an address, nothing else.
  if (isIP(bare) === 4 || /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*$/.test(bare)) return bare;
  throw new Error('HOST must be a host name or an IP address (it names the links the product writes unless PUBLIC_BASE_URL is set)');
}

/** Whether a loaded config writes links (composes WithPublicUrl). */
export function writesLinks(config: object): config is PublicUrlSettings {
  return typeof (config as Partial<PublicUrlSettings>).publicBaseUrl === 'string';
}

function isWildcardOrLoopback(address: string): boolean {
  if (address === '0.0.0.0' || address === '::' || address === '::1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address)) return true;
  return /^::ffff:(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|0\.0\.0\.0)$/i.test(address);
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
