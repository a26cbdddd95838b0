import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GENERIC_ERROR } from '../../api/errors';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import ForgotPassword from './ForgotPassword';

function renderForgot() {
  return renderPage(<ForgotPassword />, { path: '/forgot-password' });
}

describe('Forgot password page', () => {
  it('shows the title, the field, the button and says a link goes to the e-mail address', () => {
    renderForgot();
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot Password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email Address')).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeInTheDocument();
    expect(screen.getByText(/We will send a link to reset your password to that e-mail address\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });

  it('shows "Email is required" only once the field was touched', async () => {
    const user = userEvent.setup();
    renderForgot();
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Email Address'));
    await user.tab();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
  });

  it('shows "Email is required" on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    renderForgot();
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('says "Limit exceeded" past 100 characters', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    renderForgot();
    await user.click(screen.getByLabelText('Email Address'));
    await user.paste(`${'x'.repeat(89)}@example.com`);
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Limit exceeded (100 characters)')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});

describe('Forgot password page and the server', () => {
  it('posts the e-mail and tells the user to check their e-mail, staying on the page', async () => {
    const user = userEvent.setup();
    const server = fakeServer({
      'POST /api/forgot-password/': () => ({ body: { message: 'If an account exists…', token: null } }),
    });
    const { router } = renderForgot();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Email Address'), ' ana@example.com ');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Check your e-mail: if an account exists for ana@example.com, we sent it a link to reset your password. The link opens the page where you choose a new one.',
    );
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/forgot-password/', body: { email: 'ana@example.com' }, authorization: null },
    ]);
    expect(router.state.location.pathname).toBe('/forgot-password');
  });

  it("shows the server's message in an error dialog", async () => {
    const user = userEvent.setup();
    fakeServer({
      'POST /api/forgot-password/': () => ({
        status: 429,
        body: { message: 'Too many requests. Try again later.', code: 'RATE_LIMITED' },
      }),
    });
    renderForgot();
    await user.type(screen.getByLabelText('Email Address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText('Too many requests. Try again later.')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows the generic text when the server gives no message', async () => {
    const user = userEvent.setup();
    fakeServer({ 'POST /api/forgot-password/': () => ({ status: 502 }) });
    renderForgot();
    await user.type(screen.getByLabelText('Email Address'), 'ana@example.com');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText(GENERIC_ERROR)).toBeInTheDocument();
  });
});
