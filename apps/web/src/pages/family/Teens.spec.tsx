import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentListItem, FamilyAssent, FamilyOverview } from '@medfolio/contracts';
import { clearTokens, storeTokens } from '../../session/tokens';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { ANA } from '../../test/users';
import { DocumentsSection } from '../account/dashboard/DocumentsSection';
import AssentPage from './AssentPage';
import ClaimPage from './ClaimPage';
import FamilyPage from './FamilyPage';
import { findStatus } from '../../test/status';

jest.setTimeout(30_000);

const TESS = '0c5e2b7a-1d4f-4e8a-9b3c-6f7e8d9a0b1c';
const TOKEN = 'B'.repeat(43);
const fifteen = `${new Date().getUTCFullYear() - 15}-02-02`;

const overview = (member: Partial<FamilyOverview['members'][number]> = {}): FamilyOverview => ({
  records: [
    { patient_id: ANA.id, first_name: 'Ana', last_name: 'Lima', date_of_birth: '1990-03-04', kind: 'self', my_role: 'owner', age_band: 'adult', access_expires_at: null },
    { patient_id: TESS, first_name: 'Tess', last_name: 'Lima', date_of_birth: fifteen, kind: 'dependant', my_role: 'guardian', age_band: 'teen', access_expires_at: null },
  ],
  members: [{ id: TESS, kind: 'dependant', patient_id: TESS, name: 'Tess Lima', email: null, role: 'guardian', status: 'active', last_active_at: null, expires_at: null, date_of_birth: fifteen, sign_in: 'none', assent: null, ...member }],
  invites: [],
});

beforeEach(() => {
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  sessionStorage.clear();
  storeTokens({ access: 'access-1', refresh: 'refresh-1' });
});
afterEach(() => clearTokens());

