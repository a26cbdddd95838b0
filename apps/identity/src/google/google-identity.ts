import { DomainError } from '@medfolio/contracts';

/** What a verified Google token says about its user. Only ever built from a verified token. */
export interface GoogleIdentity {
  /** Google's stable account id (`sub`); unlike the e-mail it never changes. */
  subject: string;
  email: string;
  /** Always true: unverified addresses are refused, since accounts are linked by e-mail. */
  emailVerified: boolean;
  /** Empty when the Google profile has none. */
  givenName: string;
  /** Empty when the Google profile has none (common: many profiles have a single name). */
  familyName: string;
  /** https URL of the Google profile picture, if any. */
  picture?: string;
}

/**
 * Why a token was refused, for logs and metrics: safe to record (no token, no e-mail), unlike the
 * token library's own errors, which carry the token's claims.
 */
export type GoogleRejectionReason =
  | 'not-configured'
  | 'malformed-token'
  | 'algorithm-not-allowed'
  | 'unknown-signing-key'
  | 'invalid-signature'
  | 'wrong-issuer'
  | 'wrong-audience'
  | 'expired'
  | 'invalid-claims'
  | 'email-not-verified'
  | 'rejected-by-google'
  | 'wrong-client'
  | 'google-unreachable';

export const GOOGLE_SIGN_IN_FAILED = 'Google sign-in failed. Please try again.';
export const GOOGLE_EMAIL_NOT_VERIFIED = 'Your Google account e-mail is not verified.';
export const GOOGLE_UNAVAILABLE = 'Google sign-in is unavailable right now. Please try again later.';
export const GOOGLE_NOT_CONFIGURED = 'Google sign-in is not configured.';

/**
 * A refused Google sign-in: an ordinary {@link DomainError} (UNAUTHENTICATED or UNAVAILABLE, with a
 * message for the user) plus the {@link GoogleRejectionReason}. It deliberately has no `cause`: the
 * underlying errors hold the token's claims (e-mail, name), which must never reach a log.
 */
export class GoogleSignInError extends DomainError {
  constructor(readonly reason: GoogleRejectionReason) {
    super(...codeAndMessage(reason));
    this.name = 'GoogleSignInError';
  }
}

function codeAndMessage(reason: GoogleRejectionReason): [DomainError['code'], string] {
  switch (reason) {
    case 'not-configured':
      return ['UNAVAILABLE', GOOGLE_NOT_CONFIGURED];
    case 'google-unreachable':
      return ['UNAVAILABLE', GOOGLE_UNAVAILABLE];
    case 'email-not-verified':
      return ['UNAUTHENTICATED', GOOGLE_EMAIL_NOT_VERIFIED];
    case 'malformed-token':
    case 'algorithm-not-allowed':
    case 'unknown-signing-key':
    case 'invalid-signature':
    case 'wrong-issuer':
    case 'wrong-audience':
    case 'expired':
    case 'invalid-claims':
    case 'rejected-by-google':
    case 'wrong-client':
      return ['UNAUTHENTICATED', GOOGLE_SIGN_IN_FAILED];
  }
}
