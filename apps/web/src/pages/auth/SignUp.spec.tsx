import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { GENERIC_ERROR } from '../../api/errors';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import SignUp, { signedUpNotice } from './SignUp';

const loginRoute = [{ path: '/login', element: <p>login page</p> }];

function renderSignUp() {
  return renderPage(<SignUp />, { path: '/sign-up', routes: loginRoute });
}

const terms = () => screen.getByRole('checkbox', { name: /I agree to the Terms of Service/ });

async function fillValidForm(user: UserEvent, overrides: { name?: string } = {}) {
  await user.type(screen.getByLabelText('Name'), overrides.name ?? '  Ana Maria   Lima ');
  await user.type(screen.getByLabelText('Email Address'), 'ana@example.com');
  await user.type(screen.getByLabelText('Mobile Number'), '+1 202 555 0143');
  await user.selectOptions(screen.getByLabelText('Month'), '02');
  await user.selectOptions(screen.getByLabelText('Day'), '09');
  await user.selectOptions(screen.getByLabelText('Year'), '1990');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.type(screen.getByLabelText('Confirm Password'), 'correct horse');
  await user.click(terms());
}

describe('Sign-up page', () => {
  it('shows the spec texts, the date of birth group and the links', () => {
    renderSignUp();
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Your Medical History at your grasp.')).toBeInTheDocument();
    const group = screen.getByRole('group', { name: 'Date of birth' });
    expect(within(group).getAllByRole('combobox')).toHaveLength(3);
    expect(
      within(screen.getByLabelText('Month'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['MM', '01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12']);
    expect(within(screen.getByLabelText('Day')).getAllByRole('option')).toHaveLength(32);
    const years = within(screen.getByLabelText('Year')).getAllByRole('option');
    expect(years).toHaveLength(101);
    expect(years[1]).toHaveTextContent(String(new Date().getFullYear()));
    expect(screen.getByRole('link', { name: /Terms of Service/ })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('button', { name: 'Sign up' })).toBeInTheDocument();
  });

  it('offers only the days of the chosen month and year, and drops a day that no longer exists', async () => {
    const user = userEvent.setup();
    renderSignUp();
    const dayOptions = () => within(screen.getByLabelText('Day')).getAllByRole('option').slice(1).map((o) => o.textContent);
    await user.selectOptions(screen.getByLabelText('Month'), '04');
    expect(dayOptions()).toHaveLength(30);
    await user.selectOptions(screen.getByLabelText('Month'), '02');
    expect(dayOptions().at(-1)).toBe('29');
    await user.selectOptions(screen.getByLabelText('Day'), '29');
    await user.selectOptions(screen.getByLabelText('Year'), '1987');
    expect(dayOptions().at(-1)).toBe('28');
    await waitFor(() => expect(screen.getByLabelText('Day')).toHaveValue(''));
    await user.selectOptions(screen.getByLabelText('Year'), '1988');
    expect(dayOptions().at(-1)).toBe('29');
  });

  it('shows the password rule and how to write the phone number by their fields before anything is sent', () => {
    renderSignUp();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters.');
    expect(screen.getByLabelText('Mobile Number')).toHaveAccessibleDescription('With the country code, e.g. +44 20 7946 0958.');
  });

  it('refuses a phone number that is not one, with one clear message', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    renderSignUp();
    await fillValidForm(user);
    await user.clear(screen.getByLabelText('Mobile Number'));
    await user.type(screen.getByLabelText('Mobile Number'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Enter a valid mobile number with its country code, e.g. +44 20 7946 0958.')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('shows a message only for the field that was touched', async () => {
    const user = userEvent.setup();
    renderSignUp();
    await user.click(screen.getByLabelText('Name'));
    await user.tab();
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.queryByText('Email is required')).not.toBeInTheDocument();
    expect(screen.queryByText('Mobile number is required')).not.toBeInTheDocument();
    expect(screen.queryByText('Password is required')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows every required message on submit and sends nothing', async () => {
    const user = userEvent.setup();
    const server = fakeServer({});
    renderSignUp();
    await user.click(terms());
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    for (const message of [
      'Name is required',
      'Email is required',
      'Mobile number is required',
      'Month is required',
      'Day is required',
      'Year is required',
      'Password is required',
      'Confirm password is required',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('says "Limit exceeded" past 100 characters and "Passwords must match" on a mismatch', async () => {
    const user = userEvent.setup();
    renderSignUp();
    const long = 'x'.repeat(101);
    for (const label of ['Name', 'Email Address', 'Mobile Number', 'Password']) {
      await user.click(screen.getByLabelText(label));
      await user.paste(long);
      await user.tab();
    }
    await waitFor(() => expect(screen.getAllByText('Limit exceeded (100 characters)')).toHaveLength(4));
    await user.type(screen.getByLabelText('Confirm Password'), 'something else');
    await user.tab();
    expect(await screen.findByText('Passwords must match')).toBeInTheDocument();
  });

  it('does not check the e-mail format and leaves length limits to its own messages', () => {
    renderSignUp();
    const email = screen.getByLabelText('Email Address');
    expect(email).toHaveAttribute('type', 'text');
    expect(email).toHaveAttribute('inputmode', 'email');
    for (const label of ['Name', 'Email Address', 'Mobile Number', 'Password', 'Confirm Password']) {
      expect(screen.getByLabelText(label)).not.toHaveAttribute('required');
      expect(screen.getByLabelText(label)).not.toHaveAttribute('maxlength');
    }
  });

  it('lets the browser require the terms checkbox: nothing is sent while it is unchecked', async () => {
    const user = userEvent.setup();
    const server = fakeServer({ 'POST /api/register/': () => ({ status: 201, body: { message: 'ok' } }) });
    renderSignUp();
    await fillValidForm(user);
    await user.click(terms());
    expect(terms()).not.toBeChecked();
    expect(terms()).toBeRequired();
    expect(terms()).toBeInvalid();
    expect(screen.getByRole('button', { name: 'Sign up' }).closest('form')).not.toHaveAttribute('novalidate');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(screen.queryByText('login page')).not.toBeInTheDocument();
  });
});

describe('Sign-up page and the server', () => {
  it("sends a friend's referral code from the invitation link (/sign-up?ref=CODE)", async () => {
    const user = userEvent.setup();
    const server = fakeServer({ 'POST /api/register/': () => ({ status: 201, body: { message: 'Account created.' } }) });
    renderPage(<SignUp />, { path: '/sign-up', at: '/sign-up?ref=K7M2QX9A', routes: loginRoute });
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ email: 'ana@example.com', ref: 'K7M2QX9A' });
  });

  it('registers with the split name and a year-month-day birth date, then goes to /login with a notice', async () => {
    const user = userEvent.setup();
    const server = fakeServer({
      'POST /api/register/': () => ({ status: 201, body: { message: 'Account created.' } }),
    });
    const { router } = renderSignUp();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([
      {
        method: 'POST',
        path: '/api/register/',
        authorization: null,
        body: {
          first_name: 'Ana',
          last_name: 'Maria Lima',
          phone: '+1 202 555 0143',
          email: 'ana@example.com',
          password: 'correct horse',
          date_of_birth: '1990-02-09',
        },
      },
    ]);
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({
      notice:
        'Your account has been created. We sent a 4-digit code to ana@example.com: sign in, then enter the code to verify your account. If you already had an account with this address, we e-mailed you instead: sign in with your password, or reset it.',
      email: 'ana@example.com',
    });
    expect(signedUpNotice('ana@example.com')).toContain('4-digit code to ana@example.com');
  });

  it('sends an empty last_name for a one-word name', async () => {
    const user = userEvent.setup();
    const server = fakeServer({
      'POST /api/register/': () => ({ status: 201, body: { message: 'Account created.' } }),
    });
    renderSignUp();
    await fillValidForm(user, { name: 'Ana' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/register/')?.body).toMatchObject({
      first_name: 'Ana',
      last_name: '',
    });
  });

  it("shows the server's message in an error dialog and stays on the page", async () => {
    const user = userEvent.setup();
    fakeServer({
      'POST /api/register/': () => ({
        // A taken address is answered as a new one (201); refusals are the field checks, such as this.
        status: 400,
        body: { message: 'Date of birth cannot be in the future.', code: 'VALIDATION_FAILED' },
      }),
    });
    const { router } = renderSignUp();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText('Date of birth cannot be in the future.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/sign-up');
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the generic text when the server gives no message', async () => {
    const user = userEvent.setup();
    fakeServer({ 'POST /api/register/': () => ({ status: 500 }) });
    renderSignUp();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(dialog).getByText(GENERIC_ERROR)).toBeInTheDocument();
  });

  it('disables the button and shows its loading state while the request is in flight', async () => {
    const user = userEvent.setup();
    let answer: (value: { status: number; body: unknown }) => void = () => undefined;
    fakeServer({ 'POST /api/register/': () => new Promise((resolve) => (answer = resolve)) });
    renderSignUp();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const busy = await screen.findByRole('button', { name: 'Signing up…' });
    expect(busy).toBeDisabled();
    answer({ status: 201, body: { message: 'Account created.' } });
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });
});
