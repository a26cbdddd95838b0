/** What signing in with Google needs from Google (verified by apps/identity/src/google). */
export interface GoogleIdentity {
  subject: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
  picture?: string;
}

export interface GoogleVerifier {
  verify(token: string): Promise<GoogleIdentity>;
}

export const GOOGLE_VERIFIER = Symbol('GOOGLE_VERIFIER');
