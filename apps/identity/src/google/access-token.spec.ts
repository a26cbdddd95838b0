import { DomainError } from '@medfolio/contracts';

import { GOOGLE_EMAIL_NOT_VERIFIED, GOOGLE_SIGN_IN_FAILED, type GoogleRejectionReason } from './google-identity';
import { GoogleIdentityVerifier } from './google-identity-verifier';
import { FakeGoogle } from '@medfolio/testing';

let google: FakeGoogle;
let verifier: GoogleIdentityVerifier;

beforeAll(async () => {
  google = await FakeGoogle.start();
});

afterAll(async () => {
  await google.stop();
});

beforeEach(() => {
  verifier = new GoogleIdentityVerifier(google.settings());
});

async function expectRefused(
  token: string,
  reason: GoogleRejectionReason,
  message = GOOGLE_SIGN_IN_FAILED,
): Promise<void> {
  const error: unknown = await verifier.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect(error).toMatchObject({ code: 'UNAUTHENTICATED', reason, message });
}

describe('GoogleIdentityVerifier with access tokens', () => {
  it('answers the identity of a valid access token, from userinfo', async () => {
    const token = google.accessToken({
      sub: '104',
      email: 'ben@example.com',
      given_name: 'Ben',
      family_name: 'Beispiel',
    });

    await expect(verifier.verify(token)).resolves.toEqual({
      subject: '104',
      email: 'ben@example.com',
      emailVerified: true,
      givenName: 'Ben',
      familyName: 'Beispiel',
      picture: 'https://lh3.googleusercontent.com/a/test-picture',
    });
  });

  it('refuses a token Google does not know', async () => {
    await expectRefused('ya29.not-a-token-google-issued', 'rejected-by-google');
  });

  it('refuses an expired token', async () => {
    await expectRefused(google.accessToken({ expiresInSeconds: -10 }), 'rejected-by-google');
  });

  it('refuses a token issued to another app, without asking userinfo who it is', async () => {
    const token = google.accessToken({ clientId: 'some-game.apps.googleusercontent.com' });
    const userinfoBefore = google.requests.userinfo;

    await expectRefused(token, 'wrong-client');
    expect(google.requests.userinfo).toBe(userinfoBefore);
  });

  it('refuses an e-mail that Google has not verified', async () => {
    await expectRefused(google.accessToken({ email_verified: false }), 'email-not-verified', GOOGLE_EMAIL_NOT_VERIFIED);
  });

  it('skips the audience check only when no tokeninfo URL is configured', async () => {
    const { tokeninfoUrl: _omitted, ...withoutTokeninfo } = google.settings();
    const lenient = new GoogleIdentityVerifier(withoutTokeninfo);
    const tokeninfoBefore = google.requests.tokeninfo;

    await expect(lenient.verify(google.accessToken({ sub: '105' }))).resolves.toMatchObject({ subject: '105' });
    expect(google.requests.tokeninfo).toBe(tokeninfoBefore);
  });

  it('refuses a token that userinfo answers 401 to (UNAUTHENTICATED, not UNAVAILABLE)', async () => {
    const { tokeninfoUrl: _omitted, ...withoutTokeninfo } = google.settings();
    verifier = new GoogleIdentityVerifier(withoutTokeninfo);

    await expectRefused('ya29.revoked-or-unknown', 'rejected-by-google');
  });
});
