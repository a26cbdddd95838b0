import { randomUUID } from 'node:crypto';
import { loadOrCreateSigningKeys, signAccessToken } from '@medfolio/security';
import { call, type Reply } from './journey';

/** GET `url` (with `token` as a bearer token, if any): the status, the body (JSON when it parses, else the text) and the headers. */
export function get<T = unknown>(url: string, token?: string): Promise<Reply<T>> {
  return call<T>(url, 'GET', '', undefined, token);
}

/** An access token for `userId`, signed with the key ring the product uses in DATA_DIR (until identity issues them). */
export async function tokenFor(dataDir: string, userId: string): Promise<string> {
  const ring = await loadOrCreateSigningKeys(dataDir);
  return signAccessToken(ring.current, { sub: userId, roles: ['patient'], sid: randomUUID() });
}
