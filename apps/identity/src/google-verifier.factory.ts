import type { IdentityConfig } from './config';
import { GoogleIdentityVerifier, googleSignInSettings } from './google';
import { OidcProviders, parseOidcProviders } from './oidc';
import type { GoogleVerifier } from './repositories/google.repository';

/** Google sign-in from configuration; with no GOOGLE_CLIENT_IDS it answers "not configured". */
export function createGoogleVerifier(config: IdentityConfig): GoogleVerifier {
  return new GoogleIdentityVerifier(
    googleSignInSettings({
      clientIds: (config.googleClientIds ?? '').split(',').map((id) => id.trim()).filter(Boolean),
      jwksUrl: config.googleJwksUrl,
      userinfoUrl: config.googleUserinfoUrl,
      tokeninfoUrl: config.googleTokeninfoUrl,
    }),
  );
}

/** The other OpenID Connect providers from OIDC_PROVIDERS (none when unset); a mistake in it stops the start. */
export function createOidcProviders(config: IdentityConfig): OidcProviders {
  return new OidcProviders(parseOidcProviders(config.oidcProviders), { timeoutMs: 5000 });
}
