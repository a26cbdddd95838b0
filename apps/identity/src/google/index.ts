export { GOOGLE_VERIFIER, GoogleIdentityVerifier } from './google-identity-verifier';
export type { GoogleVerifier } from './google-identity-verifier';
export {
  GOOGLE_EMAIL_NOT_VERIFIED,
  GOOGLE_NOT_CONFIGURED,
  GOOGLE_SIGN_IN_FAILED,
  GOOGLE_UNAVAILABLE,
  GoogleSignInError,
} from './google-identity';
export type { GoogleIdentity, GoogleRejectionReason } from './google-identity';
export {
  DEFAULT_GOOGLE_SIGN_IN_SETTINGS,
  GOOGLE_ISSUERS,
  GOOGLE_JWKS_URL,
  GOOGLE_TOKENINFO_URL,
  GOOGLE_USERINFO_URL,
  googleSignInSettings,
} from './google-sign-in-settings';
export type { GoogleSignInSettings } from './google-sign-in-settings';
