import { expect, test } from '@playwright/test';
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
