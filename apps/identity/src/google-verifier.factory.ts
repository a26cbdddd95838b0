import { DomainError } from '@medfolio/contracts';
import type { IdentityConfig } from './config';
import type { GoogleVerifier } from './repositories/google.repository';

/** Placeholder until the Google verifier lands: answers "not configured". Replaced in this issue. */
export function createGoogleVerifier(_config: IdentityConfig): GoogleVerifier {
  return {
    verify: () => Promise.reject(new DomainError('UNAVAILABLE', 'Google sign-in is not configured.')),
  };
}
