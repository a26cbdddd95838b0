import type { BaseQueryApi, BaseQueryFn, FetchArgs, FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { Mutex } from 'async-mutex';
import { navigateTo } from '../session/navigation';
import { signedOut } from '../session/session-slice';
import { clearTokens, refreshToken, storeTokens, type TokenPair } from '../session/tokens';

export type RawBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>;

export const REFRESH_PATH = '/api/token/refresh/';

/** Calls made without a session: their 401 means "wrong credentials", never "token expired". */
const PUBLIC_ENDPOINTS = new Set([
  'authLogin',
  'authLoginWithGoogle',
  'authRegister',
  'authVerifyOtp',
  'authResendOtp',
  'authForgot',
  'authReset',
  'authRefresh',
  'authLogout',
  'contactSubmit',
  'clientConfigGet',
  // A share link's passcode: a 401 is a wrong passcode (with the attempts left), never an expired token.
  'summaryUnlock',
]);

function pathOf(args: string | FetchArgs): string {
  return typeof args === 'string' ? args : args.url;
}

function isRefreshPath(args: string | FetchArgs): boolean {
  return pathOf(args).replace(/\/?$/, '/') === REFRESH_PATH;
}

/** Ends the session: both cookies cleared, user forgotten, browser sent to `to`. */
function expire(api: BaseQueryApi, to: string): void {
  clearTokens();
  api.dispatch(signedOut());
  void navigateTo(to);
}

/**
 * One refresh at a time for the whole app: every wrapped base query (fetch, and the XHR of the
 * document upload) shares it, so two transports never spend the same refresh token twice.
 */
const mutex = new Mutex();

/**
 * The session rules of section 4 around any base query:
 * - a 401 on an authenticated call, with a refresh token present, refreshes ONCE and retries the
 *   call once with the new access token; concurrent 401s share one refresh (a mutex);
 * - a failed refresh (or any failing call to the refresh path) clears both tokens and goes to /login;
 * - a 401 that survives on the profile fetch clears both tokens and goes to /.
 */
export function withReauth(raw: RawBaseQuery): RawBaseQuery {
  return async (args, api, extraOptions) => {
    await mutex.waitForUnlock();
    let result = await raw(args, api, extraOptions);
    if (isRefreshPath(args)) {
      if (result.error) expire(api, '/login');
      return result;
    }
    if (result.error?.status !== 401 || PUBLIC_ENDPOINTS.has(api.endpoint)) return result;

    const refresh = refreshToken();
    if (refresh) {
      if (!mutex.isLocked()) {
        const release = await mutex.acquire();
        try {
          const refreshed = await raw({ url: REFRESH_PATH, method: 'POST', body: { refresh } }, api, extraOptions);
          const tokens = refreshed.data as Partial<TokenPair> | undefined;
          if (tokens?.access) {
            storeTokens(tokens);
            result = await raw(args, api, extraOptions);
          } else {
            expire(api, '/login');
            return result;
          }
        } finally {
          release();
        }
      } else {
        // Another call is refreshing: wait for it, then retry once if it succeeded.
        await mutex.waitForUnlock();
        if (!refreshToken()) return result;
        result = await raw(args, api, extraOptions);
      }
    }
    if (result.error?.status === 401 && api.endpoint === 'profileGet') expire(api, '/');
    return result;
  };
}
