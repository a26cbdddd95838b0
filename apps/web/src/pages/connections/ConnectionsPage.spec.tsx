import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ConnectionView, EndpointView } from '@medfolio/contracts';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import ConnectionCallback, { refusalMessage } from './ConnectionCallback';
import ConnectionsPage, { countsText, type ListedConnection } from './ConnectionsPage';
import { leave } from './leave';

const SPRINGFIELD: EndpointView = { id: 'springfield-general', name: 'Springfield General', aliases: ['SGH'], locations: ['Springfield, IL'], portal: 'MyChart' };
const SHELBYVILLE: EndpointView = { id: 'shelbyville-clinic', name: 'Shelbyville Clinic', aliases: [], locations: ['Shelbyville, IL'], portal: null };

const connection = (overrides: Partial<ListedConnection>): ConnectionView => ({
  id: '0b6f5a1e-0000-4000-8000-000000000001',
  endpoint_id: SPRINGFIELD.id,
  name: SPRINGFIELD.name,
  status: 'connected',
  scope: 'launch/patient patient/*.rs',
  connected_at: '2026-03-04T10:00:00Z',
  last_sync_at: null,
  ...overrides,
}) as ConnectionView;

const left: string[] = [];
const originalLeave = leave.to;
beforeEach(() => {
  storeTokens({ access: 'a', refresh: 'r' });
  left.length = 0;
  leave.to = (url) => void left.push(url);
});
afterEach(() => {
  clearTokens();
  leave.to = originalLeave;
});

const routes = [
  { path: '/connections', element: <ConnectionsPage /> },
  { path: '/connections/callback', element: <ConnectionCallback /> },
];

