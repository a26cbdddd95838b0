/**
 * Sign-in with a configured OpenID Connect provider (Apple, Microsoft, ...): the authorization code
 * flow with PKCE. The browser goes to the provider's authorization endpoint (its URL comes from our
 * server's configuration) with a random `state`, `nonce` and PKCE challenge, kept in sessionStorage,
 * and comes back to /auth/oidc/<provider>/callback?code=...; our server exchanges the code with the
 * verifier and checks the ID token's nonce (POST /api/login-with-oidc/<provider>/).
 *
 * A provider configured with response_mode form_post (Apple, when the e-mail or name is asked for)
 * posts its answer instead: the authorization request says `response_mode=form_post` and names the
 * gateway's /api/login-with-oidc/<provider>/callback/ as redirect_uri; the gateway answers the POST
 * with 303 to the same callback page, and the exchange sends that same redirect_uri.
 */
export interface OidcStart {
  name: string;
  authorizationUrl: string;
  clientId: string;
  scope: string;
  next: string;
  /** How the provider answers (the providers list's `response_mode`); default `query`. */
  responseMode?: 'query' | 'form_post';
}

interface Pending {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  /** The redirect_uri of the authorization request: the code exchange must send the same. */
  redirectUri: string;
}

const KEY_PREFIX = 'medfolio.oidc.';

export function oidcCallbackPath(name: string): string {
  return `/auth/oidc/${encodeURIComponent(name)}/callback`;
}

/** The gateway's route a form_post provider posts to (it sends the browser on to {@link oidcCallbackPath}). */
export function oidcFormPostPath(name: string): string {
  return `/api/login-with-oidc/${encodeURIComponent(name)}/callback/`;
}

/** The redirect_uri the provider is asked to answer at. */
export function oidcRedirectUri(start: Pick<OidcStart, 'name' | 'responseMode'>, origin: string): string {
  return `${origin}${start.responseMode === 'form_post' ? oidcFormPostPath(start.name) : oidcCallbackPath(start.name)}`;
}

/** `bytes` random bytes, base64url without padding (43 characters for 32 bytes). */
export function randomUrlSafe(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function pkceChallenge(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

export function oidcAuthorizationUrl(start: OidcStart, pending: { state: string; nonce: string; challenge: string }, origin: string): string {
  const url = new URL(start.authorizationUrl);
  url.searchParams.set('client_id', start.clientId);
  url.searchParams.set('redirect_uri', oidcRedirectUri(start, origin));
  url.searchParams.set('response_type', 'code');
  if (start.responseMode === 'form_post') url.searchParams.set('response_mode', 'form_post');
  url.searchParams.set('scope', start.scope);
  url.searchParams.set('state', pending.state);
  url.searchParams.set('nonce', pending.nonce);
  url.searchParams.set('code_challenge', pending.challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** Saves the flow's secrets for the callback page and returns the provider's authorization URL. */
export async function prepareOidcSignIn(start: OidcStart, origin: string): Promise<string> {
  const pending: Pending = { state: randomUrlSafe(16), nonce: randomUrlSafe(16), verifier: randomUrlSafe(32), next: start.next, redirectUri: oidcRedirectUri(start, origin) };
  sessionStorage.setItem(KEY_PREFIX + start.name, JSON.stringify(pending));
  return oidcAuthorizationUrl(start, { ...pending, challenge: await pkceChallenge(pending.verifier) }, origin);
}

export async function startOidcSignIn(start: OidcStart): Promise<void> {
  window.location.assign(await prepareOidcSignIn(start, window.location.origin));
}

export type OidcCallbackResult =
  | { kind: 'code'; code: string; codeVerifier: string; nonce: string; redirectUri: string; next: string }
  | { kind: 'failed' };

/** Reads the provider's answer from the callback URL's query, checking its state (used once). */
export function readOidcCallback(name: string, search: string, origin: string): OidcCallbackResult {
  const params = new URLSearchParams(search);
  const saved = sessionStorage.getItem(KEY_PREFIX + name);
  sessionStorage.removeItem(KEY_PREFIX + name);
  let pending: Partial<Pending> = {};
  try {
    pending = saved ? (JSON.parse(saved) as Partial<Pending>) : {};
  } catch {
    pending = {};
  }
  const code = params.get('code');
  if (params.get('error') || !code) return { kind: 'failed' };
  if (!pending.state || params.get('state') !== pending.state || !pending.nonce || !pending.verifier) return { kind: 'failed' };
  // The redirect_uri the authorization request used: this provider's callback page or its form_post route, on this origin.
  const formPost = oidcRedirectUri({ name, responseMode: 'form_post' }, origin);
  const redirectUri = pending.redirectUri === formPost ? formPost : oidcRedirectUri({ name, responseMode: 'query' }, origin);
  return { kind: 'code', code, codeVerifier: pending.verifier, nonce: pending.nonce, redirectUri, next: pending.next ?? '/' };
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
