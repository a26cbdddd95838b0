import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { HistoryEntry, HistoryPage } from '@medfolio/contracts';
import { fakeServer } from '../../test/fake-server';
import { nth } from '../../test/nth';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import History from './History';

const entries: HistoryEntry[] = [
  {
    id: 'e1',
    when: '2024-05-06T09:15:00.000Z',
    who: 'you',
    actor_name: null,
    actor_relation: null,
    action: 'auth.login',
    what: 'Signed in',
    outcome: 'success',
    from: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
    entity_type: 'session',
    entity_id: 's1',
    reason: null,
  },
  {
    id: 'e2',
    when: '2024-05-05T18:40:00.000Z',
    who: 'someone with your shared link',
    actor_name: null,
    actor_relation: null,
    action: 'summary.read',
    what: 'Opened your summary',
    outcome: 'denied',
    from: null,
    user_agent: null,
    entity_type: 'summary',
    entity_id: null,
    reason: 'Refused: not allowed.',
  },
  {
    id: 'e3',
    when: '2024-05-04T07:05:00.000Z',
    who: 'you',
    actor_name: null,
    actor_relation: null,
    action: 'password.change',
    what: 'Changed the password',
    outcome: 'failure',
    from: '198.51.100.23',
    user_agent: null,
    entity_type: 'user',
    entity_id: 'u1',
    reason: 'The current password given was wrong; nothing was changed.',
  },
];

const local = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** Answers GET /api/history/ with `pages[n - 1]` for ?page=n. */
function historyServer(pages: HistoryPage[]) {
  return fakeServer({
    'GET /api/history/': (call) => {
      const page = Number(new URL(call.path, 'https://localhost').searchParams.get('page') ?? '1');
      return { body: pages[page - 1] ?? { results: [], page, page_size: 20, total: pages[0]?.total ?? 0 } };
    },
  });
}

afterEach(() => clearTokens());

