import { lazy, Suspense } from 'react';
import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { safeNext } from '../session/next';
import { useAppSelector } from './hooks';
import { PageLoading } from '../components/PageLoading';
import Landing from '../pages/public/Landing';

const Home = lazy(() => import('../pages/account/Home'));

/** "/": the landing page for visitors, the home screen (documents dashboard) once signed in. */
export function HomeRoute() {
  const authenticated = useAppSelector((s) => s.session.authenticated);
  if (!authenticated) return <Landing />;
  return (
    <Suspense fallback={<PageLoading />}>
      <Home />
    </Suspense>
  );
}

/** Pages for signed-in users: visitors are sent to /login, and come back here after signing in. */
export function SignedInOnly() {
  const authenticated = useAppSelector((s) => s.session.authenticated);
  const endedBy = useAppSelector((s) => s.session.endedBy);
  const location = useLocation();
  // Signing out from such a page goes home (section 4), not back through the login page.
  if (!authenticated && endedBy === 'logout') return <Navigate to="/" replace />;
  if (!authenticated) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <Outlet />;
}

/**
 * Sign-in and sign-up pages: a signed-in user has no use for them. This is also how a successful
 * login leaves /login: the session becomes signed in and the user goes to ?next= (default "/").
 */
export function GuestOnly() {
  const authenticated = useAppSelector((s) => s.session.authenticated);
  const [params] = useSearchParams();
  if (authenticated) return <Navigate to={safeNext(params.get('next'))} replace />;
  return <Outlet />;
}
