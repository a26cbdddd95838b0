import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer } from '../../test/fake-server';
import { renderPage, renderRoutes } from '../../test/render';
import { GuestOnly } from '../../app/guards';
import { clearTokens } from '../../session/tokens';
import Login from './Login';
import { ANA } from '../../test/users';

afterEach(() => clearTokens());

describe('Login page', () => {
  it('shows the spec messages only after a field is touched', async () => {
    const user = userEvent.setup();
    renderPage(<Login />, { path: '/login' });
    expect(screen.getByRole('heading', { name: 'Welcome Back!' })).toBeInTheDocument();
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Email Address'));
    await user.tab();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
  });

  it('shows every message on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    renderPage(<Login />, { path: '/login' });
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByText('Password is required')).toBeInTheDocument());
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('toggles the password between hidden and shown', async () => {
    const user = userEvent.setup();
    renderPage(<Login />, { path: '/login' });
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
  });
});

describe('Login page and the server', () => {
  it('signs in, stores both cookies and goes to ?next=', async () => {
    const user = userEvent.setup();
    const server = fakeServer({
      'POST /api/login/': () => ({ body: { access: 'access-1', refresh: 'refresh-1' } }),
      'GET /api/profile/': () => ({ body: ANA }),
    });
    // /login as the router has it: inside GuestOnly, which sends a signed-in user to ?next=.
    const { router } = renderRoutes(
      [
        { element: <GuestOnly />, children: [{ path: '/login', element: <Login /> }] },
        { path: '/history', element: <p>history page</p> },
      ],
      { at: '/login?next=/history' },
    );
    await user.type(screen.getByLabelText('Email Address'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('history page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/history');
    expect(server.calls.find((c) => c.path === '/api/login/')?.body).toEqual({ email: 'ana@example.com', password: 'correct horse' });
    expect(document.cookie).toContain('access_token=access-1');
    expect(document.cookie).toContain('refresh_token=refresh-1');
  });

  it('sends an unverified account (403) to /otp-verify with its e-mail', async () => {
    const user = userEvent.setup();
    fakeServer({ 'POST /api/login/': () => ({ status: 403, body: { message: 'Please verify your e-mail address first.', code: 'FORBIDDEN' } }) });
    const { router } = renderPage(<Login />, { path: '/login', routes: [{ path: '/otp-verify', element: <p>otp page</p> }] });
    await user.type(screen.getByLabelText('Email Address'), 'new@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('otp page')).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ email: 'new@example.com', error: 'Please verify your e-mail address first.' });
  });

  it('sends a step-up (403 STEP_UP_REQUIRED: a new device while the account is under attack) to /otp-verify for the sign-in code', async () => {
    const user = userEvent.setup();
    const message = 'For your security, this sign-in needs one more step.';
    fakeServer({ 'POST /api/login/': () => ({ status: 403, body: { message, code: 'STEP_UP_REQUIRED' } }) });
    const { router } = renderPage(<Login />, { path: '/login', routes: [{ path: '/otp-verify', element: <p>otp page</p> }] });
    await user.type(screen.getByLabelText('Email Address'), 'ana@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('otp page')).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ email: 'ana@example.com', error: message, stepUp: true });
  });

  it("shows the server's message in an error dialog, or the generic text", async () => {
    const user = userEvent.setup();
    fakeServer({ 'POST /api/login/': () => ({ status: 401, body: { message: 'Invalid email or password.', code: 'UNAUTHENTICATED' } }) });
    renderPage(<Login />, { path: '/login' });
    await user.type(screen.getByLabelText('Email Address'), 'a@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email or password.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Error' })).toBeInTheDocument();
  });
});
