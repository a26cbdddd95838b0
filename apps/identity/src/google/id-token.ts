import { errors, jwtVerify } from 'jose';

import { type GoogleIdentity, type GoogleRejectionReason, GoogleSignInError } from './google-identity';
import { identityFromGoogleClaims } from './google-profile';
import type { GoogleSignInSettings } from './google-sign-in-settings';
import type { GoogleRepository } from '../repositories/google.repository';

/** Google signs ID tokens with RS256 only; anything else (none, HS256 "signed" with a public key) is a forgery. */
const ALGORITHMS = ['RS256'];
/** Seconds of clock difference tolerated on exp/nbf/iat between Google and us. */
export const ID_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Verifies Google ID tokens: signature against Google's published keys, issuer, audience (our client
 * ids), expiry, and a verified e-mail. The key set comes from {@link GoogleRepository.signingKeys}.
 */
export class IdTokenVerifier {
  constructor(
    private readonly settings: GoogleSignInSettings,
    private readonly google: GoogleRepository,
  ) {}

  async verify(token: string): Promise<GoogleIdentity> {
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(token, this.google.signingKeys, {
        algorithms: ALGORITHMS,
        issuer: this.settings.issuers,
        audience: this.settings.clientIds,
        clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
        // jose only checks exp when present: a token without one would be valid forever.
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (error) {
      throw new GoogleSignInError(rejectionReason(error));
    }
    return identityFromGoogleClaims(claims);
  }
}

/**
 * Maps `jose`'s errors to a reason. Everything about the token itself is the caller's fault
 * (UNAUTHENTICATED); failing to get Google's keys (no connection, time-out, not 200, not a key set)
 * is ours (UNAVAILABLE), so that an outage does not look like "wrong password" to the user.
 */
function rejectionReason(error: unknown): GoogleRejectionReason {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'wrong-issuer';
    if (error.claim === 'aud') return 'wrong-audience';
    return 'invalid-claims';
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'algorithm-not-allowed';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'invalid-signature';
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return 'unknown-signing-key';
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return 'google-unreachable';
  // The remaining specific jose errors describe a malformed or unsupported token.
  if (error instanceof errors.JOSEError && error.code !== errors.JOSEError.code) return 'malformed-token';
  // A plain JOSEError is a failed key set download (HTTP status, JSON); anything else a network error.
  return 'google-unreachable';
}
