import { OidcClient, type OidcClientOptions, type OidcIdentity, type OidcProviderStart } from './oidc-client';
import { OidcSignInError } from './oidc-errors';
import type { OidcProviderRepository } from '../repositories/oidc-provider.repository';
import type { OidcProviderSettings, OidcResponseMode } from './oidc-settings';

export const OIDC_PROVIDERS = Symbol('OIDC_PROVIDERS');

/** The configured OpenID Connect providers by name. */
export class OidcProviders {
  private readonly clients: Map<string, OidcClient>;
  private readonly responseModes: Map<string, OidcResponseMode>;

  constructor(settings: readonly OidcProviderSettings[], provider: OidcProviderRepository, options: OidcClientOptions = {}) {
    this.clients = new Map(settings.map((s) => [s.name, new OidcClient(s, provider, options)]));
    this.responseModes = new Map(settings.map((s) => [s.name, s.responseMode]));
  }

  /** The providers whose discovery answers; one that cannot be reached is left out, not an error. */
  async list(): Promise<OidcProviderStart[]> {
    const starts = await Promise.allSettled([...this.clients.values()].map((client) => client.start()));
    return starts.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  }

  async signIn(provider: string, input: { code: string; codeVerifier: string; nonce: string; redirectUri: string }): Promise<OidcIdentity> {
    const client = this.clients.get(provider);
    if (client === undefined) throw new OidcSignInError('unknown-provider');
    if (!isCallbackUri(input.redirectUri, provider, this.responseModes.get(provider))) throw new OidcSignInError('bad-redirect');
    return client.signIn(input);
  }
}

/**
 * The web app's callback page for this provider, on an https origin (or http on loopback in
 * development); for a form_post provider also the gateway's callback route, which takes the
 * provider's form POST and sends the browser on to that page. The code exchange sends the
 * redirect_uri of the authorization request, which the provider compares with its own record.
 */
export function isCallbackUri(text: string, provider: string, responseMode: OidcResponseMode = 'query'): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!(url.protocol === 'https:' || local) || url.search !== '' || url.hash !== '' || url.username || url.password) return false;
  if (url.pathname === `/auth/oidc/${provider}/callback`) return true;
  return responseMode === 'form_post' && url.pathname === `/api/login-with-oidc/${provider}/callback/`;
}
