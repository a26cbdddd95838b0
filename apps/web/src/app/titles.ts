import { matchRoutes, type RouteObject, type UIMatch } from 'react-router';

/** What a route says about itself in the router table (`handle`). */
export interface PageHandle {
  /** The browser tab's title for this page, without the site name. */
  title: string;
  /** "/" is the landing page for visitors and the documents dashboard once signed in. */
  signedInTitle?: string;
}

export const SITE_NAME = 'Medfolio';
/** The landing page's title (also index.html's, the shell every other page starts from). */
export const HOME_TITLE = 'Medfolio: your medical history, one tap away';

function isPageHandle(handle: unknown): handle is PageHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as PageHandle).title === 'string';
}

/** The tab title for the deepest matched route that names one: "Sign in · Medfolio". */
export function documentTitle(handles: unknown[], authenticated: boolean): string {
  const handle = handles.filter(isPageHandle).at(-1);
  if (!handle) return HOME_TITLE;
  const title = authenticated && handle.signedInTitle ? handle.signedInTitle : handle.title;
  return title === HOME_TITLE ? title : `${title} · ${SITE_NAME}`;
}

export function titleFromMatches(matches: UIMatch[], authenticated: boolean): string {
  return documentTitle(
    matches.map((m) => m.handle),
    authenticated,
  );
}

/** The title of `pathname` for a signed-out visitor (the prerendered pages' <title>). */
export function titleForPath(routes: RouteObject[], pathname: string): string {
  return documentTitle((matchRoutes(routes, pathname) ?? []).map((m) => m.route.handle), false);
}
