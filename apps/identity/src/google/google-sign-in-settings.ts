/**
 * Where and how "Sign in with Google" is checked. The URLs are configuration so that tests (and
 * the system tests) can point them at a local fake server: nothing here reaches the internet in CI.
 */
export interface GoogleSignInSettings {
  /**
   * OAuth client ids of our own web/mobile apps. A token is accepted only when it was issued for one
   * of them (ID token `aud`, access token `aud`/`azp`). Empty: Google sign-in is switched off.
   */
  clientIds: string[];
  /** Google's public signing keys (JWKS) for ID tokens. */
  jwksUrl: string;
  /** OpenID Connect userinfo endpoint, called with an access token to read the profile. */
  userinfoUrl: string;
  /**
   * Token introspection for access tokens (`?access_token=`). Without it an access token issued to
   * ANY app (e.g. a game the user signed in to) would log in here, so it is on by default.
   * Absent or empty: not checked (only for a provider without such an endpoint).
   */
  tokeninfoUrl?: string;
  /** Accepted ID token issuers. Google uses both spellings. */
  issuers: string[];
  /** Time limit of each call to Google (JWKS, userinfo, tokeninfo). */
  timeoutMs: number;
}

export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
export const GOOGLE_USERINFO_URL = 'https://openidconnect.googleapis.com/v1/userinfo';
export const GOOGLE_TOKENINFO_URL = 'https://oauth2.googleapis.com/tokeninfo';
export const GOOGLE_ISSUERS: readonly string[] = ['https://accounts.google.com', 'accounts.google.com'];

/** Google's real endpoints; no client id, so sign-in stays off until one is configured. */
export const DEFAULT_GOOGLE_SIGN_IN_SETTINGS: Readonly<GoogleSignInSettings> = Object.freeze({
  clientIds: [],
  jwksUrl: GOOGLE_JWKS_URL,
  userinfoUrl: GOOGLE_USERINFO_URL,
  tokeninfoUrl: GOOGLE_TOKENINFO_URL,
  issuers: [...GOOGLE_ISSUERS],
  timeoutMs: 5000,
});

/**
 * The defaults with the given fields replaced (undefined fields keep their default), e.g.
 * `googleSignInSettings({ clientIds: config.googleClientIds })`.
 */
export function googleSignInSettings(overrides: Partial<GoogleSignInSettings> = {}): GoogleSignInSettings {
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return {
    ...DEFAULT_GOOGLE_SIGN_IN_SETTINGS,
    clientIds: [...DEFAULT_GOOGLE_SIGN_IN_SETTINGS.clientIds],
    issuers: [...DEFAULT_GOOGLE_SIGN_IN_SETTINGS.issuers],
    ...defined,
  };
}
