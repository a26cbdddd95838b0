import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GENERIC_ERROR } from '../../api/errors';
import { fakeServer } from '../../test/fake-server';
import { renderRoutes } from '../../test/render';
import { ANA } from '../../test/users';
import { clearTokens } from '../../session/tokens';
import GoogleCallback from './GoogleCallback';

/** Google's answer in the address bar, for a sign-in this browser started (state s1, on to /history). */
function comeBack(fragment: string) {
  sessionStorage.setItem('medfolio.google.state', JSON.stringify({ state: 's1', next: '/history' }));
  window.history.replaceState(null, '', `/auth/google/callback#${fragment}`);
  return renderRoutes(
    [
      { path: '/auth/google/callback', element: <GoogleCallback /> },
      { path: '/history', element: <p>history page</p> },
      { path: '/login', element: <p>login page</p> },
    ],
    { at: '/auth/google/callback' },
  );
}

afterEach(() => {
  clearTokens();
  sessionStorage.clear();
});

describe('Google callback page', () => {
  it('exchanges the token through our server, clears it from the address bar and goes on to next', async () => {
    const server = fakeServer({
      'POST /api/login-with-google/': () => ({ body: { access: 'access-1', refresh: 'refresh-1' } }),
      'GET /api/profile/': () => ({ body: ANA }),
    });
    const { router } = comeBack('state=s1&access_token=google-token');
    expect(await screen.findByText('history page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/history');
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ token: 'google-token' });
    expect(window.location.hash).toBe('');
  });

  it('says so when Google returned no credential, and Ok leads back to the login page', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    const { router } = comeBack('state=s1');
    expect(await screen.findByRole('dialog')).toHaveTextContent('Google login failed: No credential returned');
    expect(server.calls).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Ok' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the general error when our server refuses the token', async () => {
    fakeServer({ 'POST /api/login-with-google/': () => ({ status: 401, body: { detail: 'Invalid token' } }) });
    comeBack('state=s1&access_token=google-token');
    expect(await screen.findByRole('dialog')).toHaveTextContent(GENERIC_ERROR);
  });
});
