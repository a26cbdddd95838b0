import { DomainError } from '@medfolio/contracts';

import { GOOGLE_NOT_CONFIGURED, GOOGLE_SIGN_IN_FAILED, GOOGLE_UNAVAILABLE, GoogleSignInError } from './google-identity';
import { verifierFor } from './testing/google-test-setup';
import { DEFAULT_GOOGLE_SIGN_IN_SETTINGS, googleSignInSettings } from './google-sign-in-settings';
import { FakeGoogle } from '@medfolio/testing';

async function failure(promise: Promise<unknown>): Promise<GoogleSignInError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GoogleSignInError);
  expect(error).toBeInstanceOf(DomainError);
  return error as GoogleSignInError;
}

describe('GoogleIdentityVerifier', () => {
  let google: FakeGoogle;

  beforeEach(async () => {
    google = await FakeGoogle.start();
  });

  afterEach(async () => {
    await google.stop();
  });

  it('is off, with UNAVAILABLE, while no client id is configured', async () => {
    const verifier = verifierFor({ ...google.settings(), clientIds: [] });

    expect(verifier.configured).toBe(false);
    const error = await failure(verifier.verify(await google.idToken()));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: GOOGLE_NOT_CONFIGURED, reason: 'not-configured' });
    expect(google.requests).toEqual({ jwks: 0, userinfo: 0, tokeninfo: 0, authorize: 0 });
  });

  it.each([
    ['empty', ''],
    ['far too long', 'a'.repeat(10_000)],
    ['with a line break (header injection)', 'ya29.abc\r\nx-evil: 1'],
    ['with spaces', 'not a token'],
  ])('refuses a token that is %s without calling Google', async (_name, token) => {
    const error = await failure(verifierFor(google.settings()).verify(token));

    expect(error).toMatchObject({ code: 'UNAUTHENTICATED', message: GOOGLE_SIGN_IN_FAILED, reason: 'malformed-token' });
    expect(google.requests).toEqual({ jwks: 0, userinfo: 0, tokeninfo: 0, authorize: 0 });
  });

  it('answers UNAVAILABLE when the key set server is down', async () => {
    const verifier = verifierFor(google.settings());
    const token = await google.idToken();
    await google.stop();

    const error = await failure(verifier.verify(token));

    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: GOOGLE_UNAVAILABLE, reason: 'google-unreachable' });
  });

  it.each([
    ['answers 503', 'error'],
    ['does not answer in time', 'hang'],
  ] as const)('answers UNAVAILABLE when the key set server %s', async (_name, outage) => {
    const verifier = verifierFor({ ...google.settings(), timeoutMs: 300 });
    google.outage(outage);
    const started = Date.now();

    const error = await failure(verifier.verify(await google.idToken()));

    expect(error).toMatchObject({ code: 'UNAVAILABLE', reason: 'google-unreachable' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it.each([
    ['answers 503', 'error'],
    ['does not answer in time', 'hang'],
  ] as const)('answers UNAVAILABLE when Google %s to an access token check', async (_name, outage) => {
    const verifier = verifierFor({ ...google.settings(), timeoutMs: 300 });
    const token = google.accessToken();
    google.outage(outage);

    const error = await failure(verifier.verify(token));

    expect(error).toMatchObject({ code: 'UNAVAILABLE', reason: 'google-unreachable' });
  });

  it('answers UNAVAILABLE when userinfo is down and tokeninfo is not checked', async () => {
    const { tokeninfoUrl: _omitted, ...settings } = google.settings();
    const token = google.accessToken();
    await google.stop();

    const error = await failure(verifierFor(settings).verify(token));

    expect(error).toMatchObject({ code: 'UNAVAILABLE', reason: 'google-unreachable' });
  });

  it('puts neither the token nor the e-mail into the error', async () => {
    const verifier = verifierFor(google.settings());
    const token = await google.idToken({ aud: 'another-app', email: 'private@example.com' });

    const error = await failure(verifier.verify(token));

    const everything = JSON.stringify({ ...error, message: error.message, stack: error.stack, cause: error.cause });
    expect(everything).not.toContain(token.slice(-20));
    expect(everything).not.toContain('private@example.com');
    expect(error.cause).toBeUndefined();
  });
});

describe('googleSignInSettings', () => {
  it("defaults to Google's endpoints, with sign-in off", () => {
    expect(googleSignInSettings()).toEqual({
      clientIds: [],
      jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      userinfoUrl: 'https://openidconnect.googleapis.com/v1/userinfo',
      tokeninfoUrl: 'https://oauth2.googleapis.com/tokeninfo',
      issuers: ['https://accounts.google.com', 'accounts.google.com'],
      timeoutMs: 5000,
    });
  });

  it('replaces only the given fields, and never shares the default lists', () => {
    const settings = googleSignInSettings({ clientIds: ['web.apps.googleusercontent.com'], timeoutMs: undefined });
    settings.issuers.push('mutated');

    expect(settings.clientIds).toEqual(['web.apps.googleusercontent.com']);
    expect(settings.timeoutMs).toBe(5000);
    expect(DEFAULT_GOOGLE_SIGN_IN_SETTINGS.issuers).toEqual(['https://accounts.google.com', 'accounts.google.com']);
  });
});
