import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { Layout } from '../components/Layout';
import { RouterError } from '../pages/RouterError';
import { GuestOnly, SignedInOnly, HomeRoute } from './guards';

/** A page loaded on demand: every route is its own chunk, so the landing page ships only its own code. */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/**
 * Routes of section 2. Signed-out and signed-in visitors share one table: pages only for signed-in
 * users send others to /login?next=…, pages only for signed-out visitors send signed-in users home,
 * and any unknown path falls back to "/" (the landing page or the home screen).
 */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouterError />,
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/about', lazy: page(() => import('../pages/public/About')) },
      { path: '/contact', lazy: page(() => import('../pages/public/Contact')) },
      { path: '/membership', lazy: page(() => import('../pages/public/Membership')) },
      { path: '/wallet-preview', lazy: page(() => import('../pages/public/WalletPreview')) },
      { path: '/medical-license', lazy: page(() => import('../pages/public/MedicalLicense')) },
      { path: '/privacy', lazy: page(() => import('../pages/public/Privacy')) },
      { path: '/terms', lazy: page(() => import('../pages/public/Terms')) },
      { path: '/faq', lazy: page(() => import('../pages/public/Faq')) },
      { path: '/auth/google/callback', lazy: page(() => import('../pages/auth/GoogleCallback')) },
      { path: '/history', lazy: page(() => import('../pages/account/History')) },
      {
        element: <GuestOnly />,
        children: [
          { path: '/login', lazy: page(() => import('../pages/auth/Login')) },
          { path: '/sign-up', lazy: page(() => import('../pages/auth/SignUp')) },
          { path: '/signup', element: <Navigate to="/sign-up" replace /> },
          { path: '/forgot-password', lazy: page(() => import('../pages/auth/ForgotPassword')) },
          { path: '/reset-password/:email/:token', lazy: page(() => import('../pages/auth/ResetPassword')) },
          { path: '/otp-verify', lazy: page(() => import('../pages/auth/OtpVerify')) },
        ],
      },
      {
        element: <SignedInOnly />,
        children: [
          { path: '/profile', lazy: page(() => import('../pages/account/Profile')) },
          { path: '/edit-profile', lazy: page(() => import('../pages/account/EditProfile')) },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

/** Resolves once the router has matched the first address and loaded that page's code (its lazy route). */
export function routerReady(router: ReturnType<typeof createAppRouter>): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
