import { isCallbackUri } from './oidc-providers';
import { parseOidcProviders } from './oidc-settings';
import { identityFromClaims } from './oidc-client';

describe('OIDC_PROVIDERS', () => {
  it('reads providers with defaults for label and scope; unset means none', () => {
    expect(parseOidcProviders(undefined)).toEqual([]);
    expect(parseOidcProviders(JSON.stringify([{ name: 'microsoft', issuer: 'https://login.example.com/tenant/v2.0/', client_id: 'abc', client_secret: 's' }]))).toEqual([
      { name: 'microsoft', label: 'Microsoft', issuer: 'https://login.example.com/tenant/v2.0', clientId: 'abc', clientSecret: 's', scope: 'openid email profile', verifiedEmailClaim: 'email_verified', multiTenant: false, responseMode: 'query' },
    ]);
  });

  it('reads response_mode: query by default, or form_post (Apple, when the e-mail or name is asked for)', () => {
    const apple = (extra: object) => JSON.stringify([{ name: 'apple', issuer: 'https://appleid.apple.com', client_id: 'x', ...extra }]);
    expect(parseOidcProviders(apple({ response_mode: 'form_post' }))[0]?.responseMode).toBe('form_post');
    expect(parseOidcProviders(apple({ response_mode: 'query' }))[0]?.responseMode).toBe('query');
    expect(() => parseOidcProviders(apple({ response_mode: 'fragment' }))).toThrow('OIDC_PROVIDERS[0].response_mode must be "query" or "form_post"');
    expect(() => parseOidcProviders(apple({ response_mode: true }))).toThrow(/response_mode/);
  });

  it.each([
    ['not JSON', '{'],
    ['not an array', '{}'],
    ['no client id', JSON.stringify([{ name: 'apple', issuer: 'https://appleid.apple.com' }])],
    ['an http issuer off loopback', JSON.stringify([{ name: 'apple', issuer: 'http://appleid.apple.com', client_id: 'x' }])],
    ['a bad name', JSON.stringify([{ name: 'Apple!', issuer: 'https://appleid.apple.com', client_id: 'x' }])],
    ['google (its own settings)', JSON.stringify([{ name: 'google', issuer: 'https://accounts.google.com', client_id: 'x' }])],
    ['a name twice', JSON.stringify([{ name: 'a', issuer: 'https://a.example', client_id: 'x' }, { name: 'a', issuer: 'https://b.example', client_id: 'y' }])],
    ['a verified-email claim that is not a claim name', JSON.stringify([{ name: 'a', issuer: 'https://a.example', client_id: 'x', verified_email_claim: 'a.b' }])],
    ['a scope without openid', JSON.stringify([{ name: 'a', issuer: 'https://a.example', client_id: 'x', scope: 'email' }])],
  ])('refuses %s', (_what, text) => {
    expect(() => parseOidcProviders(text)).toThrow(/OIDC_PROVIDERS/);
  });
});

describe('the callback address sent with a code', () => {
  it("must be the web app's callback page of that provider", () => {
    expect(isCallbackUri('https://app.example/auth/oidc/apple/callback', 'apple')).toBe(true);
    expect(isCallbackUri('http://127.0.0.1:4200/auth/oidc/apple/callback', 'apple')).toBe(true);
    expect(isCallbackUri('http://app.example/auth/oidc/apple/callback', 'apple')).toBe(false);
    expect(isCallbackUri('https://app.example/auth/oidc/microsoft/callback', 'apple')).toBe(false);
    expect(isCallbackUri('https://app.example/auth/oidc/apple/callback?next=/x', 'apple')).toBe(false);
    expect(isCallbackUri('javascript:alert(1)', 'apple')).toBe(false);
  });

  it("for a form_post provider, also the gateway's callback route of that provider (the provider posts there)", () => {
    const gateway = 'https://app.example/api/login-with-oidc/apple/callback/';
    expect(isCallbackUri(gateway, 'apple', 'form_post')).toBe(true);
    expect(isCallbackUri('http://127.0.0.1:4200/api/login-with-oidc/apple/callback/', 'apple', 'form_post')).toBe(true);
    expect(isCallbackUri('https://app.example/auth/oidc/apple/callback', 'apple', 'form_post')).toBe(true);
    // Not for a query provider, not another provider's route, not over http off loopback, nothing appended.
    expect(isCallbackUri(gateway, 'apple', 'query')).toBe(false);
    expect(isCallbackUri(gateway, 'apple')).toBe(false);
    expect(isCallbackUri('https://app.example/api/login-with-oidc/microsoft/callback/', 'apple', 'form_post')).toBe(false);
    expect(isCallbackUri('http://app.example/api/login-with-oidc/apple/callback/', 'apple', 'form_post')).toBe(false);
    expect(isCallbackUri(`${gateway}?next=/x`, 'apple', 'form_post')).toBe(false);
    expect(isCallbackUri('https://app.example/api/login-with-oidc/apple/', 'apple', 'form_post')).toBe(false);
  });
});

describe('claims of a verified ID token', () => {
  it('uses the e-mail only when the provider verified it (boolean or Apple\'s "true")', () => {
    expect(identityFromClaims('apple', { iss: 'https://appleid.apple.com', sub: 's', email: 'A@Example.com', email_verified: 'true' })).toEqual({ provider: 'apple', issuer: 'https://appleid.apple.com', subject: 's', email: 'a@example.com', givenName: '', familyName: '' });
    expect(() => identityFromClaims('apple', { iss: 'https://appleid.apple.com', sub: 's', email: 'a@example.com', email_verified: 'false' })).toThrow(expect.objectContaining({ reason: 'email-not-verified' }));
    expect(() => identityFromClaims('microsoft', { iss: 'https://login.example.com', sub: 's', email: 'a@example.com' })).toThrow(expect.objectContaining({ reason: 'email-not-verified' }));
    expect(() => identityFromClaims('apple', { iss: 'https://appleid.apple.com', sub: 's', email_verified: true })).toThrow(expect.objectContaining({ reason: 'invalid-claims' }));
    // Microsoft: the claim the provider is configured with, and only that one.
    expect(identityFromClaims('microsoft', { iss: 'https://login.example.com', sub: 's', email: 'a@example.com', xms_edov: true }, 'xms_edov')).toMatchObject({ email: 'a@example.com' });
    expect(() => identityFromClaims('microsoft', { iss: 'https://login.example.com', sub: 's', email: 'a@example.com', email_verified: true }, 'xms_edov')).toThrow(expect.objectContaining({ reason: 'email-not-verified' }));
  });
});
