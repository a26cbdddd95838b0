import type { IdentityConfig } from './config';
import { GoogleIdentityVerifier, googleSignInSettings, type GoogleVerifier } from './google';
import { OidcProviders, parseOidcProviders } from './oidc';
import { GoogleRepository } from './repositories/google.repository';
import { OidcProviderRepository } from './repositories/oidc-provider.repository';

/** How long each request to a sign-in provider (discovery, keys, token exchange) may take. */
const OIDC_TIMEOUT_MS = 5000;

/** Google sign-in from configuration; with no GOOGLE_CLIENT_IDS it answers "not configured". */
export function createGoogleVerifier(config: IdentityConfig): GoogleVerifier {
  const settings = googleSignInSettings({
    clientIds: (config.googleClientIds ?? '').split(',').map((id) => id.trim()).filter(Boolean),
    jwksUrl: config.googleJwksUrl,
    userinfoUrl: config.googleUserinfoUrl,
    tokeninfoUrl: config.googleTokeninfoUrl,
  });
  return new GoogleIdentityVerifier(settings, new GoogleRepository(settings));
}

/** The other OpenID Connect providers from OIDC_PROVIDERS (none when unset); a mistake in it stops the start. */
export function createOidcProviders(config: IdentityConfig): OidcProviders {
  return new OidcProviders(parseOidcProviders(config.oidcProviders), new OidcProviderRepository(OIDC_TIMEOUT_MS));
}
