import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { OidcSignInError } from '../oidc/oidc-errors';

/** Largest JSON answer accepted from a provider (a discovery document or a token answer is a few KB). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface OidcJsonResponse {
  status: number;
  /** The parsed JSON object, or undefined when the status is a 4xx. */
  body: Record<string, unknown> | undefined;
}

/**
 * The OpenID Connect providers' endpoints: the only place identity talks to them. The URLs come
 * from configuration (the issuer) and the provider's discovery document, never from a request;
 * checking what an answer says (issuer, endpoints, the ID token) is {@link OidcClient}'s job.
 */
export class OidcProviderRepository {
  private readonly keySets = new Map<string, JWTVerifyGetKey>();

  constructor(private readonly timeoutMs: number) {}

  /** `<issuer>/.well-known/openid-configuration`; a provider that cannot answer is 'provider-unreachable'. */
  async discoveryDocument(issuer: string): Promise<Record<string, unknown>> {
    const { status, body } = await this.request(`${issuer}/.well-known/openid-configuration`, { method: 'GET' });
    if (status >= 400 || body === undefined) throw new OidcSignInError('provider-unreachable');
    return body;
  }

  /** POSTs a form to the token endpoint (the code exchange); a 4xx is returned with no body. */
  tokenRequest(tokenEndpoint: string, form: URLSearchParams): Promise<OidcJsonResponse> {
    return this.request(tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  }

  /** The provider's signing keys at `jwksUri`, fetched on first use and cached by `jose` (one set per URI). */
  keySet(jwksUri: string): JWTVerifyGetKey {
    let keys = this.keySets.get(jwksUri);
    if (keys === undefined) {
      keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: this.timeoutMs });
      this.keySets.set(jwksUri, keys);
    }
    return keys;
  }

  /** A JSON request with a time limit; never logs or returns the body of a failure (it may hold a code). */
  private async request(url: string, init: RequestInit): Promise<OidcJsonResponse> {
    try {
      const response = await fetch(url, { ...init, headers: { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) }, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
      if (response.status >= 500 || response.status === 429) {
        await response.body?.cancel();
        throw new OidcSignInError('provider-unreachable');
      }
      if (!response.ok) {
        await response.body?.cancel();
        return { status: response.status, body: undefined };
      }
      const text = await response.text();
      if (text.length > MAX_RESPONSE_BYTES) throw new OidcSignInError('provider-unreachable');
      const body: unknown = JSON.parse(text);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OidcSignInError('provider-unreachable');
      return { status: response.status, body: body as Record<string, unknown> };
    } catch (error) {
      if (error instanceof OidcSignInError) throw error;
      throw new OidcSignInError('provider-unreachable');
    }
  }
}
