import { REFRESH_PATH } from '../api/reauth';
import { refreshToken, storeTokens, type TokenPair } from './tokens';

/**
 * Exchanges the refresh token now, so the next access token carries what changed on the server
 * (a verified licence adds the provider role; tokens issued before keep their roles until they
 * expire). A failure leaves the session as it is: the role then arrives with the next refresh.
 */
export async function refreshSessionNow(): Promise<boolean> {
  const refresh = refreshToken();
  if (!refresh) return false;
  try {
    const response = await fetch(new URL(REFRESH_PATH, window.location.origin), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh }) });
    if (!response.ok) return false;
    const tokens = (await response.json()) as Partial<TokenPair>;
    if (!tokens.access) return false;
    storeTokens(tokens);
    return true;
  } catch {
    return false;
  }
}
