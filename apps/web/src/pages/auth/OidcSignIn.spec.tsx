import { webcrypto } from 'node:crypto';
import { screen, waitFor } from '@testing-library/react';
import { fakeServer } from '../../test/fake-server';
import { renderPage, renderRoutes } from '../../test/render';
import { clearTokens } from '../../session/tokens';
import { oidcAuthorizationUrl, pkceChallenge, prepareOidcSignIn, readOidcCallback } from '../../session/oidc';
import Login from './Login';
import OidcCallback from './OidcCallback';
import SignUp from './SignUp';
import { ANA } from '../../test/users';

// jsdom's crypto has no SubtleCrypto; browsers (in a secure context) do.
if (!globalThis.crypto.subtle) Object.defineProperty(globalThis.crypto, 'subtle', { value: webcrypto.subtle });

const PROVIDERS = {
  providers: [
    { name: 'apple', label: 'Apple', authorization_url: 'https://idp.test/apple/auth', client_id: 'medfolio-web', scope: 'openid email profile', response_mode: 'form_post' },
    { name: 'microsoft', label: 'Microsoft', authorization_url: 'https://idp.test/ms/authorize', client_id: 'ms-client', scope: 'openid email profile', response_mode: 'query' },
  ],
};
const CONFIG = { google_client_id: null, google_authorization_url: 'http://google.test/o/oauth2/v2/auth' };

afterEach(() => {
  clearTokens();
  sessionStorage.clear();
});

