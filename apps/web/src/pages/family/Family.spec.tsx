import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FamilyOverview } from '@medfolio/contracts';
import { Layout } from '../../components/Layout';
import { clearTokens, storeTokens } from '../../session/tokens';
import { fakeServer } from '../../test/fake-server';
import { renderPage, renderRoutes } from '../../test/render';
import { ANA } from '../../test/users';
import FamilyPage from './FamilyPage';
import InvitePage from './InvitePage';
import { findStatus } from '../../test/status';

const LEO = '0c5e2b7a-1d4f-4e8a-9b3c-6f7e8d9a0b1c';
const MIA = '7a1b2c3d-4e5f-4a6b-8c9d-0e1f2a3b4c5d';

const overview = (): FamilyOverview => ({
  records: [
    { patient_id: ANA.id, first_name: 'Ana', last_name: 'Lima', date_of_birth: '1990-03-04', kind: 'self', my_role: 'owner', age_band: 'adult', access_expires_at: null },
    { patient_id: LEO, first_name: 'Leo', last_name: 'Lima', date_of_birth: '2019-05-06', kind: 'dependant', my_role: 'guardian', age_band: 'child', access_expires_at: null },
    { patient_id: MIA, first_name: 'Mia', last_name: 'Costa', date_of_birth: null, kind: 'shared', my_role: 'view', age_band: null, access_expires_at: '2028-05-01T00:00:00.000Z' },
  ],
  members: [
    { id: LEO, kind: 'dependant', patient_id: LEO, name: 'Leo Lima', email: null, role: 'guardian', status: 'active', last_active_at: null, expires_at: null, date_of_birth: '2019-05-06' },
    { id: 'g1', kind: 'caregiver', patient_id: LEO, name: 'Rui Lima', email: 'rui@example.com', role: 'manage', status: 'active', last_active_at: '2026-11-20T10:00:00.000Z', expires_at: null, date_of_birth: null },
  ],
  invites: [{ id: 'i1', patient_id: LEO, email: 'nan@example.com', role: 'view', expires_at: '2026-12-04T10:00:00.000Z', status: 'pending' }],
});

beforeEach(() => {
  // The layout scrolls to the top on each page (jsdom has no scrolling).
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  sessionStorage.clear();
  storeTokens({ access: 'access-1', refresh: 'refresh-1' });
});
afterEach(() => clearTokens());

