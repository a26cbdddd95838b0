import { useCallback } from 'react';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { useAuthLogoutMutation } from '../api/api';
import { navigateTo } from './navigation';
import { signedIn, signedOut } from './session-slice';
import { clearTokens, refreshToken, storeTokens, type TokenPair } from './tokens';

/** The session as components see it: who is signed in, and the two transitions. */
export function useSession() {
  const dispatch = useAppDispatch();
  const { authenticated, user } = useAppSelector((s) => s.session);
  const [logout] = useAuthLogoutMutation();

  /** Tokens stored, the session signed in; the layout then loads the current user. */
  const signIn = useCallback(
    (tokens: TokenPair) => {
      storeTokens(tokens);
      dispatch(signedIn());
    },
    [dispatch],
  );

  /** Logout: the server revokes the refresh token; tokens and user are cleared; the browser goes to "/". */
  const signOut = useCallback(async () => {
    const refresh = refreshToken();
    if (refresh) await logout({ body: { refresh } }).catch(() => undefined);
    clearTokens();
    dispatch(signedOut('logout'));
    await navigateTo('/');
  }, [dispatch, logout]);

  return { authenticated, user, signIn, signOut };
}

export type { TokenPair };
