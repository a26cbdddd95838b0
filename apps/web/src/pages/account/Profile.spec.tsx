import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import Profile from './Profile';
import { ANA } from '../../test/users';

const profile = { ...ANA, gender: null };

const free = { plan: 'free', plan_name: 'Free', status: 'none', mode: null, price_cents: 0, autopay: false, current_period_end: null, cancel_at_period_end: false, grace_until: null, granted_until: null, payments_configured: false };
const family = { ...free, plan: 'pro', plan_name: 'Family', status: 'active', mode: 'yearly', price_cents: 49000, autopay: true, current_period_end: '2027-01-15T10:00:00.000Z', payments_configured: true };
const membership = (body: unknown) => ({ 'GET /api/membership/': () => ({ body }) });

/** The value shown next to a label of the profile's description list. */
function valueOf(label: string) {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling;
}

beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));
afterEach(() => clearTokens());

describe('Profile page', () => {
  it("names the provider level honestly: self-attested until an operator verifies it", async () => {
    const facts = { npi: '1234567893', registry: 'nppes', first_name: 'ANA', last_name: 'LIMA', credential: 'M.D.', specialty: 'Internal Medicine', state: 'CA', verified_at: '2026-11-24T03:00:00.000Z', display_name: 'Dr Ana Lima (NPI 1234567893)' };
    let provider = { ...facts, verification: 'self_attested', review: 'pending', reviewed_at: null as string | null };
    fakeServer({ 'GET /api/profile/': () => ({ body: { ...profile, roles: ['patient', 'provider'], provider } }), ...membership(free) });
    const { unmount } = renderPage(<Profile />, { path: '/profile' });
    expect(await screen.findByRole('link', { name: 'Self-attested provider (review pending)' })).toHaveAttribute('href', '/medical-license');
    expect(screen.queryByText('Verified provider')).not.toBeInTheDocument();
    unmount();
    provider = { ...facts, verification: 'verified', review: 'verified', reviewed_at: '2026-11-25T03:00:00.000Z' };
    renderPage(<Profile />, { path: '/profile' });
    expect(await screen.findByText('Verified provider')).toBeInTheDocument();
  });

  it('shows a loading state, then the real profile', async () => {
    let answer: (value: { body: unknown }) => void = () => undefined;
    const server = fakeServer({ 'GET /api/profile/': () => new Promise((resolve) => (answer = resolve)), ...membership(free) });
    renderPage(<Profile />, { path: '/profile' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your profile…');

    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/profile/')).toHaveLength(1));
    answer({ body: profile });
    expect(await screen.findByRole('heading', { level: 2, name: 'Ana Lima' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Profile' })).toBeInTheDocument();
    expect(valueOf('Full name')).toHaveTextContent('Ana Lima');
    expect(valueOf('Email')).toHaveTextContent('ana@example.com');
    expect(valueOf('Phone')).toHaveTextContent('+1 202 555 0143');
    const birthday = valueOf('Birthday')?.querySelector('time');
    expect(birthday).toHaveAttribute('datetime', '1990-03-04');
    expect(birthday).toHaveTextContent(new Intl.DateTimeFormat(undefined, { dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(1990, 2, 4)));
    expect(birthday).toHaveTextContent('1990');
    expect(server.calls.find((c) => c.path === '/api/profile/')).toMatchObject({ method: 'GET', authorization: 'Bearer a' });
  });

  it('shows the real plan from billing: Free with no sample billing', async () => {
    fakeServer({ 'GET /api/profile/': () => ({ body: profile }), ...membership(free) });
    renderPage(<Profile />, { path: '/profile' });
    await screen.findByRole('heading', { level: 2, name: 'Ana Lima' });
    await waitFor(() => expect(valueOf('Plan')).toHaveTextContent(/^Free/));
    expect(screen.getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/membership');
    expect(screen.queryByText(/PRO/)).not.toBeInTheDocument();
    expect(screen.queryByText(/\$/)).not.toBeInTheDocument();
    expect(screen.queryByText(/payment/i)).not.toBeInTheDocument();
  });

  it('shows a paid plan: price per period, autopay and the next payment', async () => {
    fakeServer({ 'GET /api/profile/': () => ({ body: profile }), ...membership(family) });
    renderPage(<Profile />, { path: '/profile' });
    await screen.findByRole('heading', { level: 2, name: 'Ana Lima' });
    await waitFor(() => expect(valueOf('Plan')).toHaveTextContent('Family$490.00 per Year'));
    expect(screen.getByText('Family plan')).toBeInTheDocument();
    expect(valueOf('Autopay')).toHaveTextContent('On');
    expect(valueOf('Next payment')?.querySelector('time')).toHaveAttribute('datetime', '2027-01-15T10:00:00.000Z');
  });

  it('saves gender and birthday through the profile API, and Cancel keeps what was there', async () => {
    const user = userEvent.setup();
    const server = fakeServer({
      'GET /api/profile/': () => ({ body: profile }),
      'PUT /api/profile/': (call) => ({ body: { ...profile, ...(call.body as object) } }),
      ...membership(free),
    });
    renderPage(<Profile />, { path: '/profile' });
    await user.click(await screen.findByRole('button', { name: 'Edit gender and birthday' }));
    await user.selectOptions(screen.getByLabelText('Gender'), 'female');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(valueOf('Gender')).toHaveTextContent('Not given');
    await user.click(screen.getByRole('button', { name: 'Edit gender and birthday' }));
    await user.selectOptions(screen.getByLabelText('Gender'), 'female');
    await user.clear(screen.getByLabelText('Birthday'));
    await user.type(screen.getByLabelText('Birthday'), '1991-02-03');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Profile updated successfully')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'PUT')?.body).toEqual({ first_name: 'Ana', last_name: 'Lima', phone: '+1 202 555 0143', gender: 'female', date_of_birth: '1991-02-03' });
  });

  it('links to Edit profile', async () => {
    fakeServer({ 'GET /api/profile/': () => ({ body: profile }) });
    renderPage(<Profile />, { path: '/profile' });
    expect(await screen.findByRole('link', { name: 'Edit profile' })).toHaveAttribute('href', '/edit-profile');
  });

  it('shows the initial without a picture, the picture when there is one', async () => {
    fakeServer({ 'GET /api/profile/': () => ({ body: profile }) });
    const first = renderPage(<Profile />, { path: '/profile' });
    await screen.findByRole('heading', { level: 2, name: 'Ana Lima' });
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('A')).toHaveAttribute('aria-hidden', 'true');
    first.unmount();

    fakeServer({ 'GET /api/profile/': () => ({ body: { ...profile, profile_picture: '/media/pictures/u1.webp' } }) });
    renderPage(<Profile />, { path: '/profile' });
    expect(await screen.findByRole('img', { name: 'Your profile picture' })).toHaveAttribute('src', '/media/pictures/u1.webp');
  });

  it('says when the profile has no birthday', async () => {
    fakeServer({ 'GET /api/profile/': () => ({ body: { ...profile, date_of_birth: null } }), ...membership(free) });
    renderPage(<Profile />, { path: '/profile' });
    await screen.findByRole('heading', { level: 2, name: 'Ana Lima' });
    expect(valueOf('Birthday')).toHaveTextContent('Not given');
  });

  it('says when the profile cannot be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const server = fakeServer({
      'GET /api/profile/': () => (fail ? { status: 500, body: { message: 'Down for maintenance.', code: 'INTERNAL' } } : { body: profile }),
    });
    renderPage(<Profile />, { path: '/profile' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your profile could not be loaded.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Ana Lima' })).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path === '/api/profile/')).toHaveLength(2);
  });
});
