import type { BaseQueryApi, FetchArgs } from '@reduxjs/toolkit/query';
import { setNavigator } from '../session/navigation';
import { accessToken, clearTokens, refreshToken, storeTokens } from '../session/tokens';
import { REFRESH_PATH, withReauth, type RawBaseQuery } from './reauth';

/**
 * The session rules of section 4, driven through withReauth with a scripted "network": each call
 * records its path and the access token it carried, and answers from a list per path.
 */
type Answer = { data: unknown } | { error: { status: number; data?: unknown } };

function network(script: Record<string, Answer[]>) {
  const calls: { path: string; token: string | undefined; body?: unknown }[] = [];
  const raw: RawBaseQuery = async (args: string | FetchArgs) => {
    const path = typeof args === 'string' ? args : args.url;
    calls.push({ path, token: accessToken(), body: typeof args === 'string' ? undefined : args.body });
    await new Promise((r) => setTimeout(r, 5));
    const queue = script[path] ?? [];
    const answer = queue.length > 1 ? queue.shift() : queue[0];
    if (!answer) return { error: { status: 404, data: undefined } };
    return answer as Awaited<ReturnType<RawBaseQuery>>;
  };
  return { raw, calls };
}

function apiFor(endpoint: string) {
  const dispatched: unknown[] = [];
  const api = { endpoint, dispatch: (a: unknown) => dispatched.push(a), getState: () => ({}), signal: new AbortController().signal } as unknown as BaseQueryApi;
  return { api, dispatched };
}

const ok = (data: unknown): Answer => ({ data });
const unauthorized: Answer = { error: { status: 401, data: { message: 'Token expired', code: 'UNAUTHENTICATED' } } };

let navigations: string[];
beforeEach(() => {
  navigations = [];
  setNavigator((to) => navigations.push(to));
  storeTokens({ access: 'old-access', refresh: 'refresh-1' });
});
afterEach(() => clearTokens());

describe('withReauth', () => {
  it('passes a successful call through untouched', async () => {
    const { raw, calls } = network({ '/api/history/': [ok({ results: [] })] });
    const result = await withReauth(raw)('/api/history/', apiFor('historyList').api, {});
    expect(result).toEqual({ data: { results: [] } });
    expect(calls.map((c) => c.path)).toEqual(['/api/history/']);
  });

  it('on a 401 refreshes once, stores the new tokens and retries the call once with the new access token', async () => {
    const { raw, calls } = network({
      '/api/history/': [unauthorized, ok({ results: ['entry'] })],
      [REFRESH_PATH]: [ok({ access: 'new-access', refresh: 'refresh-2' })],
    });
    const result = await withReauth(raw)('/api/history/', apiFor('historyList').api, {});
    expect(result).toEqual({ data: { results: ['entry'] } });
    expect(calls).toEqual([
      { path: '/api/history/', token: 'old-access', body: undefined },
      { path: REFRESH_PATH, token: 'old-access', body: { refresh: 'refresh-1' } },
      { path: '/api/history/', token: 'new-access', body: undefined },
    ]);
    expect(accessToken()).toBe('new-access');
    expect(refreshToken()).toBe('refresh-2');
    expect(navigations).toEqual([]);
  });

  it('retries only once: a second 401 is returned, not refreshed again', async () => {
    const { raw, calls } = network({
      '/api/history/': [unauthorized, unauthorized],
      [REFRESH_PATH]: [ok({ access: 'new-access', refresh: 'refresh-2' })],
    });
    const result = await withReauth(raw)('/api/history/', apiFor('historyList').api, {});
    expect(result).toEqual(unauthorized);
    expect(calls.map((c) => c.path)).toEqual(['/api/history/', REFRESH_PATH, '/api/history/']);
  });

  it('a failed refresh clears both tokens, signs out and goes to /login', async () => {
    const { raw } = network({ '/api/history/': [unauthorized], [REFRESH_PATH]: [unauthorized] });
    const { api, dispatched } = apiFor('historyList');
    const result = await withReauth(raw)('/api/history/', api, {});
    expect(result).toEqual(unauthorized);
    expect(accessToken()).toBeUndefined();
    expect(refreshToken()).toBeUndefined();
    expect(dispatched).toContainEqual({ type: 'session/signedOut', payload: undefined });
    expect(navigations).toEqual(['/login']);
  });

  it('any failing call to the refresh path itself also ends the session', async () => {
    const { raw } = network({ [REFRESH_PATH]: [{ error: { status: 500 } }] });
    await withReauth(raw)({ url: REFRESH_PATH, method: 'POST', body: { refresh: 'x' } }, apiFor('authRefresh').api, {});
    expect(refreshToken()).toBeUndefined();
    expect(navigations).toEqual(['/login']);
  });

  it('without a refresh token a 401 is returned as it is', async () => {
    clearTokens();
    storeTokens({ access: 'old-access' });
    const { raw, calls } = network({ '/api/history/': [unauthorized] });
    const result = await withReauth(raw)('/api/history/', apiFor('historyList').api, {});
    expect(result).toEqual(unauthorized);
    expect(calls).toHaveLength(1);
    expect(navigations).toEqual([]);
  });

  it('a 401 that survives on the profile fetch clears the tokens and goes to /', async () => {
    const { raw } = network({
      '/api/profile/': [unauthorized],
      [REFRESH_PATH]: [ok({ access: 'new-access', refresh: 'refresh-2' })],
    });
    await withReauth(raw)('/api/profile/', apiFor('profileGet').api, {});
    expect(accessToken()).toBeUndefined();
    expect(navigations).toEqual(['/']);
  });

  it('never refreshes for wrong credentials at login (a 401 there is the answer)', async () => {
    const { raw, calls } = network({ '/api/login/': [unauthorized] });
    const result = await withReauth(raw)({ url: '/api/login/', method: 'POST' }, apiFor('authLogin').api, {});
    expect(result).toEqual(unauthorized);
    expect(calls.map((c) => c.path)).toEqual(['/api/login/']);
  });

  it('concurrent 401s share one refresh, and each call is retried once', async () => {
    const { raw, calls } = network({
      '/api/history/': [unauthorized, ok('history')],
      '/api/profile/': [unauthorized, ok('profile')],
      [REFRESH_PATH]: [ok({ access: 'new-access', refresh: 'refresh-2' })],
    });
    const query = withReauth(raw);
    const [history, profile] = await Promise.all([
      query('/api/history/', apiFor('historyList').api, {}),
      query('/api/profile/', apiFor('profileGet').api, {}),
    ]);
    expect(calls.filter((c) => c.path === REFRESH_PATH)).toHaveLength(1);
    expect(history).toEqual({ data: 'history' });
    expect(profile).toEqual({ data: 'profile' });
  });
});
