import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { routes } from './app/router';
import { makeStore } from './app/store';
import { titleForPath } from './app/titles';

/**
 * The pages a signed-out visitor can open without any data of theirs: rendered to HTML at build
 * time (libs/tooling/build.mjs), so the gateway can answer them with the page already in the HTML
 * and the browser paints it before any JavaScript has run. main.tsx then hydrates that markup.
 * Signed-in visitors, and every other address, get the plain shell (index.html) as before.
 */
export const PRERENDERED_PATHS = [
  '/',
  '/about',
  '/contact',
  '/membership',
  '/wallet-preview',
  '/medical-license',
  '/privacy',
  '/terms',
  '/faq',
  '/login',
  '/sign-up',
  '/forgot-password',
] as const;

/** The markup of one page as a signed-out visitor first sees it (the same tree main.tsx hydrates). */
export async function prerender(pathname: string): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(new URL(pathname, 'https://medfolio.invalid')));
  if (context instanceof Response) throw new Error(`${pathname} answers a redirect; it cannot be prerendered`);
  if (context.errors) throw new Error(`${pathname} failed to render: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <Provider store={makeStore()}>
        {/* hydrate={false}: no inline hydration script, which the strict CSP would refuse anyway. */}
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </Provider>
    </StrictMode>,
  );
}

/** The browser-tab title of a prerendered page (the app sets the same one once it runs). */
export function prerenderTitle(pathname: string): string {
  return titleForPath(routes, pathname);
}
