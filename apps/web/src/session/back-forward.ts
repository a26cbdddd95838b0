import { accessToken, refreshToken } from './tokens';

/** Which sign-in the browser holds now (its refresh token, else its access token), if any. */
const session = () => refreshToken() ?? accessToken();

/**
 * A page the browser restores from its back/forward cache shows what it showed when
 * it was left, without asking the server. Left signed in and restored after a sign-out (in this tab
 * or another), or after someone else signed in, it would show the previous account to whoever holds
 * the browser now. Such a page is loaded afresh instead, and so starts as the session is now. (The
 * gateway also sends pages loaded signed in as `Cache-Control: no-store`, which keeps most browsers
 * from storing them at all; this covers those that still do, and pages loaded signed out.)
 */
export function reloadStalePagesFromBackForwardCache({
  target = window,
  signedIn,
  reload = () => window.location.reload(),
}: {
  target?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Whether the page shows a signed-in session (the store's view). */
  signedIn: () => boolean;
  reload?: () => void;
}): () => void {
  let sessionWhenLeft: string | undefined;
  const onHide = () => {
    sessionWhenLeft = session();
  };
  const onShow = (event: Event) => {
    if (!(event as PageTransitionEvent).persisted || !signedIn()) return;
    const now = session();
    if (now === undefined || now !== sessionWhenLeft) reload();
  };
  target.addEventListener('pagehide', onHide);
  target.addEventListener('pageshow', onShow);
  return () => {
    target.removeEventListener('pagehide', onHide);
    target.removeEventListener('pageshow', onShow);
  };
}
