import Cookies from 'js-cookie';

/**
 * The session lives in two cookies, exactly as the product's contract says: access_token and
 * refresh_token, path /, Secure, SameSite=Strict. The access token is short-lived (15 min, a
 * browser-session cookie); the refresh token keeps the user signed in across browser restarts
 * for as long as the server honours it (30 days).
 */
export const ACCESS_COOKIE = 'access_token';
export const REFRESH_COOKIE = 'refresh_token';
const REFRESH_DAYS = 30;
const attributes = { path: '/', secure: true, sameSite: 'Strict' } as const;

export interface TokenPair {
  access: string;
  refresh: string;
}

export function accessToken(): string | undefined {
  return Cookies.get(ACCESS_COOKIE);
}

export function refreshToken(): string | undefined {
  return Cookies.get(REFRESH_COOKIE);
}

export function storeTokens(tokens: Partial<TokenPair>): void {
  if (tokens.access) Cookies.set(ACCESS_COOKIE, tokens.access, attributes);
  if (tokens.refresh) Cookies.set(REFRESH_COOKIE, tokens.refresh, { ...attributes, expires: REFRESH_DAYS });
}

export function clearTokens(): void {
  Cookies.remove(ACCESS_COOKIE, { path: '/' });
  Cookies.remove(REFRESH_COOKIE, { path: '/' });
}
