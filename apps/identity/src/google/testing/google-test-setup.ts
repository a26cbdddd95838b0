import { DomainError } from '@medfolio/contracts';
import { FakeGoogle } from '@medfolio/testing';
import { GOOGLE_SIGN_IN_FAILED, type GoogleRejectionReason } from '../google-identity';
import { GoogleIdentityVerifier } from '../google-identity-verifier';
import type { GoogleSignInSettings } from '../google-sign-in-settings';
import { GoogleRepository } from '../../repositories/google.repository';

/** A verifier asking Google (or the stand-in) at the settings' URLs, as the service builds it. */
export function verifierFor(settings: GoogleSignInSettings): GoogleIdentityVerifier {
  return new GoogleIdentityVerifier(settings, new GoogleRepository(settings));
}

/**
 * For the verifier's specs: a local Google stand-in for the whole file and a fresh verifier per
 * test, plus `expectRefused`. Call it at the top of a spec file.
 */
export function useFakeGoogle() {
  const ctx = {} as { google: FakeGoogle; verifier: GoogleIdentityVerifier };
  beforeAll(async () => {
    ctx.google = await FakeGoogle.start();
  });
  afterAll(async () => {
    await ctx.google.stop();
  });
  beforeEach(() => {
    ctx.verifier = verifierFor(ctx.google.settings());
  });

  /** The token is refused as UNAUTHENTICATED, for `reason`, with the user-facing `message`. */
  async function expectRefused(token: string, reason: GoogleRejectionReason, message = GOOGLE_SIGN_IN_FAILED): Promise<void> {
    const error: unknown = await ctx.verifier.verify(token).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'UNAUTHENTICATED', reason, message });
  }

  return { ctx, expectRefused };
}
