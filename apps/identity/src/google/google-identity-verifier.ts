import { AccessTokenVerifier } from './access-token';
import { type GoogleIdentity, GoogleSignInError } from './google-identity';
import type { GoogleSignInSettings } from './google-sign-in-settings';
import { IdTokenVerifier } from './id-token';
import type { GoogleRepository } from '../repositories/google.repository';

/** What signing in with Google needs: a verified identity for a token. */
export interface GoogleVerifier {
  verify(token: string): Promise<GoogleIdentity>;
}

export const GOOGLE_VERIFIER = Symbol('GOOGLE_VERIFIER');

/** Three base64url parts (the signature may be empty, as in an "alg: none" forgery, refused later). */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** RFC 6750 bearer token characters: anything else cannot be an access token (nor go into a header). */
const ACCESS_TOKEN_SHAPE = /^[A-Za-z0-9._~+/-]+=*$/;
/** Google's tokens are 1-2 KB; anything far larger is not one, and is not sent to Google. */
const MAX_TOKEN_LENGTH = 8192;

/**
 * Checks the token the browser got from "Sign in with Google" and says who it belongs to. Accepts
 * an ID token (a JWT, verified locally against Google's keys) or an OAuth access token (verified by
 * asking Google). It only verifies: linking to or creating an account is the caller's job.
 *
 * Failures are {@link GoogleSignInError}s: UNAUTHENTICATED for a bad token or an unverified e-mail,
 * UNAVAILABLE when Google cannot be reached or sign-in is not configured. Nothing is logged here;
 * `error.reason` is safe to log, tokens and e-mails are not.
 */
export class GoogleIdentityVerifier implements GoogleVerifier {
  private readonly idTokens: IdTokenVerifier | undefined;
  private readonly accessTokens: AccessTokenVerifier | undefined;

  /** `google` is where Google is asked (its key set, userinfo, tokeninfo). */
  constructor(settings: GoogleSignInSettings, google: GoogleRepository) {
    const configured = settings.clientIds.length > 0;
    this.idTokens = configured ? new IdTokenVerifier(settings, google) : undefined;
    this.accessTokens = configured ? new AccessTokenVerifier(settings, google) : undefined;
  }

  /** Whether client ids are configured; without them every `verify` fails with UNAVAILABLE. */
  get configured(): boolean {
    return this.idTokens !== undefined;
  }

  async verify(token: string): Promise<GoogleIdentity> {
    if (this.idTokens === undefined || this.accessTokens === undefined) throw new GoogleSignInError('not-configured');
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw new GoogleSignInError('malformed-token');
    if (JWT_SHAPE.test(token)) return this.idTokens.verify(token);
    if (ACCESS_TOKEN_SHAPE.test(token)) return this.accessTokens.verify(token);
    throw new GoogleSignInError('malformed-token');
  }
}
