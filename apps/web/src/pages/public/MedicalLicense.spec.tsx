import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { accessToken, clearTokens, storeTokens } from '../../session/tokens';
import MedicalLicense from './MedicalLicense';

const VERIFIED = 'License verified successfully!';
const NOT_FOUND = 'Medical License Number Not Found, Please Try Again';
const UNAVAILABLE = 'We cannot verify licenses right now. Please try again later.';
const provider = {
  npi: '1234567893',
  registry: 'nppes',
  first_name: 'ANA',
  last_name: 'RUIZ',
  credential: 'M.D.',
  specialty: 'Internal Medicine',
  state: 'CA',
  verified_at: '2026-11-24T03:00:00.000Z',
  display_name: 'Dr Ana Ruiz (NPI 1234567893)',
  verification: 'self_attested',
  review: 'pending',
  reviewed_at: null,
};

function setup() {
  const user = userEvent.setup();
  renderPage(<MedicalLicense />, { path: '/medical-license' });
  return {
    user,
    input: () => screen.getByLabelText('Medical License Number'),
    proceed: () => screen.getByRole('button', { name: 'Proceed' }),
    goBack: () => screen.getByRole('button', { name: 'Go Back' }),
  };
}

afterEach(() => clearTokens());

describe('Medical license page, signed in', () => {
  beforeEach(() => storeTokens({ access: 'old-access', refresh: 'r1' }));

  it('says which level the claim holds: self-attested (review pending) until an operator verifies it', async () => {
    fakeServer({
      'POST /api/medical-license/': () => ({ body: { message: VERIFIED, provider } }),
      'POST /api/token/refresh/': () => ({ body: { access: 'new-access', refresh: 'r2' } }),
    });
    const { user, input, proceed } = setup();
    await user.type(input(), '1234567893');
    await user.click(proceed());
    expect(await screen.findByText(VERIFIED)).toBeInTheDocument();
    expect(screen.getByText('Self-attested provider (review pending)')).toBeInTheDocument();
    expect(screen.getByText(/they see that you are not verified/)).toBeInTheDocument();
  });

  it('shows the level the account holds when it opens: verified', async () => {
    fakeServer({ 'GET /api/medical-license/': () => ({ body: { ...provider, verification: 'verified', review: 'verified', reviewed_at: '2026-11-25T03:00:00.000Z' } }) });
    setup();
    expect(await screen.findByText('Verified provider')).toBeInTheDocument();
    expect(screen.getByText('Your license: Dr Ana Ruiz (NPI 1234567893)')).toBeInTheDocument();
  });

  it('offers the real holder a dispute when another account claims the number (409), and files it', async () => {
    const claimed = 'This license number is already claimed by another account. If it is yours, you can dispute that claim.';
    const filed = 'Your dispute was filed. An operator will review both claims and contact you at your account e-mail address.';
    const server = fakeServer({
      'POST /api/medical-license/': () => ({ status: 409, body: { message: claimed, code: 'CONFLICT' } }),
      'POST /api/medical-license/dispute/': () => ({ status: 201, body: { message: filed, dispute_id: 'd1' } }),
    });
    const { user, input, proceed } = setup();
    await user.type(input(), '1234567893');
    await user.click(proceed());
    expect(await screen.findByText(claimed)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Dispute this claim' }));
    expect(await screen.findByText(filed)).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/medical-license/dispute/')?.body).toEqual({ license_number: '1234567893' });
  });

  it('asks for the license number; Proceed is disabled while the field is empty', async () => {
    fakeServer({});
    const { user, input, proceed } = setup();
    expect(screen.getByText('Kindly proceed by entering your license number below.')).toBeInTheDocument();
    expect(proceed()).toBeDisabled();
    await user.type(input(), '   ');
    expect(proceed()).toBeDisabled();
    await user.type(input(), '1');
    expect(proceed()).toBeEnabled();
  });

  it('verifies with the server, says so in green with the registry facts, and refreshes the session for the new role', async () => {
    let release: () => void = () => undefined;
    const server = fakeServer({
      'POST /api/medical-license/': () => new Promise((resolve) => (release = () => resolve({ body: { message: VERIFIED, provider } }))),
      'POST /api/token/refresh/': () => ({ body: { access: 'new-access', refresh: 'r2' } }),
    });
    const { user, input, proceed } = setup();
    await user.type(input(), '1234567893');
    await user.click(proceed());
    expect(proceed()).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your license number…');
    release();
    expect(await screen.findByText(VERIFIED)).toHaveClass('text-green-800');
    expect(screen.getByRole('status')).toHaveTextContent('Dr Ana Ruiz (NPI 1234567893), M.D. · Internal Medicine (CA)');
    expect(server.calls.find((c) => c.method === 'POST' && c.path === '/api/medical-license/')?.body).toEqual({ license_number: '1234567893' });
    expect(server.calls.find((c) => c.path === '/api/token/refresh/')?.body).toEqual({ refresh: 'r1' });
    expect(accessToken()).toBe('new-access');
  });

  it.each([
    [404, { message: NOT_FOUND, code: 'NOT_FOUND' }, NOT_FOUND],
    [503, { message: UNAVAILABLE, code: 'UNAVAILABLE' }, UNAVAILABLE],
    [400, { message: "The registry's record for this number is under another name. The name on your profile must match it.", code: 'VALIDATION_FAILED' }, "The registry's record for this number is under another name."],
    [409, { message: 'This license number is already verified on another account.', code: 'CONFLICT' }, 'already verified on another account'],
  ])('answers %i in red, as an alert', async (status, body, shown) => {
    fakeServer({ 'POST /api/medical-license/': () => ({ status, body }) });
    const { user, input, proceed } = setup();
    await user.type(input(), '1234567893{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
    expect(screen.getByRole('alert')).toHaveClass('text-red-700');
    expect(screen.queryByText(VERIFIED)).not.toBeInTheDocument();
    await waitFor(() => expect(proceed()).toBeEnabled());
  });

  it('Go Back clears the number and the result', async () => {
    fakeServer({ 'POST /api/medical-license/': () => ({ status: 404, body: { message: NOT_FOUND, code: 'NOT_FOUND' } }) });
    const { user, input, proceed, goBack } = setup();
    await user.type(input(), '1245319599');
    await user.click(proceed());
    expect(await screen.findByRole('alert')).toHaveTextContent(NOT_FOUND);
    await user.click(goBack());
    expect(input()).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(proceed()).toBeDisabled();
  });
});

describe('Medical license page, the format checked before sending', () => {
  beforeEach(() => storeTokens({ access: 'old-access', refresh: 'r1' }));

  it.each([
    ['12345', 'An NPI is exactly 10 digits'],
    ['12345678901', 'An NPI is exactly 10 digits'],
    ['1234567890', 'its last digit is a check digit, and it does not match the first nine'],
  ])('says what is wrong with %s, at the field, without asking the registry', async (typed, shown) => {
    const server = fakeServer({ 'POST /api/medical-license/': () => ({ status: 404, body: { message: NOT_FOUND, code: 'NOT_FOUND' } }) });
    const { user, input, proceed } = setup();
    await user.type(input(), typed);
    await user.click(proceed());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(shown);
    expect(screen.queryByText(NOT_FOUND)).not.toBeInTheDocument();
    expect(input()).toHaveAttribute('aria-invalid', 'true');
    expect(input()).toHaveAccessibleDescription(expect.stringContaining(shown));
    expect(server.calls.filter((c) => c.method === 'POST')).toEqual([]);
    // Typing again clears the message.
    await user.type(input(), '3');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("keeps the spec's 'Not Found' for a well-formed number the registry does not know", async () => {
    const server = fakeServer({ 'POST /api/medical-license/': () => ({ status: 404, body: { message: NOT_FOUND, code: 'NOT_FOUND' } }) });
    const { user, input, proceed } = setup();
    await user.type(input(), '1003000126');
    await user.click(proceed());
    expect(await screen.findByRole('alert')).toHaveTextContent(NOT_FOUND);
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ license_number: '1003000126' });
  });
});

describe('Medical license page, signed out', () => {
  it('asks the visitor to sign in first, without calling the server', async () => {
    const server = fakeServer({});
    const { user, input, proceed } = setup();
    await user.type(input(), '1234567893');
    await user.click(proceed());
    expect(screen.getByRole('status')).toHaveTextContent('Sign in to verify your license');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?next=%2Fmedical-license');
    expect(server.calls).toEqual([]);
  });
});
