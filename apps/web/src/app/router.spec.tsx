import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { clearTokens, storeTokens } from '../session/tokens';
import { fakeServer } from '../test/fake-server';
import { renderRoutes } from '../test/render';
import { routes } from './router';
import { HOME_TITLE, titleForPath } from './titles';
import { ANA } from '../test/users';

const profile = { ...ANA, date_of_birth: null };

/** Every path in the table, with its handle. */
function flatten(table: RouteObject[]): RouteObject[] {
  return table.flatMap((route) => [route, ...flatten(route.children ?? [])]).filter((route) => route.path);
}

beforeEach(() => {
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  fakeServer({ 'GET /api/profile/': () => ({ body: profile }), 'GET /api/upload/': () => ({ body: [] }), 'GET /api/client-config/': () => ({ body: {} }) });
});
afterEach(() => {
  clearTokens();
  jest.restoreAllMocks();
});

describe('page titles', () => {
  it('gives every page (all but redirects) its own browser-tab title', () => {
    const pages = flatten(routes).filter((route) => route.path !== '*' && route.path !== '/signup');
    const titles = pages.map((route) => (route.handle as { title?: string } | undefined)?.title);
    expect(titles).not.toContain(undefined);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('names the page in the tab, and the prerendered HTML gets the same title', async () => {
    renderRoutes(routes, { at: '/sign-up' });
    await screen.findByRole('heading', { level: 1, name: 'Create your account' }, { timeout: 10_000 }); // a lazy chunk: slow on a loaded machine
    await waitFor(() => expect(document.title).toBe('Create your account · Medfolio'));
    expect(titleForPath(routes, '/sign-up')).toBe('Create your account · Medfolio');
    expect(titleForPath(routes, '/')).toBe(HOME_TITLE);
  });

  it('calls the signed-in home page by what it is', async () => {
    storeTokens({ access: 'a', refresh: 'r' });
    renderRoutes(routes, { at: '/' });
    await waitFor(() => expect(document.title).toBe('Your documents · Medfolio'));
  });
});

describe('the first load of a page', () => {
  it.each(['/profile', '/edit-profile', '/history', '/otp-verify'])('%s shows the layout and a loading state meanwhile, without a router warning', async (path) => {
    const warn = jest.spyOn(console, 'warn');
    if (path !== '/otp-verify') storeTokens({ access: 'a', refresh: 'r' });
    renderRoutes(routes, { at: path });
    // Before the page's code is there: the header and the loading state, not a blank screen.
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    await screen.findByRole('heading', { level: 1 });
    expect(warn.mock.calls.flat().join(' ')).not.toMatch(/HydrateFallback/);
  });
});

describe('the summary page', () => {
  it('/summary/{id} is the summary page, its own chunk, named in the tab', async () => {
    renderRoutes(routes, { at: '/summary/sample' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Patient Summary' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Patient summary · Medfolio'));
  });
});

describe('billing pages', () => {
  it.each(['/checkout?price_id=price_basic_monthly', '/referral'])('%s is for signed-in users: signed out, it asks to sign in first', async (at) => {
    const { router } = renderRoutes(routes, { at });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe(at);
  });
});

describe('an unknown address', () => {
  it('falls back to home (section 2) and says in a brief notice that the page does not exist; Dismiss removes it', async () => {
    const { router } = renderRoutes(routes, { at: '/no-such-page?x=1' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('There is no page at /no-such-page?x=1, so here is the home page.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(/There is no page at/)).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/');
  });

  it('signed in, the notice is on the documents home too', async () => {
    storeTokens({ access: 'a', refresh: 'r' });
    const { router } = renderRoutes(routes, { at: '/dashbord' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByText(/There is no page at/)).toHaveTextContent('There is no page at /dashbord, so here is the home page.');
  });

  it('a home page reached any other way has no notice', async () => {
    renderRoutes(routes, { at: '/' });
    await screen.findAllByRole('heading', { level: 1 });
    expect(screen.queryByText(/There is no page at/)).not.toBeInTheDocument();
  });
});