describe('/family', () => {
  it('lists the records, with caregivers, pending invitations and the invitation form only where the user runs the record', async () => {
    fakeServer({ 'GET /api/family/members/': () => ({ body: overview() }) });
    renderPage(<FamilyPage />, { path: '/family' });
    const leo = await screen.findByRole('listitem', { name: 'Leo Lima' });
    expect(leo).toHaveTextContent('Family member you added · your role: guardian · Child (under 13)');
    expect(within(leo).getByText('rui@example.com')).toBeInTheDocument();
    expect(within(leo).getByText('nan@example.com')).toBeInTheDocument();
    expect(within(leo).getByRole('form', { name: "Invite a caregiver to Leo's record" })).toBeInTheDocument();
    const mia = screen.getByRole('listitem', { name: 'Mia Costa' });
    expect(mia).toHaveTextContent('Shared with you · your role: caregiver, view only');
    expect(mia).toHaveTextContent('Your access ends on');
    expect(within(mia).queryByRole('form')).toBeNull();
    expect(within(mia).queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('invites by e-mail with a role explained in plain words, and says where it went', async () => {
    const { calls } = fakeServer({
      'GET /api/family/members/': () => ({ body: overview() }),
      'POST /api/family/invites/': ({ body }) => ({ status: 201, body: { id: 'i2', ...(body as object), expires_at: '2026-12-04T10:00:00.000Z', status: 'pending' } }),
    });
    const user = userEvent.setup();
    renderPage(<FamilyPage />, { path: '/family' });
    const form = await screen.findByRole('form', { name: "Invite a caregiver to Leo's record" });
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Enter a valid e-mail address.');
    expect(within(form).getByLabelText("Caregiver's e-mail")).toHaveAttribute('aria-invalid', 'true');
    await user.type(within(form).getByLabelText("Caregiver's e-mail"), 'rui.co@example.com');
    const manage = within(form).getByRole('radio', { name: /Manage Can also upload documents/ });
    await user.click(manage);
    await user.click(within(form).getByRole('button', { name: 'Send invitation' }));
    expect(await findStatus("An invitation to Leo's record was sent to rui.co@example.com.")).toHaveTextContent("An invitation to Leo's record was sent to rui.co@example.com.");
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ body: { patient_id: LEO, email: 'rui.co@example.com', role: 'manage' } });
    expect(calls.every((c) => c.patient === undefined)).toBe(true);
  });

  it('revokes a caregiver and withdraws an invitation only after confirming', async () => {
    const { calls } = fakeServer({
      'GET /api/family/members/': () => ({ body: overview() }),
      'DELETE /api/family/members/g1/': () => ({ body: { message: 'Access revoked.' } }),
      'DELETE /api/family/invites/i1/': () => ({ body: { ...overview().invites[0], status: 'withdrawn' } }),
    });
    const user = userEvent.setup();
    renderPage(<FamilyPage />, { path: '/family' });
    await user.click(await screen.findByRole('button', { name: "Revoke Rui Lima's access" }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke access?' });
    expect(dialog).toHaveTextContent("Rui Lima will lose access to Leo's record at once");
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await findStatus("Rui Lima no longer has access to Leo's record.")).toHaveTextContent("Rui Lima no longer has access to Leo's record.");
    await user.click(screen.getByRole('button', { name: 'Withdraw the invitation to nan@example.com' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Withdraw this invitation?' })).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/family/members/g1/', '/api/family/invites/i1/']));
  });

  it('adding a family member without the Family plan shows the reason and the way to the plans', async () => {
    fakeServer({
      'GET /api/family/members/': () => ({ body: overview() }),
      'POST /api/family/members/': () => ({ status: 402, body: { message: 'Adding a family member needs the Family plan. See /membership.', code: 'PAYMENT_REQUIRED' } }),
    });
    const user = userEvent.setup();
    renderPage(<FamilyPage />, { path: '/family' });
    const section = await screen.findByRole('region', { name: 'Add a family member' });
    await user.click(within(section).getByRole('button', { name: 'Add family member' }));
    expect(within(section).getByText('First name is required')).toBeInTheDocument();
    expect(within(section).getByText('Date of birth is required')).toBeInTheDocument();
    await user.type(within(section).getByLabelText('First name'), 'Zoe');
    await user.type(within(section).getByLabelText('Last name'), 'Lima');
    await user.type(within(section).getByLabelText('Date of birth'), '2021-02-03');
    await user.click(within(section).getByRole('button', { name: 'Add family member' }));
    const refusal = await within(section).findByRole('alert');
    expect(refusal).toHaveTextContent('Adding a family member needs the Family plan.');
    expect(refusal).not.toHaveTextContent('/membership');
    expect(within(refusal).getByRole('link', { name: 'See the Family plan' })).toHaveAttribute('href', '/membership');
  });
});

describe('viewing another record', () => {
  const layout = (routes: Record<string, Parameters<typeof fakeServer>[0][string]> = {}) => {
    let family = overview();
    const server = fakeServer({
      'GET /api/profile/': () => ({ body: ANA }),
      'GET /api/family/members/': () => ({ body: family }),
      'GET /api/upload/': ({ patient }) => (patient === LEO ? { body: [] } : { body: [] }),
      ...routes,
    });
    const view = renderRoutes([{ element: <Layout />, children: [{ path: '/', element: <p>page</p> }, { path: '/family', element: <FamilyPage /> }] }], { at: '/family' });
    return { ...server, ...view, revokeMia: () => (family = { ...family, records: family.records.filter((r) => r.patient_id !== MIA) }) };
  };

  it('the header switches records; the banner says whose record and the role; the calls then name it', async () => {
    const { calls, store } = layout();
    const user = userEvent.setup();
    const switcher = await screen.findByRole('button', { name: /Viewing: Ana/ });
    await user.click(switcher);
    await user.click(screen.getByRole('button', { name: /Leo Lima/ }));
    expect(await screen.findByText(/You are viewing/)).toHaveTextContent("You are viewing Leo's record (guardian).");
    expect(screen.getByRole('button', { name: /Viewing: Leo/ })).toBeInTheDocument();
    expect(JSON.parse(sessionStorage.getItem('medfolio.viewing') ?? '{}')).toMatchObject({ patient_id: LEO, role: 'guardian' });
    const { api } = await import('../../api/api');
    await store.dispatch(api.endpoints.documentsList.initiate());
    expect(calls.filter((c) => c.path === '/api/upload/').at(-1)?.patient).toBe(LEO);
    // The family page and the profile are the account's own: never sent for another record.
    expect(calls.filter((c) => c.path.startsWith('/api/family/') || c.path === '/api/profile/').every((c) => c.patient === undefined)).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Back to my record' }));
    await waitFor(() => expect(screen.queryByText(/You are viewing/)).toBeNull());
    expect(sessionStorage.getItem('medfolio.viewing')).toBeNull();
  });

  it('a refused call after the access was revoked ends the view, and says so', async () => {
    const server = layout({ 'GET /api/summary/status/': () => ({ status: 403, body: { message: 'You do not have access to this record.', code: 'FORBIDDEN' } }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Viewing: Ana/ }));
    await user.click(screen.getByRole('button', { name: /Mia Costa/ }));
    expect(await screen.findByText(/You are viewing/)).toHaveTextContent("You are viewing Mia's record (caregiver, view only).");
    server.revokeMia();
    const { api } = await import('../../api/api');
    await server.store.dispatch(api.endpoints.summaryStatus.initiate());
    expect(await screen.findByRole('alert')).toHaveTextContent("Your access to Mia's record has ended. You are back on your own record.");
    expect(server.store.getState().viewing.record).toBeNull();
  });

  it('the switcher is not shown to someone with one record only', async () => {
    fakeServer({
      'GET /api/profile/': () => ({ body: ANA }),
      'GET /api/family/members/': () => ({ body: { records: overview().records.slice(0, 1), members: [], invites: [] } }),
    });
    renderRoutes([{ element: <Layout />, children: [{ path: '/', element: <p>page</p> }] }]);
    expect(await screen.findByText('page')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /Account menu/ })).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /Viewing/ })).toBeNull();
  });
});

