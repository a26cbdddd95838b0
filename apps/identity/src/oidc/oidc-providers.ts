import { OidcClient, type OidcClientOptions, type OidcIdentity, type OidcProviderStart } from './oidc-client';
import { OidcSignInError } from './oidc-errors';
import type { OidcProviderRepository } from '../repositories/oidc-provider.repository';
import type { OidcProviderSettings } from './oidc-settings';

export const OIDC_PROVIDERS = Symbol('OIDC_PROVIDERS');

/** The configured OpenID Connect providers by name. */
export class OidcProviders {
  private readonly clients: Map<string, OidcClient>;

  constructor(settings: readonly OidcProviderSettings[], provider: OidcProviderRepository, options: OidcClientOptions = {}) {
    this.clients = new Map(settings.map((s) => [s.name, new OidcClient(s, provider, options)]));
  }

  /** The providers whose discovery answers; one that cannot be reached is left out, not an error. */
  async list(): Promise<OidcProviderStart[]> {
    const starts = await Promise.allSettled([...this.clients.values()].map((client) => client.start()));
    return starts.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  }

  async signIn(provider: string, input: { code: string; codeVerifier: string; nonce: string; redirectUri: string }): Promise<OidcIdentity> {
    const client = this.clients.get(provider);
    if (client === undefined) throw new OidcSignInError('unknown-provider');
    if (!isCallbackUri(input.redirectUri, provider)) throw new OidcSignInError('bad-redirect');
    return client.signIn(input);
  }
}

/** The web app's callback page for this provider, on an https origin (or http on loopback in development). */
export function isCallbackUri(text: string, provider: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return (url.protocol === 'https:' || local) && url.pathname === `/auth/oidc/${provider}/callback` && url.search === '' && url.hash === '' && !url.username && !url.password;
}