describe("a teen's own sign-in on /family", () => {
  it('invites Tess to sign in, and offers the guardian role only on her record', async () => {
    const { calls } = fakeServer({
      'GET /api/family/members/': () => ({ body: overview() }),
      [`POST /api/family/members/${TESS}/claim-invite/`]: ({ body }) => ({ status: 201, body: { id: 'c1', patient_id: TESS, ...(body as object), expires_at: '2026-12-04T10:00:00.000Z', status: 'pending' } }),
    });
    const user = userEvent.setup();
    renderPage(<FamilyPage />, { path: '/family' });
    const tess = await screen.findByRole('listitem', { name: 'Tess Lima' });
    const block = within(tess).getByRole('group', { name: "Tess's own sign-in" });
    await user.type(within(block).getByLabelText("Tess's e-mail"), 'tess@example.com');
    await user.click(within(block).getByRole('button', { name: 'Invite Tess to sign in' }));
    expect(await findStatus('Tess was sent a link to set up their own sign-in at tess@example.com.')).toHaveTextContent('Tess was sent a link to set up their own sign-in at tess@example.com.');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/api/family/members/${TESS}/claim-invite/`, body: { email: 'tess@example.com' } });
    expect(within(tess).getByRole('radio', { name: /Guardian A second parent/ })).toBeInTheDocument();
    const own = screen.getByRole('listitem', { name: 'Ana Lima' });
    expect(within(own).queryByRole('radio', { name: /Guardian/ })).toBeNull();
  });

  it("says when Tess signed in and what she answered", async () => {
    fakeServer({ 'GET /api/family/members/': () => ({ body: overview({ sign_in: 'signed-in', assent: 'given' }) }) });
    renderPage(<FamilyPage />, { path: '/family' });
    const tess = await screen.findByRole('listitem', { name: 'Tess Lima' });
    expect(within(tess).getByRole('group', { name: "Tess's own sign-in" })).toHaveTextContent('Tess signs in with their own account. They agreed that you keep access until their 18th birthday.');
    expect(within(tess).queryByRole('button', { name: 'Invite Tess to sign in' })).toBeNull();
  });
});

describe('co-parents on /family', () => {
  it('offers Revoke for a co-parent, never for the guardian who added the child', async () => {
    const coParents = overview();
    coParents.members.push(
      { id: 'g-carl', kind: 'caregiver', patient_id: TESS, name: 'Carl Lima', email: 'carl@example.com', role: 'guardian', status: 'active', last_active_at: null, expires_at: null, date_of_birth: null, first_guardian: false },
      { id: 'g-rui', kind: 'caregiver', patient_id: TESS, name: 'Rui Lima', email: 'rui@example.com', role: 'guardian', status: 'active', last_active_at: null, expires_at: null, date_of_birth: null, first_guardian: true },
    );
    const { calls } = fakeServer({ 'GET /api/family/members/': () => ({ body: coParents }), 'DELETE /api/family/members/g-carl/': () => ({ body: { message: 'Access revoked.', accepted: false, erased_at: null } }) });
    const user = userEvent.setup();
    renderPage(<FamilyPage />, { path: '/family' });
    const tess = await screen.findByRole('listitem', { name: 'Tess Lima' });
    expect(within(tess).queryByRole('button', { name: "Revoke Rui Lima's access" })).toBeNull();
    await user.click(within(tess).getByRole('button', { name: "Revoke Carl Lima's access" }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke access?' })).getByRole('button', { name: 'Revoke' }));
    expect(await findStatus("Carl Lima no longer has access to Tess's record.")).toHaveTextContent("Carl Lima no longer has access to Tess's record.");
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/family/members/g-carl/')).toBe(true);
  });
});

describe('/family/claim/:token', () => {
  it('sets up the sign-in with a password typed twice, then sends her to sign in and answer', async () => {
    clearTokens();
    const { calls } = fakeServer({
      [`GET /api/family/claims/${TOKEN}/`]: () => ({ body: { patient_first_name: 'Tess', inviter_first_name: 'Ana', email: 'tess@example.com', expires_at: '2026-12-04T10:00:00.000Z' } }),
      [`POST /api/family/claims/${TOKEN}/`]: () => ({ status: 201, body: { message: 'Welcome, Tess: your record is yours now. Sign in with your e-mail address and the password you chose.' } }),
    });
    const user = userEvent.setup();
    renderPage(<ClaimPage />, { path: '/family/claim/:token', at: `/family/claim/${TOKEN}` });
    expect(await screen.findByText(/Hello Tess/)).toHaveTextContent('Ana has kept your health record here');
    await user.type(screen.getByLabelText('Choose a password'), 'tess horse battery');
    await user.type(screen.getByLabelText('Type it again'), 'tess horse batter');
    await user.click(screen.getByRole('button', { name: 'Set up my sign-in' }));
    expect(await screen.findByText('The passwords do not match')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Type it again'), 'y');
    await user.click(screen.getByRole('button', { name: 'Set up my sign-in' }));
    expect(await findStatus(/^Welcome, Tess/)).toHaveTextContent(/^Welcome, Tess/);
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?next=%2Ffamily%2Fassent');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ body: { password: 'tess horse battery' } });
  });
});

describe('/family/assent', () => {
  const pending: FamilyAssent = { status: 'pending', proxies: [{ first_name: 'Ana', role: 'guardian' }, { first_name: 'Rui', role: 'guardian' }], answered_at: null };

  it('keeps her guardians, or ends their access after a confirmation', async () => {
    const { calls } = fakeServer({
      'GET /api/family/assent/': () => ({ body: pending }),
      'POST /api/family/assent/': ({ body }) => ({ body: { ...pending, status: (body as { keep_access: boolean }).keep_access ? 'given' : 'declined', proxies: [] } }),
    });
    const user = userEvent.setup();
    renderPage(<AssentPage />, { path: '/family/assent' });
    expect(await screen.findByText(/Should they keep access/)).toHaveTextContent('Until now, Ana and Rui kept your health record.');
    await user.click(screen.getByRole('button', { name: 'Let them keep access' }));
    expect(await findStatus('they keep access until your 18th birthday')).toHaveTextContent('they keep access until your 18th birthday');
    await user.click(screen.getByRole('button', { name: 'End their access' }));
    const dialog = await screen.findByRole('dialog', { name: 'End their access?' });
    await user.click(within(dialog).getByRole('button', { name: 'End access' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ keep_access: true }, { keep_access: false }]));
  });
});

describe("the Private switch on a teen's own documents", () => {
  const visit: DocumentListItem = { id: '11111111-1111-4111-8111-111111111111', filename: 'clinic-visit.pdf', url: null, uploaded_at: '2026-11-14T09:30:00.000Z', size: 4821, content_type: 'application/pdf', private: false };

  it('hides a document from her parents and caregivers, and is not offered without them', async () => {
    let marked = false;
    const { calls } = fakeServer({
      'GET /api/upload/': () => ({ body: [{ ...visit, private: marked }] }),
      'GET /api/family/assent/': () => ({ body: { status: 'given', proxies: [{ first_name: 'Ana', role: 'guardian' }], answered_at: '2026-11-20T10:00:00.000Z' } }),
      [`PATCH /api/documents/${visit.id}/`]: ({ body }) => {
        marked = (body as { private: boolean }).private;
        return { body: { ...visit, private: marked } };
      },
    });
    const user = userEvent.setup();
    renderPage(<DocumentsSection />);
    expect(await screen.findByText('Private: hidden from your parents and caregivers.')).toBeInTheDocument();
    const switches = await screen.findAllByRole('switch', { name: 'Private: hide clinic-visit.pdf from your parents and caregivers' });
    expect(switches[0]).toHaveAttribute('aria-checked', 'false');
    await user.click(switches[0]!);
    await waitFor(() => expect(screen.getAllByRole('switch', { name: /clinic-visit.pdf/ })[0]).toHaveAttribute('aria-checked', 'true'));
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ body: { private: true } });
  });

  it('is not shown to someone without a guardian or caregivers', async () => {
    fakeServer({
      'GET /api/upload/': () => ({ body: [visit] }),
      'GET /api/family/assent/': () => ({ body: { status: 'not-needed', proxies: [], answered_at: null } }),
    });
    renderPage(<DocumentsSection />);
    expect((await screen.findAllByText('clinic-visit.pdf')).length).toBeGreaterThan(0);
    expect(screen.queryByRole('switch')).toBeNull();
  });
});