describe('the connections page', () => {
  it('shows each connection in plain words: connected (synced or not), and an expired sign-in with Reconnect', async () => {
    const server = fakeServer({
      'GET /api/connections/': () => ({
        body: [
          connection({}),
          connection({ id: '0b6f5a1e-0000-4000-8000-000000000002', endpoint_id: SHELBYVILLE.id, name: SHELBYVILLE.name, last_sync_at: '2026-03-05T08:30:00Z' }),
          connection({ id: '0b6f5a1e-0000-4000-8000-000000000003', endpoint_id: 'capital-city', name: 'Capital City Hospital', status: 'reconnect' }),
        ],
      }),
      'POST /api/connections/': () => ({ body: { authorize_url: 'https://ehr.test/authorize?state=s2' } }),
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    expect(screen.getByRole('heading', { level: 1, name: 'Connect a hospital or clinic' })).toBeInTheDocument();
    const list = within(await screen.findByRole('region', { name: 'Your connections' }));
    const items = await list.findAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual(['Springfield General', 'Shelbyville Clinic', 'Capital City Hospital']);
    expect(items[0]).toHaveTextContent(/Connected since .*2026.*Not synced yet\./);
    expect(items[1]).toHaveTextContent(/Last synced .*2026/);
    expect([...items[1].querySelectorAll('time')].map((time) => time.getAttribute('datetime'))).toEqual(['2026-03-04T10:00:00Z', '2026-03-05T08:30:00Z']);
    expect(items[2]).toHaveTextContent("The clinic's sign-in expired: reconnect to keep getting your records.");
    expect(within(items[0]).queryByRole('button', { name: /Reconnect/ })).toBeNull();

    await userEvent.click(within(items[2]).getByRole('button', { name: 'Reconnect Capital City Hospital' }));
    await waitFor(() => expect(left).toEqual(['https://ehr.test/authorize?state=s2']));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ endpoint_id: 'capital-city' });
    expect(server.calls.find((c) => c.method === 'POST')?.authorization).toBe('Bearer a');
  });

  it('searches the directory once typing pauses, and Connect sends the browser to the hospital sign-in page', async () => {
    const server = fakeServer({
      'GET /api/connections/': () => ({ body: [] }),
      'GET /api/connections/endpoints/': (call) => ({ body: new URL(call.path, 'http://x').searchParams.get('q') === 'springfield' ? [SPRINGFIELD] : [] }),
      'POST /api/connections/': () => ({ body: { authorize_url: 'https://ehr.test/authorize?state=s1' } }),
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    expect(await screen.findByText('No hospital or clinic connected yet. Find yours below to connect it.')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('searchbox', { name: 'Hospital, clinic or city' }), 'springfield');
    const result = await screen.findByRole('list', { name: 'Search results' });
    expect(result).toHaveTextContent('Springfield General');
    expect(result).toHaveTextContent('Springfield, IL · MyChart');
    expect(result).toHaveTextContent('Also known as SGH');
    // One request for the whole word, not one per key.
    expect(server.calls.filter((c) => c.path.startsWith('/api/connections/endpoints/')).map((c) => c.path)).toEqual(['/api/connections/endpoints/?q=springfield']);

    await userEvent.click(within(result).getByRole('button', { name: 'Connect Springfield General' }));
    await waitFor(() => expect(left).toEqual(['https://ehr.test/authorize?state=s1']));
    expect(server.calls.find((c) => c.method === 'POST')?.body).toEqual({ endpoint_id: 'springfield-general' });
  });

  it("says when nothing matches, and shows the service's error when connecting cannot start", async () => {
    fakeServer({
      'GET /api/connections/': () => ({ body: [] }),
      'GET /api/connections/endpoints/': () => ({ body: [SHELBYVILLE] }),
      'POST /api/connections/': () => ({ status: 503, body: { code: 'UNAVAILABLE', message: "The hospital's sign-in service could not be reached or did not describe itself. Please try again later." } }),
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Hospital, clinic or city' }), 'shelby');
    await userEvent.click(await screen.findByRole('button', { name: 'Connect Shelbyville Clinic' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("The hospital's sign-in service could not be reached");
    expect(left).toEqual([]);
  });

  it('shows a fetch in progress, the records kept per type and the last problem when the service gives them', async () => {
    let reads = 0;
    fakeServer({
      'GET /api/connections/': () => ({
        body: [
          connection({ sync_state: reads++ === 0 ? 'syncing' : 'idle', counts: {} }),
          connection({
            id: '0b6f5a1e-0000-4000-8000-000000000002',
            name: SHELBYVILLE.name,
            sync_state: 'idle',
            last_sync_at: '2026-03-05T08:30:00Z',
            counts: { Observation: 39, Condition: 3, Immunization: 0 },
            last_error: 'The hospital asked us to slow down. We will try again later.',
          }),
        ],
      }),
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    const items = await within(await screen.findByRole('region', { name: 'Your connections' })).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Fetching records…');
    expect(items[0]).toHaveTextContent('No records fetched yet.');
    expect(items[1]).toHaveTextContent('42 records fetched: 3 conditions, 39 test results and vital signs.');
    expect(items[1]).toHaveTextContent('The hospital asked us to slow down. We will try again later.');
    // The list is read again while a fetch runs, and shows its outcome.
    await waitFor(() => expect(screen.getAllByRole('listitem')[0]).toHaveTextContent('Not synced yet.'), { timeout: 5000 });
    expect(countsText(undefined)).toBeNull();
    expect(countsText({ Patient: 1 })).toBe('1 record fetched: 1 patient profile.');
    expect(countsText({ Observation: 39, AllergyIntolerance: 2, Condition: 3, MedicationRequest: 3, MedicationStatement: 1, Immunization: 1, Patient: 1 })).toBe(
      '50 records fetched: 2 allergies, 3 conditions, 4 medicines, 1 immunization, 39 test results and vital signs, 1 patient profile.',
    );
    expect(countsText({ Observation: 1, AllergyIntolerance: 1, Procedure: 2, DocumentReference: 1, Binary: 1, Goal: 2 })).toBe(
      '8 records fetched: 1 allergy, 1 test result or vital sign, 2 procedures, 1 document, 1 attached file, Goal 2.',
    );
  });

  it('Sync now asks the service to fetch again and follows the fetch until it ends', async () => {
    let state: 'idle' | 'syncing' = 'idle';
    let reads = 0;
    const server = fakeServer({
      'GET /api/connections/': () => {
        if (state === 'syncing' && reads++ > 0) state = 'idle';
        return { body: [connection({ sync_state: state, counts: state === 'idle' && reads > 0 ? { Observation: 2 } : {} })] };
      },
      [`POST /api/connections/${connection({}).id}/sync/`]: () => {
        state = 'syncing';
        return { status: 202, body: connection({ sync_state: 'syncing', counts: {} }) };
      },
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    await userEvent.click(await screen.findByRole('button', { name: 'Sync now Springfield General' }));
    expect(await screen.findByText(/Fetching records…/)).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/api/connections/${connection({}).id}/sync/`]);
    // The list is read again every LIST_POLL_MS while the fetch runs.
    expect(await screen.findByText('2 records fetched: 2 test results and vital signs.', undefined, { timeout: 8000 })).toBeInTheDocument();
  }, 15_000);

  it('shows why a sync was refused, and offers no Sync now for an expired sign-in', async () => {
    fakeServer({
      'GET /api/connections/': () => ({ body: [connection({}), connection({ id: '0b6f5a1e-0000-4000-8000-000000000003', name: 'Capital City Hospital', status: 'reconnect' })] }),
      [`POST /api/connections/${connection({}).id}/sync/`]: () => ({ status: 409, body: { code: 'CONFLICT', message: "This connection's sign-in expired: reconnect it before fetching records." } }),
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    await userEvent.click(await screen.findByRole('button', { name: 'Sync now Springfield General' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("This connection's sign-in expired: reconnect it before fetching records.");
    expect(screen.queryByRole('button', { name: 'Sync now Capital City Hospital' })).toBeNull();
  });

  it('says when the directory has no match', async () => {
    fakeServer({ 'GET /api/connections/': () => ({ body: [] }), 'GET /api/connections/endpoints/': () => ({ body: [] }) });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Hospital, clinic or city' }), 'atlantis');
    expect(await screen.findByText('No hospital or clinic in the directory matches “atlantis”.')).toBeInTheDocument();
  });

  it('disconnects after a confirmation that says what happens to the records, and says whether the hospital revoked access', async () => {
    let connections = [connection({})];
    const server = fakeServer({
      'GET /api/connections/': () => ({ body: connections }),
      [`DELETE /api/connections/${connection({}).id}/`]: () => {
        connections = [];
        return { body: { deleted: true, revoked_at_source: true } };
      },
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Springfield General' }));
    const dialog = screen.getByRole('dialog', { name: 'Disconnect Springfield General?' });
    expect(dialog).toHaveTextContent('Medfolio will stop getting records from Springfield General.');
    expect(dialog).toHaveTextContent("It asks the hospital to cancel Medfolio's access (where the hospital offers that), then deletes the sign-in it kept and its own copy of the records fetched through this connection.");
    expect(dialog).toHaveTextContent('Files already added to your documents from this connection (their names start with “Springfield General”) stay there until you delete them.');
    expect(dialog).toHaveTextContent('Your records at the hospital itself are not changed.');

    // Cancel changes nothing.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.calls.some((c) => c.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Disconnect Springfield General' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText("Disconnected from Springfield General. Springfield General confirmed that Medfolio's access was cancelled.")).toBeInTheDocument();
    expect(await screen.findByText('No hospital or clinic connected yet. Find yours below to connect it.')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it("says so when the hospital did not confirm the revocation", async () => {
    fakeServer({
      'GET /api/connections/': () => ({ body: [connection({})] }),
      [`DELETE /api/connections/${connection({}).id}/`]: () => ({ body: { deleted: true, revoked_at_source: false } }),
    });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    await userEvent.click(await screen.findByRole('button', { name: 'Disconnect Springfield General' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disconnect' }));
    expect(await screen.findByText(/did not confirm cancelling Medfolio's access: you can also remove Medfolio in Springfield General's patient portal\./)).toBeInTheDocument();
  });
});

describe("a view-only caregiver on someone else's connections", () => {
  afterEach(() => sessionStorage.removeItem('medfolio.viewing'));

  it('lists them without Sync now, Disconnect, the search or the link panel, and says why', async () => {
    sessionStorage.setItem('medfolio.viewing', JSON.stringify({ patient_id: '7d0c3a52-0000-4000-8000-000000000001', first_name: 'Leo', role: 'view' }));
    fakeServer({ 'GET /api/connections/': () => ({ body: [connection({ last_sync_at: '2026-03-05T08:30:00Z' })] }) });
    renderPage(<ConnectionsPage />, { path: '/connections' });
    const list = within(await screen.findByRole('region', { name: 'Your connections' }));
    expect(await list.findByRole('heading', { level: 3, name: SPRINGFIELD.name })).toBeInTheDocument();
    expect(list.queryByRole('button')).toBeNull();
    expect(screen.getByText(/You can view Leo's record but not change it\..*Connecting, syncing, disconnecting and receiving links are off\./)).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).toBeNull();
    expect(screen.queryByLabelText('SMART Health Link')).toBeNull();
  });
});

describe('the callback page', () => {
  it('hands code and state to the service once, then shows the connections page with a success message', async () => {
    let connected = false;
    const server = fakeServer({
      'GET /api/connections/callback/': () => {
        connected = true;
        return { body: connection({}) };
      },
      'GET /api/connections/': () => ({ body: connected ? [connection({})] : [] }),
    });
    const { router } = renderPage(<ConnectionCallback />, { path: '/connections/callback', at: '/connections/callback?code=the-code&state=the-state', routes: [routes[0]] });
    expect(await screen.findByText('Connected to Springfield General.')).toHaveAttribute('role', 'status');
    expect(router.state.location.pathname).toBe('/connections');
    const finish = server.calls.filter((c) => c.path.startsWith('/api/connections/callback/'));
    expect(finish.map((c) => c.path)).toEqual(['/api/connections/callback/?state=the-state&code=the-code']);
    expect(finish[0]?.authorization).toBe('Bearer a');
    expect(await screen.findByRole('heading', { level: 3, name: 'Springfield General' })).toBeInTheDocument();
  });

  it('explains an expired or already used sign-in', async () => {
    fakeServer({
      'GET /api/connections/callback/': () => ({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'This sign-in was not started here, was already used, or has expired. Please start connecting again.' } }),
    });
    renderPage(<ConnectionCallback />, { path: '/connections/callback', at: '/connections/callback?code=c&state=old' });
    expect(await screen.findByRole('heading', { level: 1, name: 'The hospital or clinic was not connected' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('was already used, or has expired. Please start connecting again.');
    expect(screen.getByRole('link', { name: 'Back to your connections' })).toHaveAttribute('href', '/connections');
  });

  it("shows the hospital's refusal in plain words and tells the service the sign-in is over", async () => {
    const server = fakeServer({ 'GET /api/connections/callback/': () => ({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'x' } }) });
    renderPage(<ConnectionCallback />, { path: '/connections/callback', at: '/connections/callback?error=access_denied&error_description=User+said+no&state=s' });
    expect(await screen.findByRole('alert')).toHaveTextContent('You did not approve the connection at the hospital or clinic, so nothing was connected.');
    await waitFor(() => expect(server.calls.map((c) => c.path)).toEqual(['/api/connections/callback/?state=s&error=access_denied']));
  });

  it('says when the address has no answer from the hospital, without calling the service', async () => {
    const server = fakeServer({});
    renderPage(<ConnectionCallback />, { path: '/connections/callback', at: '/connections/callback' });
    expect(await screen.findByRole('alert')).toHaveTextContent("the hospital's answer is missing from its address");
    expect(server.calls).toEqual([]);
  });

  it('words other refusals with their description', () => {
    expect(refusalMessage('invalid_scope', 'Scope not allowed')).toBe('The hospital or clinic could not connect (invalid_scope): Scope not allowed. Nothing was connected; you can try again.');
    expect(refusalMessage('server_error', null)).toBe('The hospital or clinic could not connect (server_error). Nothing was connected; you can try again.');
  });
});
