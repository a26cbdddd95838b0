import { createHmac } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { DomainError } from '@medfolio/contracts';

import { GOOGLE_EMAIL_NOT_VERIFIED, GOOGLE_SIGN_IN_FAILED, type GoogleRejectionReason } from './google-identity';
import { GoogleIdentityVerifier } from './google-identity-verifier';
import { FakeGoogle } from '@medfolio/testing';

const b64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

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

/** Signs `claims` with a freshly generated RS256 key that is not in the fake's JWKS. */
async function signWithForeignKey(claims: Record<string, unknown>, kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
}

describe('GoogleIdentityVerifier with ID tokens', () => {
  it('answers the identity of a valid ID token', async () => {
    const token = await google.idToken({
      sub: '110169484474386276334',
      email: 'anna@example.com',
      given_name: 'Anna',
      family_name: 'Muster',
      picture: 'https://lh3.googleusercontent.com/a/anna',
    });

    await expect(verifier.verify(token)).resolves.toEqual({
      subject: '110169484474386276334',
      email: 'anna@example.com',
      emailVerified: true,
      givenName: 'Anna',
      familyName: 'Muster',
      picture: 'https://lh3.googleusercontent.com/a/anna',
    });
  });

  it('accepts the issuer without scheme, an e-mail verified as the string "true", and missing names', async () => {
    const token = await google.idToken({
      iss: 'accounts.google.com',
      email_verified: 'true',
      family_name: undefined,
      picture: 'http://insecure.example/p.png',
    });

    const identity = await verifier.verify(token);

    expect(identity).toMatchObject({ emailVerified: true, givenName: 'Test', familyName: '' });
    expect(identity).not.toHaveProperty('picture');
  });

  it('fetches the key set once and reuses it', async () => {
    const fresh = new GoogleIdentityVerifier(google.settings());
    const before = google.requests.jwks;

    await fresh.verify(await google.idToken());
    await fresh.verify(await google.idToken());

    expect(google.requests.jwks - before).toBe(1);
  });

  it('refuses a token for another app (audience)', async () => {
    await expectRefused(await google.idToken({ aud: 'another-app.apps.googleusercontent.com' }), 'wrong-audience');
  });

  it('refuses a token from another issuer', async () => {
    await expectRefused(await google.idToken({ iss: 'https://evil.example.com' }), 'wrong-issuer');
  });

  it('refuses an expired token, beyond the clock tolerance', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await google.idToken({ iat: now - 7200, exp: now - 120 }), 'expired');
  });

  it('refuses a token without an expiry', async () => {
    await expectRefused(await google.idToken({ exp: undefined }), 'invalid-claims');
  });

  it('refuses a token that is not valid yet', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await google.idToken({ nbf: now + 600 }), 'invalid-claims');
  });

  it('refuses a token signed by a key that is not in the JWKS', async () => {
    await expectRefused(await signWithForeignKey(google.idTokenClaims(), 'some-other-kid'), 'unknown-signing-key');
  });

  it("refuses a token signed by another key under the JWKS key's id", async () => {
    await expectRefused(await signWithForeignKey(google.idTokenClaims(), google.keyId), 'invalid-signature');
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await google.idToken()).split('.');
    const forged = `${header}.${b64url(google.idTokenClaims({ email: 'victim@example.com' }))}.${signature}`;
    await expectRefused(forged, 'invalid-signature');
  });

  it('refuses "alg: none"', async () => {
    const forged = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(google.idTokenClaims())}.`;
    await expectRefused(forged, 'algorithm-not-allowed');
  });

  it('refuses HS256 "signed" with the public key as the HMAC secret', async () => {
    const publicJwk = (await (await fetch(google.settings().jwksUrl)).json()) as { keys: object[] };
    const secret = JSON.stringify(publicJwk.keys[0]);
    const signingInput = `${b64url({ alg: 'HS256', kid: google.keyId, typ: 'JWT' })}.${b64url(google.idTokenClaims())}`;
    const forged = `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
    await expectRefused(forged, 'algorithm-not-allowed');
  });

  it('refuses an e-mail that Google has not verified', async () => {
    await expectRefused(
      await google.idToken({ email_verified: false }),
      'email-not-verified',
      GOOGLE_EMAIL_NOT_VERIFIED,
    );
    await expectRefused(
      await google.idToken({ email_verified: undefined }),
      'email-not-verified',
      GOOGLE_EMAIL_NOT_VERIFIED,
    );
  });

  it('refuses a token without an e-mail', async () => {
    await expectRefused(await google.idToken({ email: undefined }), 'invalid-claims');
  });
});
