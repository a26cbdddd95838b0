import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import { DoctorBox } from './DoctorBox';

const SHARE = 'q3Zk1mV0b8xR2nT5yW7aCd';
const profile = (roles: string[]) => ({ id: 'u1', first_name: 'Ana', last_name: '', email: 'a@example.com', phone: '', profile_picture: null, date_of_birth: null, email_verified: true, roles, provider: null });

afterEach(() => clearTokens());

async function press() {
  const user = userEvent.setup();
  renderPage(<DoctorBox shareId={SHARE} />, { path: '/summary/:id', at: `/summary/${SHARE}` });
  const button = screen.getByRole('button', { name: 'View past medical history' });
  // While the profile (and so the role) is loading, the button waits.
  await waitFor(() => expect(button).toBeEnabled());
  await user.click(button);
}

describe("The summary page's 'Are you a Doctor?' box", () => {
  it('a verified provider asks the patient for the documents', async () => {
    storeTokens({ access: 'a', refresh: 'r' });
    const server = fakeServer({
      'GET /api/profile/': () => ({ body: profile(['patient', 'provider']) }),
      'POST /api/providers/access-requests/': () => ({ body: { message: 'Your request was sent to the patient. You will see their documents once they approve it.', state: 'pending', patient_id: null } }),
    });
    await press();
    expect(await screen.findByText('Your request was sent to the patient. You will see their documents once they approve it.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/providers/access-requests/')?.body).toEqual({ share_id: SHARE });
  });

  it('tells a signed-in user without a verified license to verify it', async () => {
    storeTokens({ access: 'a', refresh: 'r' });
    const server = fakeServer({ 'GET /api/profile/': () => ({ body: profile(['patient']) }) });
    await press();
    expect(await screen.findByRole('link', { name: 'Verify your license' })).toHaveAttribute('href', '/medical-license');
    expect(server.calls.some((c) => c.path === '/api/providers/access-requests/')).toBe(false);
  });

  it('tells a visitor to log in, and brings them back here', async () => {
    const server = fakeServer({});
    await press();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', `/login?next=${encodeURIComponent(`/summary/${SHARE}`)}`);
    expect(server.calls).toEqual([]);
  });
});
