import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { GoogleSignInError } from '../google/google-identity';
import type { GoogleSignInSettings } from '../google/google-sign-in-settings';

/** Largest answer accepted from Google; a profile or a token description is a few hundred bytes. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface GoogleJsonResponse {
  status: number;
  /** The parsed JSON object, or undefined when the status is not 2xx. */
  body: Record<string, unknown> | undefined;
}

/**
 * Google's sign-in endpoints: the only place identity talks to Google. The URLs are configuration
 * (tests point them at a local stand-in). Deciding what an answer means is the verifier's job.
 */
export class GoogleRepository {
  /**
   * Google's public signing keys, fetched on first use and cached by `jose` (fetched again when a
   * token names an unknown key id, at most every 30 s, so Google's key rotation needs nothing from us).
   */
  readonly signingKeys: JWTVerifyGetKey;

  constructor(private readonly settings: Pick<GoogleSignInSettings, 'jwksUrl' | 'userinfoUrl' | 'tokeninfoUrl' | 'timeoutMs'>) {
    this.signingKeys = createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: settings.timeoutMs });
  }

  /** The OpenID Connect userinfo answer for an access token. */
  userInfo(accessToken: string): Promise<GoogleJsonResponse> {
    return this.getJson(new URL(this.settings.userinfoUrl), { authorization: `Bearer ${accessToken}` });
  }

  /** What tokeninfo says about an access token; undefined when no tokeninfo URL is configured. */
  async tokenInfo(accessToken: string): Promise<GoogleJsonResponse | undefined> {
    if (!this.settings.tokeninfoUrl) return undefined;
    const url = new URL(this.settings.tokeninfoUrl);
    url.searchParams.set('access_token', accessToken);
    return this.getJson(url);
  }

  /**
   * GET a JSON object with a time limit. A failed connection, a time-out, a 5xx or an unreadable
   * answer is {@link GoogleSignInError} 'google-unreachable'; other statuses are returned so that the
   * caller decides what a 4xx means. The URL may contain a token: it is never logged or put into an error.
   */
  private async getJson(url: URL, headers: Record<string, string> = {}): Promise<GoogleJsonResponse> {
    try {
      const response = await fetch(url, {
        method: 'GET',
        headers: { accept: 'application/json', ...headers },
        redirect: 'error',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      if (response.status >= 500 || response.status === 429) {
        await response.body?.cancel();
        throw new GoogleSignInError('google-unreachable');
      }
      if (!response.ok) {
        await response.body?.cancel();
        return { status: response.status, body: undefined };
      }
      const text = await response.text();
      if (text.length > MAX_RESPONSE_BYTES) throw new GoogleSignInError('google-unreachable');
      const body: unknown = JSON.parse(text);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new GoogleSignInError('google-unreachable');
      }
      return { status: response.status, body: body as Record<string, unknown> };
    } catch (error) {
      if (error instanceof GoogleSignInError) throw error;
      // TypeError "fetch failed" (connection), TimeoutError, a body cut off, SyntaxError (not JSON).
      throw new GoogleSignInError('google-unreachable');
    }
  }
}