describe('/family/invite/:token', () => {
  const preview = { inviter_first_name: 'Ana', patient_first_name: 'Leo', role: 'view', expires_at: '2026-12-04T10:00:00.000Z' };
  const TOKEN = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

  it('signed out: who invites to what, and sign in or sign up coming back here', async () => {
    clearTokens();
    fakeServer({ [`GET /api/family/invites/${TOKEN}/accept/`]: () => ({ body: preview }) });
    renderPage(<InvitePage />, { path: '/family/invite/:token', at: `/family/invite/${TOKEN}` });
    expect(await screen.findByText(/invites you to help with/)).toHaveTextContent("Ana invites you to help with Leo's health record.");
    expect(screen.getByText('Role: View')).toBeInTheDocument();
    const back = encodeURIComponent(`/family/invite/${TOKEN}`);
    expect(screen.getByRole('link', { name: 'Sign in to accept' })).toHaveAttribute('href', `/login?next=${back}`);
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', `/sign-up?next=${back}`);
  });

  it('signed in: Accept adds the record, which can be opened', async () => {
    const { calls } = fakeServer({
      [`GET /api/family/invites/${TOKEN}/accept/`]: () => ({ body: preview }),
      [`POST /api/family/invites/${TOKEN}/accept/`]: () => ({
        body: { patient_id: LEO, first_name: 'Leo', last_name: 'Lima', date_of_birth: null, kind: 'shared', my_role: 'view', age_band: 'child', access_expires_at: null },
      }),
    });
    const user = userEvent.setup();
    const { store } = renderPage(<InvitePage />, { path: '/family/invite/:token', at: `/family/invite/${TOKEN}`, routes: [{ path: '/', element: <p>dashboard</p> }] });
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    expect(await findStatus("You now have access to Leo's record.")).toHaveTextContent("You now have access to Leo's record.");
    expect(calls.some((c) => c.method === 'POST' && c.path === `/api/family/invites/${TOKEN}/accept/`)).toBe(true);
    await user.click(screen.getByRole('button', { name: "Open Leo's record" }));
    expect(await screen.findByText('dashboard')).toBeInTheDocument();
    expect(store.getState().viewing.record).toEqual({ patient_id: LEO, first_name: 'Leo', role: 'view' });
  });

  it('an unknown, expired or withdrawn invitation says so clearly', async () => {
    fakeServer({ [`GET /api/family/invites/${TOKEN}/accept/`]: () => ({ status: 404, body: { message: 'This invitation is not valid.', code: 'NOT_FOUND' } }) });
    renderPage(<InvitePage />, { path: '/family/invite/:token', at: `/family/invite/${TOKEN}` });
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation is not valid: it may have expired, been withdrawn or already been used.');
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
  });
});
