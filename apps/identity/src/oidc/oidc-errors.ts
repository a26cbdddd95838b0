import { DomainError } from '@medfolio/contracts';

/** Why an OpenID Connect sign-in was refused: safe to log (no token, no code, no e-mail). */
export type OidcRejectionReason =
  | 'unknown-provider'
  | 'bad-redirect'
  | 'exchange-refused'
  | 'no-id-token'
  | 'invalid-token'
  | 'wrong-issuer'
  | 'wrong-audience'
  | 'wrong-nonce'
  | 'expired'
  | 'invalid-claims'
  | 'email-not-verified'
  | 'provider-unreachable';

export const OIDC_SIGN_IN_FAILED = 'Sign-in failed. Please try again.';
export const OIDC_EMAIL_NOT_VERIFIED = 'The e-mail address of that account is not verified, so it cannot sign in here.';
export const OIDC_UNAVAILABLE = 'This sign-in is unavailable right now. Please try again later.';
export const OIDC_UNKNOWN_PROVIDER = 'This sign-in is not configured.';

/**
 * A refused sign-in: a {@link DomainError} for the user plus the reason. No `cause`: the token
 * library's errors carry the token's claims, which must not reach a log.
 */
export class OidcSignInError extends DomainError {
  constructor(readonly reason: OidcRejectionReason) {
    super(...codeAndMessage(reason));
    this.name = 'OidcSignInError';
  }
}

function codeAndMessage(reason: OidcRejectionReason): [DomainError['code'], string] {
  switch (reason) {
    case 'unknown-provider':
      return ['NOT_FOUND', OIDC_UNKNOWN_PROVIDER];
    case 'provider-unreachable':
      return ['UNAVAILABLE', OIDC_UNAVAILABLE];
    case 'email-not-verified':
      return ['UNAUTHENTICATED', OIDC_EMAIL_NOT_VERIFIED];
    case 'bad-redirect':
    case 'exchange-refused':
    case 'no-id-token':
    case 'invalid-token':
    case 'wrong-issuer':
    case 'wrong-audience':
    case 'wrong-nonce':
    case 'expired':
    case 'invalid-claims':
      return ['UNAUTHENTICATED', OIDC_SIGN_IN_FAILED];
  }
}
