export { OidcClient, identityFromClaims } from './oidc-client';
export type { OidcClientOptions, OidcIdentity, OidcProviderStart } from './oidc-client';
export { OidcSignInError, OIDC_EMAIL_NOT_VERIFIED, OIDC_SIGN_IN_FAILED, OIDC_UNAVAILABLE, OIDC_UNKNOWN_PROVIDER } from './oidc-errors';
export type { OidcRejectionReason } from './oidc-errors';
export { OIDC_PROVIDERS, OidcProviders, isCallbackUri } from './oidc-providers';
export { OIDC_RESPONSE_MODES, OidcSettingsError, parseOidcProviders } from './oidc-settings';
export type { OidcProviderSettings, OidcResponseMode } from './oidc-settings';
