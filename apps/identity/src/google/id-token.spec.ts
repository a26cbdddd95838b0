import { createHmac } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';

import { GOOGLE_EMAIL_NOT_VERIFIED } from './google-identity';
import { useFakeGoogle, verifierFor } from './testing/google-test-setup';

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

const { ctx, expectRefused } = useFakeGoogle();

/** Signs `claims` with a freshly generated RS256 key that is not in the fake's JWKS. */
async function signWithForeignKey(claims: Record<string, unknown>, kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
}

describe('GoogleIdentityVerifier with ID tokens', () => {
  it('answers the identity of a valid ID token', async () => {
    const token = await ctx.google.idToken({
      sub: '110169484474386276334',
      email: 'anna@example.com',
      given_name: 'Anna',
      family_name: 'Muster',
      picture: 'https://lh3.googleusercontent.com/a/anna',
    });

    await expect(ctx.verifier.verify(token)).resolves.toEqual({
      subject: '110169484474386276334',
      email: 'anna@example.com',
      emailVerified: true,
      givenName: 'Anna',
      familyName: 'Muster',
      picture: 'https://lh3.googleusercontent.com/a/anna',
    });
  });

  it('accepts the issuer without scheme, an e-mail verified as the string "true", and missing names', async () => {
    const token = await ctx.google.idToken({
      iss: 'accounts.google.com',
      email_verified: 'true',
      family_name: undefined,
      picture: 'http://insecure.example/p.png',
    });

    const identity = await ctx.verifier.verify(token);

    expect(identity).toMatchObject({ emailVerified: true, givenName: 'Test', familyName: '' });
    expect(identity).not.toHaveProperty('picture');
  });

  it('fetches the key set once and reuses it', async () => {
    const fresh = verifierFor(ctx.google.settings());
    const before = ctx.google.requests.jwks;

    await fresh.verify(await ctx.google.idToken());
    await fresh.verify(await ctx.google.idToken());

    expect(ctx.google.requests.jwks - before).toBe(1);
  });

  it('refuses a token for another app (audience)', async () => {
    await expectRefused(await ctx.google.idToken({ aud: 'another-app.apps.googleusercontent.com' }), 'wrong-audience');
  });

  it('refuses a token from another issuer', async () => {
    await expectRefused(await ctx.google.idToken({ iss: 'https://evil.example.com' }), 'wrong-issuer');
  });

  it('refuses an expired token, beyond the clock tolerance', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await ctx.google.idToken({ iat: now - 7200, exp: now - 120 }), 'expired');
  });

  it('refuses a token without an expiry', async () => {
    await expectRefused(await ctx.google.idToken({ exp: undefined }), 'invalid-claims');
  });

  it('refuses a token that is not valid yet', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await ctx.google.idToken({ nbf: now + 600 }), 'invalid-claims');
  });

  it('refuses a token signed by a key that is not in the JWKS', async () => {
    await expectRefused(await signWithForeignKey(ctx.google.idTokenClaims(), 'some-other-kid'), 'unknown-signing-key');
  });

  it("refuses a token signed by another key under the JWKS key's id", async () => {
    await expectRefused(await signWithForeignKey(ctx.google.idTokenClaims(), ctx.google.keyId), 'invalid-signature');
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await ctx.google.idToken()).split('.');
    const forged = `${header}.${b64url(ctx.google.idTokenClaims({ email: 'victim@example.com' }))}.${signature}`;
    await expectRefused(forged, 'invalid-signature');
  });

  it('refuses "alg: none"', async () => {
    const forged = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(ctx.google.idTokenClaims())}.`;
    await expectRefused(forged, 'algorithm-not-allowed');
  });

  it('refuses HS256 "signed" with the public key as the HMAC secret', async () => {
    const publicJwk = (await (await fetch(ctx.google.settings().jwksUrl)).json()) as { keys: object[] };
    const secret = JSON.stringify(publicJwk.keys[0]);
    const signingInput = `${b64url({ alg: 'HS256', kid: ctx.google.keyId, typ: 'JWT' })}.${b64url(ctx.google.idTokenClaims())}`;
    const forged = `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
    await expectRefused(forged, 'algorithm-not-allowed');
  });

  it('refuses an e-mail that Google has not verified', async () => {
    await expectRefused(
      await ctx.google.idToken({ email_verified: false }),
      'email-not-verified',
      GOOGLE_EMAIL_NOT_VERIFIED,
    );
    await expectRefused(
      await ctx.google.idToken({ email_verified: undefined }),
      'email-not-verified',
      GOOGLE_EMAIL_NOT_VERIFIED,
    );
  });

  it('refuses a token without an e-mail', async () => {
    await expectRefused(await ctx.google.idToken({ email: undefined }), 'invalid-claims');
  });
});