describe('History page, signed in', () => {
  beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));

  it('shows a loading state, then the entries in a table with a caption', async () => {
    const server = historyServer([{ results: entries, page: 1, page_size: 20, total: 3 }]);
    renderPage(<History />, { path: '/history' });
    expect(screen.getByRole('status')).toHaveTextContent('Loading your access history…');

    const table = await screen.findByRole('table', { name: 'Who opened or changed your records, newest first' });
    expect(screen.getByRole('heading', { level: 1, name: 'Access history' })).toBeInTheDocument();
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['When', 'Who', 'What', 'Outcome', 'From']);
    expect(rows.slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      [local(entries[0].when), 'you', 'Signed in', 'Success', '203.0.113.7'],
      [local(entries[1].when), 'someone with your shared link', 'Opened your summaryRefused: not allowed.', 'Denied', 'Unknown'],
      [local(entries[2].when), 'you', 'Changed the passwordThe current password given was wrong; nothing was changed.', 'Failed', '198.51.100.23'],
    ]);
    expect(within(rows[1]).getByText(local(entries[0].when)).tagName).toBe('TIME');
    expect(within(rows[1]).getByText(local(entries[0].when))).toHaveAttribute('datetime', '2024-05-06T09:15:00.000Z');
    expect(server.calls.find((c) => c.path.startsWith('/api/history/'))).toMatchObject({ method: 'GET', authorization: 'Bearer a' });
  });

  it('names the document of an entry from the patient\'s own list, and says when it is gone', async () => {
    const doc = (id: string, action: string, what: string): HistoryEntry => ({ ...nth(entries, 0), id: `h-${id}-${action}`, action, what, entity_type: 'document', entity_id: id });
    fakeServer({
      'GET /api/history/': () => ({
        body: { results: [doc('d1', 'document.download-link', 'Downloaded a document'), doc('d2', 'document.download-link', 'Downloaded a document'), doc('d2', 'document.delete', 'Deleted a document')], page: 1, page_size: 50, total: 3 },
      }),
      'GET /api/upload/': () => ({ body: [{ id: 'd1', filename: 'Blood test.pdf', url: null, uploaded_at: '2024-05-01T00:00:00Z', size: 1, content_type: 'application/pdf' }] }),
    });
    renderPage(<History />, { path: '/history' });
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getByText('Downloaded a document: Blood test.pdf')).toBeInTheDocument());
    expect(within(table).getByText('Downloaded a document (no longer in your documents)')).toBeInTheDocument();
    expect(within(table).getByText('Deleted a document')).toBeInTheDocument();
  });

  it("says who acted by proxy, and for whom, on a family member's record: 'Ana (caregiver) uploaded lab-results.pdf for Leo'", async () => {
    sessionStorage.setItem('medfolio.viewing', JSON.stringify({ patient_id: 'leo-1', first_name: 'Leo', role: 'guardian' }));
    const proxy: HistoryEntry = { ...nth(entries, 0), id: 'h-proxy', who: 'Ana (caregiver)', actor_name: 'Ana', actor_relation: 'caregiver', action: 'document.upload', what: 'Uploaded a document', entity_type: 'document', entity_id: 'd1' };
    const server = fakeServer({
      'GET /api/history/': () => ({ body: { results: [proxy], page: 1, page_size: 50, total: 1 } }),
      'GET /api/upload/': () => ({ body: [{ id: 'd1', filename: 'lab-results.pdf', url: null, uploaded_at: '2024-05-01T00:00:00Z', size: 1, content_type: 'application/pdf' }] }),
    });
    renderPage(<History />, { path: '/history' });
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getByText('Ana (caregiver) uploaded lab-results.pdf for Leo')).toBeInTheDocument());
    // Leo's history and Leo's documents: both asked for Leo's record.
    expect(server.calls.filter((c) => c.path.startsWith('/api/history/') || c.path === '/api/upload/').every((c) => c.patient === 'leo-1')).toBe(true);
    sessionStorage.clear();
  });

  it('groups repeated identical entries of a day into one line, and opens it to show each entry', async () => {
    const user = userEvent.setup();
    const now = Date.now();
    const listed = Array.from({ length: 12 }, (_, i): HistoryEntry => ({
      ...nth(entries, 0),
      id: `l${i}`,
      action: 'document.list',
      what: 'Listed documents',
      entity_type: 'document',
      entity_id: null,
      when: new Date(now - i * 1000).toISOString(),
    }));
    historyServer([{ results: [...listed, nth(entries, 2)], page: 1, page_size: 50, total: 13 }]);
    renderPage(<History />, { path: '/history' });
    const table = await screen.findByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 2);
    const firstRow = nth(within(table).getAllByRole('row'), 1);
    expect(firstRow).toHaveTextContent('Listed documents ×12 today');
    const show = within(firstRow).getByRole('button', { name: 'Show each of these 12 entries' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    // Every audit row is still there: 12 under the group, then the next entry.
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 1 + 12 + 1);
    expect(within(firstRow).getByRole('button', { name: 'Hide each of these 12 entries' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('Page 1 of 1 · 13 entries')).toBeInTheDocument();
  });

  it('also lists the entries as cards for small screens', async () => {
    historyServer([{ results: entries, page: 1, page_size: 20, total: 3 }]);
    renderPage(<History />, { path: '/history' });
    const list = await screen.findByRole('list', { name: 'Who opened or changed your records, newest first' });
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(3);
    expect(cards[1]).toHaveTextContent('Opened your summary');
    expect(cards[1]).toHaveTextContent('Denied');
    expect(cards[1]).toHaveTextContent(`When${local(entries[1].when)}`);
    expect(cards[1]).toHaveTextContent('Whosomeone with your shared link');
    expect(cards[1]).toHaveTextContent('FromUnknown');
  });

  it('pages with Previous and Next, asking the server for ?page=2', async () => {
    const user = userEvent.setup();
    const second = entries.map((entry) => ({ ...entry, id: `${entry.id}-2`, what: `${entry.what} (older)` }));
    const server = historyServer([
      { results: entries, page: 1, page_size: 20, total: 45 },
      { results: second, page: 2, page_size: 20, total: 45 },
    ]);
    const { router } = renderPage(<History />, { path: '/history' });
    expect(await screen.findByText('Page 1 of 3 · 45 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(server.calls.filter((c) => c.path.startsWith('/api/history/')).map((c) => c.path)).toEqual(['/api/history/?page=1&page_size=50']);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3 · 45 entries')).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getByText('Signed in (older)')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path.startsWith('/api/history/')).map((c) => c.path)).toEqual([
      '/api/history/?page=1&page_size=50',
      '/api/history/?page=2&page_size=50',
    ]);
    expect(router.state.location.search).toBe('?page=2');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Page 1 of 3 · 45 entries')).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(screen.getByText('Page 1 of 3 · 45 entries').closest('[tabindex="-1"]')).toHaveFocus());
  });

  it('disables Next on the last page', async () => {
    historyServer([
      { results: entries, page: 1, page_size: 20, total: 23 },
      { results: entries.slice(0, 3), page: 2, page_size: 20, total: 23 },
    ]);
    renderPage(<History />, { path: '/history', at: '/history?page=2' });
    expect(await screen.findByText('Page 2 of 2 · 23 entries')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });

  it('says when nothing was recorded yet', async () => {
    historyServer([{ results: [], page: 1, page_size: 20, total: 0 }]);
    renderPage(<History />, { path: '/history' });
    expect(await screen.findByText('No access recorded yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('says when the history cannot be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const server = fakeServer({
      'GET /api/history/': () => (fail ? { status: 500, body: { message: 'Try again in a minute.', code: 'INTERNAL' } } : { body: { results: entries, page: 1, page_size: 20, total: 3 } }),
    });
    renderPage(<History />, { path: '/history' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your access history could not be loaded. Try again in a minute.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path.startsWith('/api/history/'))).toHaveLength(2);
  });
});

describe('History page, signed out', () => {
  it('explains the access history and links to login with next=/history', () => {
    const server = fakeServer({});
    renderPage(<History />, { path: '/history' });
    expect(screen.getByRole('heading', { level: 1, name: 'Access history' })).toBeInTheDocument();
    expect(screen.getByText(/keeps a record of every time your health information is opened or changed/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in to see your access history' })).toHaveAttribute('href', '/login?next=/history');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/sign-up');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(server.calls).toEqual([]);
  });
});
