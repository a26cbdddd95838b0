import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { useAppSelector } from '../app/hooks';
import { useProfileGetQuery } from '../api/api';
import { Footer } from './Footer';
import { Header } from './Header';
import { PageLoading } from './PageLoading';

/** Every page: skip link, header, the page itself, footer. Signed in, the current user is loaded here. */
export function Layout() {
  const authenticated = useAppSelector((s) => s.session.authenticated);
  const { error } = useProfileGetQuery(undefined, { skip: !authenticated });
  useEffect(() => {
    // Profile load errors are logged and loading ends (section 8); a 401 is handled by the API layer.
    if (error) console.warn('The profile could not be loaded.');
  }, [error]);
  useEffect(() => {
    // The app now runs the page (a prerendered one is hydrated): browser tests wait for this.
    document.documentElement.dataset.app = 'ready';
  }, []);
  const { pathname } = useLocation();
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
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
