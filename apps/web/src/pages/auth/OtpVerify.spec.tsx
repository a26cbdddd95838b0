import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { GENERIC_ERROR } from '../../api/errors';
import { fakeServer } from '../../test/fake-server';
import { renderPage, renderRoutes } from '../../test/render';
import { GuestOnly } from '../../app/guards';
import { accessToken, clearTokens, refreshToken } from '../../session/tokens';
import OtpVerify, { NEW_CODE_NEEDED, NEW_SIGN_IN_CODE_NEEDED, STEP_UP_HINT, type OtpVerifyState } from './OtpVerify';

function renderOtp(state?: OtpVerifyState) {
  return renderPage(<OtpVerify />, {
    path: '/otp-verify',
    state,
    routes: [{ path: '/login', element: <p>login page</p> }],
  });
}

const codeInput = () => screen.getByLabelText('Verification code');
const verifyButton = () => screen.getByRole('button', { name: /^Verif/ });
const posts = (server: ReturnType<typeof fakeServer>) => server.calls.filter((c) => c.method === 'POST');

describe('OTP verify page', () => {
  it('says the code went to the e-mail address and offers the way back and a contact link', () => {
    renderOtp({ email: 'ana@example.com' });
    expect(screen.getByRole('heading', { level: 1, name: 'Verification Code' })).toBeInTheDocument();
    expect(screen.getByText(/We sent a 4-digit code to your e-mail address/)).toHaveTextContent(
      'We sent a 4-digit code to your e-mail address ana@example.com. Enter it below to verify your account.',
    );
    expect(screen.queryByLabelText('Email Address')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is one accessible input for a one-time code, up to 6 characters', () => {
    renderOtp({ email: 'ana@example.com' });
    const input = codeInput();
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('autocomplete', 'one-time-code');
    expect(input).toHaveAttribute('maxlength', '6');
    expect(input).toHaveAccessibleDescription('The 4 digits from the e-mail.');
  });

  it('explains, in the page and not as an error, why the login page sent the user here', () => {
    renderOtp({ email: 'ana@example.com', error: 'Please verify your e-mail address first.' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/^Please verify your e-mail address first\. Your account exists; it only needs this step once\./);
  });

  it('enables Verify only at exactly 4 characters and accepts at most 6', async () => {
    const user = userEvent.setup();
    renderOtp({ email: 'ana@example.com' });
    expect(verifyButton()).toHaveTextContent('Verify');
    expect(verifyButton()).toBeDisabled();
    await user.type(codeInput(), '123');
    expect(verifyButton()).toBeDisabled();
    await user.type(codeInput(), '4');
    expect(codeInput()).toHaveValue('1234');
    expect(verifyButton()).toBeEnabled();
    await user.type(codeInput(), '5');
    expect(verifyButton()).toBeDisabled();
    await user.type(codeInput(), '6');
    expect(verifyButton()).toBeDisabled();
    await user.type(codeInput(), '7');
    expect(codeInput()).toHaveValue('123456');
    await user.type(codeInput(), '{Backspace}{Backspace}');
    expect(codeInput()).toHaveValue('1234');
    expect(verifyButton()).toBeEnabled();
  });

  it('keeps only digits (a pasted "12 34" is the code 1234)', async () => {
    const user = userEvent.setup();
    renderOtp({ email: 'ana@example.com' });
    await user.click(codeInput());
    await user.paste('12 34');
    expect(codeInput()).toHaveValue('1234');
    expect(verifyButton()).toBeEnabled();
  });
});

describe('OTP verify page and the server', () => {
  it('shows Verifying... then Verified!, then goes to /login with the verified notice and the e-mail', async () => {
    const user = userEvent.setup();
    let answer: (value: { body: unknown }) => void = () => undefined;
    const server = fakeServer({ 'POST /api/verify-otp/': () => new Promise((resolve) => (answer = resolve)) });
    const { router } = renderOtp({ email: 'ana@example.com' });
    await user.type(codeInput(), '4821');
    await user.click(verifyButton());
    await waitFor(() => expect(verifyButton()).toHaveTextContent('Verifying...'));
    expect(verifyButton()).toBeDisabled();
    answer({ body: { message: 'Your e-mail address is verified. You can sign in now.' } });
    await waitFor(() => expect(verifyButton()).toHaveTextContent('Verified!'));
    expect(verifyButton()).toBeDisabled();
    expect(router.state.location.pathname).toBe('/otp-verify');
    expect(await screen.findByText('login page', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({
      notice: 'Your e-mail address is verified. You can sign in now.',
      email: 'ana@example.com',
    });
    expect(posts(server)).toEqual([
      {
        method: 'POST',
        path: '/api/verify-otp/',
        body: { email: 'ana@example.com', otp: '4821' },
        authorization: null,
      },
    ]);
  });

  it("clears a refused code, says the server's reason under the boxes, puts the focus back and lets the user retry", async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const server = fakeServer({
      'POST /api/verify-otp/': () =>
        ++attempts === 1
          ? { status: 400, body: { message: 'This code is not valid.', code: 'VALIDATION_FAILED' } }
          : { body: { message: 'Verified.' } },
    });
    renderOtp({ email: 'ana@example.com' });
    await user.type(codeInput(), '1111');
    await user.click(verifyButton());
    await waitFor(() => expect(codeInput()).toHaveValue(''));
    expect(codeInput()).toHaveFocus();
    expect(verifyButton()).toHaveTextContent('Verify');
    expect(verifyButton()).toBeDisabled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('This code is not valid.');
    expect(codeInput()).toHaveAccessibleDescription('The 4 digits from the e-mail. This code is not valid.');
    await user.keyboard('2222{Enter}');
    await waitFor(() => expect(verifyButton()).toHaveTextContent('Verified!'));
    expect(posts(server).map((c) => c.body)).toEqual([
      { email: 'ana@example.com', otp: '1111' },
      { email: 'ana@example.com', otp: '2222' },
    ]);
  });

  it('after the last allowed try says a new code is needed and points at Resend Code; a resend starts afresh', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      fakeServer({
        'POST /api/verify-otp/': () => ({ status: 400, body: { message: 'Too many wrong codes. Ask for a new one.', code: 'VALIDATION_FAILED' } }),
        'POST /api/resend-otp/': () => ({ body: { message: 'A new code is on its way.' } }),
      });
      renderOtp({ email: 'ana@example.com' });
      for (let i = 1; i <= 4; i += 1) {
        await user.type(codeInput(), '1111{Enter}');
        await waitFor(() => expect(codeInput()).toHaveValue(''));
        expect(screen.getByRole('alert')).not.toHaveTextContent(NEW_CODE_NEEDED);
      }
      await user.type(codeInput(), '1111{Enter}');
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(`Too many wrong codes. Ask for a new one. ${NEW_CODE_NEEDED}`));
      act(() => jest.advanceTimersByTime(30_000));
      await user.click(screen.getByRole('button', { name: 'Resend Code' }));
      await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    } finally {
      jest.useRealTimers();
    }
  });

  it('signs the user in when the verification hands out a session, and goes home', async () => {
    clearTokens();
    const user = userEvent.setup();
    fakeServer({ 'POST /api/verify-otp/': () => ({ body: { message: 'Verified.', access: 'a1', refresh: 'r1' } }) });
    const { router, store } = renderRoutes(
      [
        { element: <GuestOnly />, children: [{ path: '/otp-verify', element: <OtpVerify /> }] },
        { path: '/', element: <p>home page</p> },
        { path: '/login', element: <p>login page</p> },
      ],
      { at: '/otp-verify', state: { email: 'ana@example.com' } },
    );
    await user.type(codeInput(), '4821{Enter}');
    await waitFor(() => expect(verifyButton()).toHaveTextContent('Verified!'));
    expect(await screen.findByText('home page', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(store.getState().session.authenticated).toBe(true);
    expect([accessToken(), refreshToken()]).toEqual(['a1', 'r1']);
    clearTokens();
  });

  it('finishes a step-up sign-in with the e-mailed sign-in code: its own words, no resend, signed in and home', async () => {
    clearTokens();
    const user = userEvent.setup();
    const server = fakeServer({ 'POST /api/verify-otp/': () => ({ body: { message: 'The code is right: you are signed in.', access: 'a2', refresh: 'r2' } }) });
    const { router, store } = renderRoutes(
      [
        { element: <GuestOnly />, children: [{ path: '/otp-verify', element: <OtpVerify /> }] },
        { path: '/', element: <p>home page</p> },
      ],
      { at: '/otp-verify', state: { email: 'ana@example.com', error: 'For your security, this sign-in needs one more step.', stepUp: true } satisfies OtpVerifyState },
    );
    expect(screen.getByText(/To finish signing in/)).toHaveTextContent('To finish signing in, enter the 4-digit code we sent to your e-mail address ana@example.com.');
    expect(screen.getByRole('status')).toHaveTextContent(`For your security, this sign-in needs one more step. ${STEP_UP_HINT}`);
    expect(screen.queryByText(/Your account exists/)).not.toBeInTheDocument();
    expect(screen.queryByText(/Resend code in/)).not.toBeInTheDocument();
    expect(screen.getByText('A new code? Sign in again from the login page.')).toBeInTheDocument();
    await user.type(codeInput(), '4821{Enter}');
    expect(await screen.findByText('home page', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(store.getState().session.authenticated).toBe(true);
    expect(server.calls.find((c) => c.path === '/api/verify-otp/')?.body).toEqual({ email: 'ana@example.com', otp: '4821' });
    expect([accessToken(), refreshToken()]).toEqual(['a2', 'r2']);
    clearTokens();
  });

  it('a step-up code that has used up its tries says to sign in again for a new one', async () => {
    const user = userEvent.setup();
    fakeServer({ 'POST /api/verify-otp/': () => ({ status: 400, body: { message: 'This code is not valid.', code: 'VALIDATION_FAILED' } }) });
    renderOtp({ email: 'ana@example.com', stepUp: true });
    for (let i = 0; i < 5; i += 1) {
      await user.type(codeInput(), '0000{Enter}');
      await waitFor(() => expect(codeInput()).toHaveValue(''));
    }
    expect(await screen.findByText(`This code is not valid. ${NEW_SIGN_IN_CODE_NEEDED}`)).toBeInTheDocument();
  });

  it('asks for the e-mail address when the page has none in its navigation state', async () => {
    const user = userEvent.setup();
    const server = fakeServer({ 'POST /api/verify-otp/': () => ({ body: { message: 'Verified.' } }) });
    const { router } = renderOtp();
    expect(screen.getByText(/We sent a 4-digit code to your e-mail address/)).toHaveTextContent(
      'We sent a 4-digit code to your e-mail address. Enter the address and the code below to verify your account.',
    );
    const email = screen.getByLabelText('Email Address');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await user.type(codeInput(), '4821');
    await user.click(verifyButton());
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(posts(server)).toEqual([]);
    await user.type(email, ' ana@example.com ');
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    await user.click(verifyButton());
    expect(await screen.findByText('login page', undefined, { timeout: 3000 })).toBeInTheDocument();
    expect(posts(server).map((c) => c.body)).toEqual([{ email: 'ana@example.com', otp: '4821' }]);
    expect(router.state.location.state).toEqual({
      notice: 'Your e-mail address is verified. You can sign in now.',
      email: 'ana@example.com',
    });
  });

  it('shows "Email is required" once the e-mail field was touched', async () => {
    const user = userEvent.setup();
    renderOtp();
    await user.click(screen.getByLabelText('Email Address'));
    await user.tab();
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
  });
});

describe('OTP resend countdown', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const tick = (ms: number) => act(() => jest.advanceTimersByTime(ms));

  it('counts down from 30 and then offers "Resend Code"', () => {
    renderOtp({ email: 'ana@example.com' });
    expect(screen.getByText('Resend code in 30s')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend Code' })).not.toBeInTheDocument();
    tick(1000);
    expect(screen.getByText('Resend code in 29s')).toBeInTheDocument();
    tick(28_000);
    expect(screen.getByText('Resend code in 1s')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Resend Code' })).not.toBeInTheDocument();
    tick(1000);
    expect(screen.queryByText(/Resend code in/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Code' })).toBeInTheDocument();
  });

  it('resends to the e-mail and starts again at 30 on success', async () => {
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    const server = fakeServer({
      'POST /api/resend-otp/': () => ({ body: { message: 'A new code is on its way to the e-mail address.' } }),
    });
    renderOtp({ email: 'ana@example.com' });
    tick(30_000);
    await user.click(screen.getByRole('button', { name: 'Resend Code' }));
    expect(await screen.findByText('Resend code in 30s')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('A new code is on its way to the e-mail address.');
    expect(posts(server)).toEqual([
      { method: 'POST', path: '/api/resend-otp/', body: { email: 'ana@example.com' }, authorization: null },
    ]);
    tick(1000);
    expect(screen.getByText('Resend code in 29s')).toBeInTheDocument();
  });

  it("keeps the Resend Code button and shows the server's message when a resend fails", async () => {
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    fakeServer({
      'POST /api/resend-otp/': () => ({
        status: 429,
        body: { message: 'Too many codes requested. Please try again in 40 minutes.', code: 'RATE_LIMITED' },
      }),
    });
    renderOtp({ email: 'ana@example.com' });
    tick(30_000);
    await user.click(screen.getByRole('button', { name: 'Resend Code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText('Too many codes requested. Please try again in 40 minutes.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend Code' })).toBeInTheDocument();
    expect(screen.queryByText(/Resend code in/)).not.toBeInTheDocument();
  });

  it('shows the generic text when a resend fails without a message', async () => {
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    fakeServer({ 'POST /api/resend-otp/': () => ({ status: 500 }) });
    renderOtp({ email: 'ana@example.com' });
    tick(30_000);
    await user.click(screen.getByRole('button', { name: 'Resend Code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText(GENERIC_ERROR)).toBeInTheDocument();
  });
});
