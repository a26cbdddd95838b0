import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { titleFromMatches } from '../app/titles';
import { useAppSelector } from '../app/hooks';
import { useProfileGetQuery } from '../api/api';
import { Footer } from './Footer';
import { Header } from './Header';
import { PageLoading } from './PageLoading';
import { ViewingBanner } from './Viewing';

/**
 * Every page: skip link, header, the page itself, footer. Signed in, the current user is loaded here.
 * `loading`: the router's hydrate fallback, while the first page's code is still on its way.
 */
export function Layout({ loading = false }: { loading?: boolean }) {
  const authenticated = useAppSelector((s) => s.session.authenticated);
  const { error } = useProfileGetQuery(undefined, { skip: !authenticated });
  useEffect(() => {
    // Profile load errors are logged and loading ends (section 8); a 401 is handled by the API layer.
    if (error) console.warn('The profile could not be loaded.');
  }, [error]);
  useEffect(() => {
    // The app now runs the page (a prerendered one is hydrated): browser tests wait for this.
    if (!loading) document.documentElement.dataset.app = 'ready';
  }, [loading]);
  const { pathname } = useLocation();
  // One browser-tab title per page, from the route table (app/router.tsx).
  const title = titleFromMatches(useMatches(), authenticated);
  useEffect(() => {
    document.title = title;
  }, [title]);
  // A block body: scrollTo returns a Promise in recent Chromium, and an effect may return only a clean-up function.
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only rounded-md bg-white px-4 py-2 focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50">
        Skip to content
      </a>
      <Header />
      <ViewingBanner />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        {loading ? (
          <PageLoading />
        ) : (
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      <Footer />
    </div>
  );
}