describe('sign-in provider buttons', () => {
  it.each([
    ['Login', <Login key="l" />, '/login'],
    ['SignUp', <SignUp key="s" />, '/sign-up'],
  ])('%s shows one "Continue with" button per configured provider', async (_page, element, path) => {
    fakeServer({ 'GET /api/client-config/': () => ({ body: CONFIG }), 'GET /api/login-with-oidc/providers/': () => ({ body: PROVIDERS }) });
    renderPage(element, { path });
    expect(await screen.findByRole('button', { name: 'Continue with Apple' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continue with Microsoft' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Facebook/ })).not.toBeInTheDocument();
  });

  it('shows none when no provider is configured, nor when the list cannot be read', async () => {
    const server = fakeServer({ 'GET /api/client-config/': () => ({ body: CONFIG }), 'GET /api/login-with-oidc/providers/': () => ({ body: { providers: [] } }) });
    const first = renderPage(<Login />, { path: '/login' });
    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/login-with-oidc/providers/')).toBe(true));
    expect(screen.queryByRole('button', { name: /^Continue with/ })).not.toBeInTheDocument();
    first.unmount();
    fakeServer({ 'GET /api/client-config/': () => ({ body: CONFIG }), 'GET /api/login-with-oidc/providers/': () => ({ status: 503, body: { code: 'UNAVAILABLE', message: 'x' } }) });
    renderPage(<Login />, { path: '/login' });
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.queryByRole('button', { name: /^Continue with/ })).not.toBeInTheDocument();
  });
});

describe('the authorization request and the callback', () => {
  it('sends PKCE (S256), state and nonce to the configured endpoint, and the callback gives them back once', async () => {
    const start = { name: 'apple', authorizationUrl: 'https://idp.test/apple/auth', clientId: 'medfolio-web', scope: 'openid email profile', next: '/history' };
    const url = new URL(await prepareOidcSignIn(start, 'https://app.test'));
    expect(url.origin + url.pathname).toBe('https://idp.test/apple/auth');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ client_id: 'medfolio-web', response_type: 'code', redirect_uri: 'https://app.test/auth/oidc/apple/callback', code_challenge_method: 'S256', scope: 'openid email profile' });
    const state = url.searchParams.get('state') ?? '';
    const result = readOidcCallback('apple', `?code=abc&state=${state}`, 'https://app.test');
    if (result.kind !== 'code') throw new Error('expected a code');
    expect(result).toMatchObject({ code: 'abc', nonce: url.searchParams.get('nonce'), redirectUri: 'https://app.test/auth/oidc/apple/callback', next: '/history' });
    expect(await pkceChallenge(result.codeVerifier)).toBe(url.searchParams.get('code_challenge'));
    // Used once: a second answer with the same state is refused, as is a wrong state.
    expect(readOidcCallback('apple', `?code=abc&state=${state}`, 'https://app.test').kind).toBe('failed');
    await prepareOidcSignIn(start, 'https://app.test');
    expect(readOidcCallback('apple', '?code=abc&state=forged', 'https://app.test').kind).toBe('failed');
    expect(oidcAuthorizationUrl(start, { state: 's', nonce: 'n', challenge: 'c' }, 'https://app.test')).toContain('nonce=n');
  });

  it('exchanges the code through our server and signs in', async () => {
    const start = { name: 'apple', authorizationUrl: 'https://idp.test/apple/auth', clientId: 'medfolio-web', scope: 'openid email profile', next: '/history' };
    const url = new URL(await prepareOidcSignIn(start, window.location.origin));
    const server = fakeServer({
      'GET /api/client-config/': () => ({ body: CONFIG }),
      'POST /api/login-with-oidc/apple/': () => ({ body: { access: 'access-1', refresh: 'refresh-1' } }),
      'GET /api/profile/': () => ({ body: ANA }),
    });
    window.history.replaceState(null, '', `/auth/oidc/apple/callback?code=the-code&state=${url.searchParams.get('state')}`);
    const { router } = renderRoutes(
      [
        { path: '/auth/oidc/:provider/callback', element: <OidcCallback /> },
        { path: '/history', element: <p>history page</p> },
      ],
      { at: '/auth/oidc/apple/callback' },
    );
    expect(await screen.findByText('history page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/history');
    const post = server.calls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ code: 'the-code', code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), nonce: url.searchParams.get('nonce'), redirect_uri: `${window.location.origin}/auth/oidc/apple/callback` });
    expect(window.location.search).toBe('');
  });

  it("for a form_post provider, asks for response_mode=form_post with the gateway's callback route as redirect_uri, and the exchange sends that same redirect_uri", async () => {
    const start = { name: 'apple', authorizationUrl: 'https://idp.test/apple/auth', clientId: 'medfolio-web', scope: 'openid email name', next: '/history', responseMode: 'form_post' as const };
    const url = new URL(await prepareOidcSignIn(start, window.location.origin));
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ response_mode: 'form_post', response_type: 'code', redirect_uri: `${window.location.origin}/api/login-with-oidc/apple/callback/` });
    const server = fakeServer({
      'GET /api/client-config/': () => ({ body: CONFIG }),
      'POST /api/login-with-oidc/apple/': () => ({ body: { access: 'access-1', refresh: 'refresh-1' } }),
      'GET /api/profile/': () => ({ body: ANA }),
    });
    // The gateway's 303 lands on the same callback page as a query provider's redirect.
    window.history.replaceState(null, '', `/auth/oidc/apple/callback?code=the-code&state=${url.searchParams.get('state')}`);
    renderRoutes(
      [
        { path: '/auth/oidc/:provider/callback', element: <OidcCallback /> },
        { path: '/history', element: <p>history page</p> },
      ],
      { at: '/auth/oidc/apple/callback' },
    );
    expect(await screen.findByText('history page')).toBeInTheDocument();
    const post = server.calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({ code: 'the-code', nonce: url.searchParams.get('nonce'), redirect_uri: `${window.location.origin}/api/login-with-oidc/apple/callback/` });
  });

  it('a query provider asks for no response_mode; a stored redirect_uri that is not one of ours is not sent', async () => {
    const start = { name: 'microsoft', authorizationUrl: 'https://idp.test/ms/authorize', clientId: 'ms-client', scope: 'openid email profile', next: '/', responseMode: 'query' as const };
    const url = new URL(await prepareOidcSignIn(start, 'https://app.test'));
    expect(url.searchParams.has('response_mode')).toBe(false);
    const saved = JSON.parse(sessionStorage.getItem('medfolio.oidc.microsoft') ?? '{}') as Record<string, string>;
    sessionStorage.setItem('medfolio.oidc.microsoft', JSON.stringify({ ...saved, redirectUri: 'https://evil.test/api/login-with-oidc/microsoft/callback/' }));
    const result = readOidcCallback('microsoft', `?code=abc&state=${saved['state']}`, 'https://app.test');
    expect(result).toMatchObject({ kind: 'code', redirectUri: 'https://app.test/auth/oidc/microsoft/callback' });
  });

  it('the provider buttons start each provider with its own response mode (the redirect_uri kept for the callback)', async () => {
    fakeServer({ 'GET /api/client-config/': () => ({ body: CONFIG }), 'GET /api/login-with-oidc/providers/': () => ({ body: PROVIDERS }) });
    // jsdom cannot navigate to the provider: it says so on console.error, which is expected here.
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPage(<Login />, { path: '/login' });
    const kept = (name: string) => (JSON.parse(sessionStorage.getItem(`medfolio.oidc.${name}`) ?? '{}') as { redirectUri?: string }).redirectUri;
    (await screen.findByRole('button', { name: 'Continue with Apple' })).click();
    await waitFor(() => expect(kept('apple')).toBe(`${window.location.origin}/api/login-with-oidc/apple/callback/`));
    screen.getByRole('button', { name: 'Continue with Microsoft' }).click();
    await waitFor(() => expect(kept('microsoft')).toBe(`${window.location.origin}/auth/oidc/microsoft/callback`));
    quiet.mockRestore();
  });
});
