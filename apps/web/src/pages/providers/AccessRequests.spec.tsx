import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import AccessRequests from './AccessRequests';

const ana = { user_id: 'p1', display_name: 'Dr Ana Ruiz (NPI 1234567893)', verification: 'verified', npi: '1234567893', credential: 'M.D.', specialty: 'Internal Medicine', state: 'CA' };
const pending = { requests: [{ id: 'r1', provider: ana, link_label: 'Default', state: 'pending', created_at: '2026-11-24T03:00:00.000Z' }], grants: [] };
const grant = { id: 'g1', provider: ana, source: 'approved', granted_at: '2026-11-24T03:00:00.000Z', expires_at: '2026-12-01T03:00:00.000Z', revoked_at: null, active: true };

beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));
afterEach(() => clearTokens());

describe("The patient's requests and doctors with access", () => {
  it('approves a request for the chosen time, then revokes the access', async () => {
    let state: unknown = pending;
    const server = fakeServer({
      'GET /api/providers/access/': () => ({ body: state }),
      'POST /api/providers/access-requests/r1/decision/': () => ((state = { requests: [], grants: [grant] }), { body: state }),
      'DELETE /api/providers/grants/g1/': () => ((state = { requests: [], grants: [{ ...grant, active: false, revoked_at: '2026-11-24T04:00:00.000Z' }] }), { body: state }),
    });
    const user = userEvent.setup();
    renderPage(<AccessRequests />, { path: '/providers/access' });
    const request = (await screen.findByText('Dr Ana Ruiz (NPI 1234567893)')).closest('li')!;
    expect(within(request).getByText('M.D. · Internal Medicine · CA')).toBeInTheDocument();
    expect(within(request).getByRole('radio', { name: 'A week' })).toBeChecked();
    await user.click(within(request).getByRole('radio', { name: 'A month' }));
    await user.click(within(request).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Dr Ana Ruiz (NPI 1234567893) can see your documents now.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ decision: 'approve', duration: 'month' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Revoke Dr Ana Ruiz (NPI 1234567893)' })).toBeInTheDocument());
    expect(screen.getByText('No requests waiting.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Revoke Dr Ana Ruiz (NPI 1234567893)' }));
    expect(await screen.findByText('Dr Ana Ruiz (NPI 1234567893) can no longer see your documents.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('No doctor can see your documents.')).toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Past access' })).toBeInTheDocument();
  });

  it('says a self-attested provider only claims to be who they say; a verified one is marked verified', async () => {
    const claimant = { ...ana, user_id: 'p2', display_name: 'Dr John Smith (NPI 1003000126)', npi: '1003000126', verification: 'self_attested' };
    fakeServer({
      'GET /api/providers/access/': () => ({
        body: { requests: [{ ...pending.requests[0], id: 'r2', provider: claimant }], grants: [grant, { ...grant, id: 'g2', provider: claimant, active: false, revoked_at: '2026-11-24T04:00:00.000Z' }] },
      }),
    });
    renderPage(<AccessRequests />, { path: '/providers/access' });
    const request = (await screen.findByText('Someone who claims to be Dr John Smith (NPI 1003000126); not verified')).closest('li')!;
    expect(within(request).getByText(/We have not confirmed who this is/)).toBeInTheDocument();
    expect(within(request).queryByText('Verified')).not.toBeInTheDocument();
    const granted = screen.getByText('Dr Ana Ruiz (NPI 1234567893)').closest('li')!;
    expect(within(granted).getByText('Verified')).toBeInTheDocument();
    expect(screen.getByText(/^claims to be Dr John Smith \(NPI 1003000126\); not verified: Revoked/)).toBeInTheDocument();
  });

  it('declines without a duration', async () => {
    const server = fakeServer({
      'GET /api/providers/access/': () => ({ body: pending }),
      'POST /api/providers/access-requests/r1/decision/': () => ({ body: { requests: [], grants: [] } }),
    });
    const user = userEvent.setup();
    renderPage(<AccessRequests />, { path: '/providers/access' });
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await screen.findByText("You declined Dr Ana Ruiz (NPI 1234567893)'s request.")).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ decision: 'decline' });
  });
});
