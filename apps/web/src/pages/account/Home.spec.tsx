import { screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { useProfileGetQuery } from '../../api/api';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import Home, { greeting } from './Home';
import { ANA } from '../../test/users';

const profile = { ...ANA, date_of_birth: null };

/** Loads the current user as the layout does (GET /api/profile/ fills the session's user). */
function WithProfile({ children }: { children: ReactNode }) {
  useProfileGetQuery();
  return children;
}

beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));
afterEach(() => {
  clearTokens();
  jest.useRealTimers();
});

describe('greeting by local time', () => {
  it.each([
    [0, 0, 'Good Morning'],
    [9, 30, 'Good Morning'],
    [11, 59, 'Good Morning'],
    [12, 0, 'Good Afternoon'],
    [17, 59, 'Good Afternoon'],
    [18, 0, 'Good Evening'],
    [23, 59, 'Good Evening'],
  ])('%i:%i is %s', (hour, minute, expected) => {
    expect(greeting(new Date(2024, 4, 6, hour, minute))).toBe(expected);
  });
});

describe('Home page (signed in)', () => {
  function renderHome(documents: unknown[] = []) {
    const server = fakeServer({
      'GET /api/profile/': () => ({ body: profile }),
      'GET /api/upload/': () => ({ body: documents }),
    });
    const view = renderPage(
      <WithProfile>
        <Home />
      </WithProfile>,
    );
    return { ...view, server };
  }

  it('greets the user by first and last name in the morning', async () => {
    jest.useFakeTimers({ now: new Date(2024, 4, 6, 9, 15), advanceTimers: true });
    const { server } = renderHome();
    expect(await screen.findByRole('heading', { level: 1, name: 'Good Morning, Ana Lima' })).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/profile/')?.authorization).toBe('Bearer a');
  });

  it('says Good Afternoon after noon and Good Evening from 18:00', async () => {
    jest.useFakeTimers({ now: new Date(2024, 4, 6, 12, 0), advanceTimers: true });
    const first = renderHome();
    expect(await screen.findByRole('heading', { level: 1, name: 'Good Afternoon, Ana Lima' })).toBeInTheDocument();
    first.unmount();

    jest.setSystemTime(new Date(2024, 4, 6, 18, 0));
    renderHome();
    expect(await screen.findByRole('heading', { level: 1, name: 'Good Evening, Ana Lima' })).toBeInTheDocument();
  });

  it('shows the greeting without a name until the user is loaded', () => {
    jest.useFakeTimers({ now: new Date(2024, 4, 6, 20, 0), advanceTimers: true });
    fakeServer({ 'GET /api/profile/': () => new Promise<never>(() => undefined), 'GET /api/upload/': () => new Promise<never>(() => undefined) });
    renderPage(<Home />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^Good Evening,$/);
  });

  it('is the documents dashboard: Add Documents, the three actions and the documents, loaded with the bearer token', async () => {
    const { server } = renderHome([
      { id: 'd1', filename: 'Blood test.pdf', url: null, uploaded_at: '2024-05-06T09:00:00.000Z', size: 1000, content_type: 'application/pdf' },
    ]);
    expect(screen.getByRole('region', { name: 'Add Documents' })).toBeInTheDocument();
    expect(screen.getByLabelText('Choose files')).toHaveAttribute('type', 'file');
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    expect(await screen.findByRole('heading', { name: 'Documents | 1 Files' })).toBeInTheDocument();
    expect(within(screen.getByRole('table')).getByText('Blood test.pdf')).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/upload/')?.authorization).toBe('Bearer a');

    // The actions need the user's id: the QR code and the summary link of this user.
    expect(await screen.findByRole('link', { name: 'View Summary' })).toHaveAttribute('href', '/summary/u1');
    expect(screen.getByRole('button', { name: 'QR Code' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Generate Apple Wallet Pass' })).toBeEnabled();
  });

  it('links to the rest of the account', async () => {
    renderHome();
    const nav = screen.getByRole('navigation', { name: 'Your account' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Health trends', '/trends'],
      ['Hospitals & clinics', '/connections'],
      ['Profile', '/profile'],
      ['Settings', '/edit-profile'],
      ['Access history', '/history'],
      ['Plans', '/membership'],
      ['Contact', '/contact'],
    ]);
    expect(screen.getByRole('link', { name: 'See your health trends' })).toHaveAttribute('href', '/trends');
    expect(screen.getByRole('link', { name: 'Connect a hospital or clinic' })).toHaveAttribute('href', '/connections');
    await screen.findByText(/Ana Lima/);
    await screen.findByText('No files uploaded yet. Upload some files to see them here.');
  });
});
