import { randomUUID } from 'node:crypto';
import { loadOrCreateSigningKeys, signAccessToken } from '@medfolio/security';

export interface Reply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export async function get<T = unknown>(url: string, token?: string): Promise<Reply<T>> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, body: body as T, headers: response.headers };
}

/** An access token for `userId`, signed with the key ring the product uses in DATA_DIR (until identity issues them). */
export async function tokenFor(dataDir: string, userId: string): Promise<string> {
  const ring = await loadOrCreateSigningKeys(dataDir);
  return signAccessToken(ring.current, { sub: userId, roles: ['patient'], sid: randomUUID() });
}
