
import { GOOGLE_EMAIL_NOT_VERIFIED } from './google-identity';
import { useFakeGoogle, verifierFor } from './testing/google-test-setup';

const { ctx, expectRefused } = useFakeGoogle();

describe('GoogleIdentityVerifier with access tokens', () => {
  it('answers the identity of a valid access token, from userinfo', async () => {
    const token = ctx.google.accessToken({
      sub: '104',
      email: 'ben@example.com',
      given_name: 'Ben',
      family_name: 'Beispiel',
    });

    await expect(ctx.verifier.verify(token)).resolves.toEqual({
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
    await expectRefused(ctx.google.accessToken({ expiresInSeconds: -10 }), 'rejected-by-google');
  });

  it('refuses a token issued to another app, without asking userinfo who it is', async () => {
    const token = ctx.google.accessToken({ clientId: 'some-game.apps.googleusercontent.com' });
    const userinfoBefore = ctx.google.requests.userinfo;

    await expectRefused(token, 'wrong-client');
    expect(ctx.google.requests.userinfo).toBe(userinfoBefore);
  });

  it('refuses an e-mail that Google has not verified', async () => {
    await expectRefused(ctx.google.accessToken({ email_verified: false }), 'email-not-verified', GOOGLE_EMAIL_NOT_VERIFIED);
  });

  it('skips the audience check only when no tokeninfo URL is configured', async () => {
    const { tokeninfoUrl: _omitted, ...withoutTokeninfo } = ctx.google.settings();
    const lenient = verifierFor(withoutTokeninfo);
    const tokeninfoBefore = ctx.google.requests.tokeninfo;

    await expect(lenient.verify(ctx.google.accessToken({ sub: '105' }))).resolves.toMatchObject({ subject: '105' });
    expect(ctx.google.requests.tokeninfo).toBe(tokeninfoBefore);
  });

  it('refuses a token that userinfo answers 401 to (UNAUTHENTICATED, not UNAVAILABLE)', async () => {
    const { tokeninfoUrl: _omitted, ...withoutTokeninfo } = ctx.google.settings();
    ctx.verifier = verifierFor(withoutTokeninfo);

    await expectRefused('ya29.revoked-or-unknown', 'rejected-by-google');
  });
});
