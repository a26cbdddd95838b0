import type { GoogleIdentity } from '../google';

export type { GoogleIdentity };

/** What signing in with Google needs: a verified identity for a token (apps/identity/src/google). */
export interface GoogleVerifier {
  verify(token: string): Promise<GoogleIdentity>;
}

export const GOOGLE_VERIFIER = Symbol('GOOGLE_VERIFIER');
