import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { FallbackHome, NotFoundNotice } from './NotFoundNotice';
import { Layout } from '../components/Layout';
import { RouterError } from '../pages/RouterError';
import { GuestOnly, SignedInOnly, HomeRoute } from './guards';
import { HOME_TITLE, type PageHandle } from './titles';

/** A page loaded on demand: every route is its own chunk, so the landing page ships only its own code. */
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });
/** The browser tab's title of a route (see titles.ts). */
const titled = (title: string, signedInTitle?: string): { handle: PageHandle } => ({ handle: signedInTitle ? { title, signedInTitle } : { title } });

/**
 * Routes of section 2. Signed-out and signed-in visitors share one table: pages only for signed-in
 * users send others to /login?next=…, pages only for signed-out visitors send signed-in users home,
 * and any unknown path falls back to "/" (the landing page or the home screen), which then says in a
 * brief notice that the address asked for does not exist (NotFoundNotice).
 */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    // Shown while the first page's code loads (a page that was not prerendered): the layout with a
    // loading state, rather than nothing (and React Router's "No HydrateFallback" warning).
    hydrateFallbackElement: <Layout loading />,
    errorElement: <RouterError />,
    children: [
      {
        path: '/',
        element: (
          <>
            <NotFoundNotice />
            <HomeRoute />
          </>
        ),
        ...titled(HOME_TITLE, 'Your documents'),
      },
      { path: '/about', ...titled('About us'), lazy: page(() => import('../pages/public/About')) },
      { path: '/contact', ...titled('Contact us'), lazy: page(() => import('../pages/public/Contact')) },
      { path: '/membership', ...titled('Plans and pricing'), lazy: page(() => import('../pages/public/Membership')) },
      { path: '/wallet-preview', ...titled('Wallet preview'), lazy: page(() => import('../pages/public/WalletPreview')) },
      { path: '/medical-license', ...titled('Medical license'), lazy: page(() => import('../pages/public/MedicalLicense')) },
      { path: '/privacy', ...titled('Privacy policy'), lazy: page(() => import('../pages/public/Privacy')) },
      { path: '/terms', ...titled('Terms of service'), lazy: page(() => import('../pages/public/Terms')) },
      { path: '/faq', ...titled('Frequently asked questions'), lazy: page(() => import('../pages/public/Faq')) },
      { path: '/auth/google/callback', ...titled('Signing in with Google'), lazy: page(() => import('../pages/auth/GoogleCallback')) },
      { path: '/auth/oidc/:provider/callback', ...titled('Signing in'), lazy: page(() => import('../pages/auth/OidcCallback')) },
      { path: '/history', ...titled('Access history'), lazy: page(() => import('../pages/account/History')) },
      { path: '/summary/:id', ...titled('Patient summary'), lazy: page(() => import('../pages/summary/SummaryPage')) },
      // An invitation e-mail's link: readable signed out (sign in or sign up, then back here to accept).
      { path: '/family/invite/:token', ...titled('Invitation to a family record'), lazy: page(() => import('../pages/family/InvitePage')) },
      // A guardian's e-mail to a family member of 13 or more: set up their own sign-in to the record kept for them.
      { path: '/family/claim/:token', ...titled('Your own sign-in'), lazy: page(() => import('../pages/family/ClaimPage')) },
      {
        element: <GuestOnly />,
        children: [
          { path: '/login', ...titled('Sign in'), lazy: page(() => import('../pages/auth/Login')) },
          { path: '/sign-up', ...titled('Create your account'), lazy: page(() => import('../pages/auth/SignUp')) },
          { path: '/signup', element: <Navigate to="/sign-up" replace /> },
          { path: '/forgot-password', ...titled('Forgot password'), lazy: page(() => import('../pages/auth/ForgotPassword')) },
          { path: '/reset-password/:email/:token', ...titled('Reset password'), lazy: page(() => import('../pages/auth/ResetPassword')) },
          { path: '/otp-verify', ...titled('Verify your e-mail'), lazy: page(() => import('../pages/auth/OtpVerify')) },
        ],
      },
      {
        element: <SignedInOnly />,
        children: [
          { path: '/profile', ...titled('Profile'), lazy: page(() => import('../pages/account/Profile')) },
          { path: '/edit-profile', ...titled('Settings'), lazy: page(() => import('../pages/account/EditProfile')) },
          { path: '/share', ...titled('Share your summary'), lazy: page(() => import('../pages/account/SharePanel')) },
          { path: '/trends', ...titled('Health trends'), lazy: page(() => import('../pages/trends/TrendsPage')) },
          { path: '/family', ...titled('Family'), lazy: page(() => import('../pages/family/FamilyPage')) },
          { path: '/family/assent', ...titled('Who can see your record'), lazy: page(() => import('../pages/family/AssentPage')) },
          // Hospitals and clinics (SMART on FHIR): the callback is the redirect URI the hospitals send the browser back to.
          { path: '/connections', ...titled('Connect a hospital or clinic'), lazy: page(() => import('../pages/connections/ConnectionsPage')) },
          { path: '/connections/callback', ...titled('Connecting a hospital or clinic'), lazy: page(() => import('../pages/connections/ConnectionCallback')) },
          // Providers: the patient's requests and grants; a verified doctor's patients and their documents.
          { path: '/providers/access', ...titled('Doctors and your documents'), lazy: page(() => import('../pages/providers/AccessRequests')) },
          { path: '/providers/patients', ...titled('Your patients'), lazy: page(() => import('../pages/providers/ProviderPatients')) },
          { path: '/providers/patients/:patientId', ...titled('Patient documents'), lazy: page(() => import('../pages/providers/PatientDocuments')) },
          { path: '/checkout', ...titled('Checkout'), lazy: page(() => import('../pages/billing/Checkout')) },
          { path: '/referral', ...titled('Refer a friend'), lazy: page(() => import('../pages/billing/Referral')) },
        ],
      },
      { path: '*', element: <FallbackHome /> },
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
