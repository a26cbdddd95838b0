import { expect, test } from './support/test';
import { checkScreen } from './support/helpers';

/**
 * Every screen a signed-out visitor can reach: it renders its heading, has no axe violation at
 * 390 and 1280 px, and is saved as a screenshot at both widths.
 */
const publicScreens: { name: string; path: string; heading: string | RegExp }[] = [
  { name: 'landing', path: '/', heading: /one tap away/i },
  { name: 'about', path: '/about', heading: /about/i },
  { name: 'contact', path: '/contact', heading: 'Contact Us' },
  { name: 'membership', path: '/membership', heading: /plan|membership|pricing/i },
  { name: 'wallet-preview', path: '/wallet-preview', heading: 'Hello, Patient!' },
  { name: 'medical-license', path: '/medical-license', heading: /license/i },
  { name: 'privacy', path: '/privacy', heading: /privacy/i },
  { name: 'terms', path: '/terms', heading: /terms/i },
  { name: 'faq', path: '/faq', heading: /question|faq/i },
  { name: 'login', path: '/login', heading: 'Welcome Back!' },
  { name: 'sign-up', path: '/sign-up', heading: /sign up|create|grasp/i },
  { name: 'forgot-password', path: '/forgot-password', heading: 'Forgot Password' },
  { name: 'reset-password', path: '/reset-password/someone%40example.com/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ', heading: 'Reset your password' },
  { name: 'otp-verify', path: '/otp-verify', heading: 'Verification Code' },
  { name: 'history-signed-out', path: '/history', heading: /history/i },
];

for (const screen of publicScreens) {
  test(`${screen.name} (${screen.path}) renders, is accessible and is captured`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(screen.path);
    await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
    await checkScreen(page, screen.name);
    expect(errors, 'no script errors and no CSP violations').toEqual([]);
  });
}

test('an unknown path falls back to the landing page for a visitor', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: /one tap away/i })).toBeVisible();
});

test('a page for signed-in users sends a visitor to /login with ?next=', async ({ page }) => {
  await page.goto('/edit-profile');
  await expect(page).toHaveURL(/\/login\?next=%2Fedit-profile$/);
  await expect(page.getByRole('heading', { name: 'Welcome Back!' })).toBeVisible();
});

test('/signup (the summary header link) leads to sign-up', async ({ page }) => {
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/sign-up$/);
});

test('the router failure screen shows when a page cannot load', async ({ page }) => {
  await page.goto('/');
  // A deploy replaced the page's chunks: the next route's code is gone.
  await page.route('**/assets/About-*.js', (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.getByRole('contentinfo').getByRole('link', { name: 'About' }).click();
  await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
  await checkScreen(page, 'router-failure');
});

test.describe('prerendered public pages', () => {
  const prerendered = ['/', '/about', '/contact', '/membership', '/wallet-preview', '/medical-license', '/privacy', '/terms', '/faq', '/login', '/sign-up', '/forgot-password'];

  test('signed-out visitors get each page already rendered in the HTML; signed-in ones get the app shell', async ({ request }) => {
    for (const path of prerendered) {
      const visitor = await request.get(path, { headers: { accept: 'text/html' } });
      expect(visitor.headers()['vary']).toContain('Cookie');
      expect(await visitor.text(), path).toMatch(new RegExp(`<div id="root" data-prerendered="${path}"[ >]`));
      const member = await request.get(path, { headers: { accept: 'text/html', cookie: 'access_token=some.token.value' } });
      expect(await member.text(), path).not.toContain('data-prerendered');
    }
  });

  test('the login page paints without JavaScript, and the app takes it over without re-rendering it', async ({ browser }) => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const still = await noScript.newPage();
    await still.goto('/login');
    await expect(still.getByRole('heading', { level: 1, name: 'Welcome Back!' })).toBeVisible();
    await expect(still.getByLabel('Email Address')).toBeVisible();
    await noScript.close();

    const live = await browser.newContext();
    const page = await live.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message)); // a hydration mismatch surfaces here
    // The app's script is held back until the page from the HTML is marked.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/index-*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login?next=%2Fprofile', { waitUntil: 'commit' });
    const heading = page.getByRole('heading', { level: 1, name: 'Welcome Back!' });
    await heading.evaluate((element) => element.setAttribute('data-from-html', 'yes'));
    // Until the app runs, the form cannot be sent (the browser would put the fields in the address).
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeDisabled();
    release();
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    // The heading element the HTML brought is still the one on screen after hydration (not replaced).
    await expect(heading).toHaveAttribute('data-from-html', 'yes');
    // Hydrated: the form validates as the app does.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    expect(errors).toEqual([]);
    await live.close();
  });
});
