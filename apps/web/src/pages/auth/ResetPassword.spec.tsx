import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GENERIC_ERROR } from '../../api/errors';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import ResetPassword from './ResetPassword';

// The link of the reset e-mail: the e-mail segment is URL-encoded.
const LINK = '/reset-password/ana.lima%2Btest%40example.com/tok-123_abc';

function renderReset() {
  return renderPage(<ResetPassword />, {
    path: '/reset-password/:email/:token',
    at: LINK,
    routes: [{ path: '/login', element: <p>login page</p> }],
  });
}

describe('Reset password page', () => {
  it('shows the title, both fields with their toggles and the button', async () => {
    const user = userEvent.setup();
    renderReset();
    expect(screen.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByText('ana.lima+test@example.com')).toBeInTheDocument();
    const password = screen.getByLabelText('New password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide new password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show confirm new password' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset Password' })).toBeInTheDocument();
  });

  it('shows a message only for the touched field', async () => {
    const user = userEvent.setup();
    renderReset();
    await user.click(screen.getByLabelText('New password'));
    await user.tab();
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.queryByText('Confirm password is required')).not.toBeInTheDocument();
  });

  it('shows both required messages on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    renderReset();
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Confirm password is required')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('says "Limit exceeded" past 100 characters and "Passwords must match" on a mismatch', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    renderReset();
    await user.click(screen.getByLabelText('New password'));
    await user.paste('p'.repeat(101));
    await user.type(screen.getByLabelText('Confirm new password'), 'different');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Limit exceeded (100 characters)')).toBeInTheDocument();
    expect(screen.getByText('Passwords must match')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('Reset password page and the server', () => {
  it('posts the password with the decoded e-mail and the token, then goes to /login with a notice', async () => {
    const user = userEvent.setup();
    const server = fakeServer({ 'POST /api/reset-password/': () => ({ body: { message: 'Password reset.' } }) });
    const { router } = renderReset();
    await user.type(screen.getByLabelText('New password'), 'new secret 1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new secret 1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/reset-password/',
        body: { password: 'new secret 1', email: 'ana.lima+test@example.com', token: 'tok-123_abc' },
        authorization: null,
      },
    ]);
    expect(router.state.location.state).toEqual({
      notice: 'Your password has been changed. You can sign in with your new password.',
      email: 'ana.lima+test@example.com',
    });
  });

  it("shows the server's message for an expired or used link", async () => {
    const user = userEvent.setup();
    fakeServer({
      'POST /api/reset-password/': () => ({
        status: 400,
        body: { message: 'This reset link is not valid or has expired. Ask for a new one.', code: 'VALIDATION_FAILED' },
      }),
    });
    const { router } = renderReset();
    await user.type(screen.getByLabelText('New password'), 'new secret 1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new secret 1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(
      within(dialog).getByText('This reset link is not valid or has expired. Ask for a new one.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reset-password/ana.lima%2Btest%40example.com/tok-123_abc');
    expect(screen.getByRole('link', { name: 'Ask for a new one' })).toHaveAttribute('href', '/forgot-password');
  });

  it('shows the generic text when the server gives no message, with the button disabled meanwhile', async () => {
    const user = userEvent.setup();
    let answer: (value: { status: number }) => void = () => undefined;
    fakeServer({ 'POST /api/reset-password/': () => new Promise((resolve) => (answer = resolve)) });
    renderReset();
    await user.type(screen.getByLabelText('New password'), 'new secret 1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new secret 1');
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Resetting…' })).toBeDisabled());
    answer({ status: 500 });
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText(GENERIC_ERROR)).toBeInTheDocument();
  });
});
