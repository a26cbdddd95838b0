/**
 * Google sign-in by redirect (OAuth 2.0 for browser apps): the browser goes to Google's
 * authorization endpoint and comes back to /auth/google/callback with an access token in the URL
 * fragment, which the server checks with Google (POST /api/login-with-google/ {token}). A random
 * `state`, kept in sessionStorage, ties the answer to the request (no login CSRF).
 */
const STATE_KEY = 'medfolio.google.state';
export const GOOGLE_CALLBACK_PATH = '/auth/google/callback';

export interface GoogleStart {
  clientId: string;
  authorizationUrl: string;
  next: string;
}

export function googleAuthorizationUrl({ clientId, authorizationUrl }: GoogleStart, state: string, origin: string): string {
  const url = new URL(authorizationUrl);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', `${origin}${GOOGLE_CALLBACK_PATH}`);
  url.searchParams.set('response_type', 'token');
  url.searchParams.set('scope', 'openid email profile');
  url.searchParams.set('state', state);
  url.searchParams.set('prompt', 'select_account');
  return url.toString();
}

export function startGoogleSignIn(start: GoogleStart): void {
  const state = crypto.randomUUID();
  sessionStorage.setItem(STATE_KEY, JSON.stringify({ state, next: start.next }));
  window.location.assign(googleAuthorizationUrl(start, state, window.location.origin));
}

export type GoogleCallbackResult =
  | { kind: 'token'; token: string; next: string }
  | { kind: 'no-credential' }
  | { kind: 'failed' };

/** Reads the authorization answer from the callback URL's fragment, checking its state. */
export function readGoogleCallback(hash: string): GoogleCallbackResult {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const saved = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  let expected: { state?: string; next?: string } = {};
  try {
    expected = saved ? (JSON.parse(saved) as typeof expected) : {};
  } catch {
    expected = {};
  }
  if (params.get('error')) return { kind: 'failed' };
  if (!expected.state || params.get('state') !== expected.state) return { kind: 'failed' };
  const token = params.get('access_token') ?? params.get('id_token');
  if (!token) return { kind: 'no-credential' };
  return { kind: 'token', token, next: expected.next ?? '/' };
}
