import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { checkScreen, newEmail, logIn as signIn, registerVerified } from './support/helpers';
import { devMailKey } from './support/settings';

/**
 * Plans, checkout and referrals in the browser, against the real product on embedded defaults
 * (no STRIPE_SECRET_KEY: payments are not configured, which the pages must say). One account.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('billing');
const password = 'Correct-Horse-7-Battery';

const logIn = (page: Page) => signIn(page, email, password);

test('an account, signed up and verified through the API', async ({ request }) => {
  await registerVerified(request, { first_name: 'Bea', last_name: 'Payer', email, password, date_of_birth: '1984-06-01' });
});

test('membership: yearly by default, the toggle, the real current plan (Free) and the plans to choose', async ({ page }) => {
  await logIn(page);
  await page.goto('/membership');
  await expect(page.getByRole('radio', { name: /yearly/i })).toBeChecked();
  await expect(page.getByText('$80', { exact: true })).toBeVisible();
  const free = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Free' }) });
  await expect(free.getByText('Current Plan')).toBeVisible();
  await expect(page.getByText('Current Plan')).toHaveCount(1);
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/checkout?price_id=price_plus_yearly');
  await page.getByText('Monthly', { exact: true }).click();
  await expect(page.getByRole('radio', { name: /monthly/i })).toBeChecked();
  await expect(page.getByText('$8', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/checkout?price_id=price_plus_monthly');
  await checkScreen(page, 'membership-signed-in');
});

test('checkout without payments configured: the order summary with 8% tax, and a clear notice instead of a card form', async ({ page }) => {
  await logIn(page);
  await page.goto('/checkout?price_id=price_plus_yearly');
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await expect(page.getByText('Payments are not configured on this server, so plans cannot be bought here. You stay on the Free plan.')).toBeVisible();
  const summary = page.getByRole('region', { name: 'Order summary' });
  await expect(summary).toContainText('Plus');
  await expect(summary).toContainText('Yearly');
  await expect(summary).toContainText('$240.00');
  await expect(summary).toContainText('$19.20');
  await expect(summary).toContainText('$259.20');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByRole('button', { name: 'Complete Payment' })).toBeDisabled();
  // No Stripe.js without a publishable key, and the CSP names no Stripe origin.
  expect(await page.evaluate(() => [...document.scripts].some((s) => s.src.includes('stripe')))).toBe(false);
  const response = await page.request.get('/checkout');
  expect(response.headers()['content-security-policy']).not.toContain('stripe');
  await page.getByRole('link', { name: 'Back to plans' }).click();
  await expect(page).toHaveURL(/\/membership$/);
  await page.goto('/checkout?price_id=nonsense');
  await expect(page.getByRole('region', { name: 'Order summary' })).toContainText('$8.64'); // Basic monthly: 8 × 1.08
  await checkScreen(page, 'checkout-not-configured');
});

test('referral: the link with a working Copy Link, Send Invite, and the counts', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await logIn(page);
  await page.goto('/referral');
  await expect(page.getByRole('heading', { level: 1, name: 'Refer a friend' })).toBeVisible();
  const link = page.getByLabel('Your referral link');
  await expect(link).toHaveValue(/\/sign-up\?ref=[A-Z0-9]{8}$/);
  await expect(link).toHaveAttribute('readonly', '');
  await page.getByRole('button', { name: 'Copy Link' }).click();
  await expect(page.getByText('Link copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await link.inputValue());

  await page.getByLabel("Friend's email").fill('not-an-address');
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await expect(page.getByText('Invalid email')).toBeVisible();
  const friend = newEmail('friend');
  await page.getByLabel("Friend's email").fill(friend);
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await expect(page.getByText('Thank you! If this address can join, your invitation is on its way.')).toBeVisible();
  const invited = page.getByText('Invited', { exact: true }).locator('..');
  await expect(invited).toContainText('1');
  // The friend gets the sign-up link with the code.
  const mail = await page.request.get('/dev/mail.json', { headers: { 'x-dev-mail-key': devMailKey } });
  const sent = ((await mail.json()) as { to: string; text: string }[]).find((m) => m.to === friend);
  expect(sent?.text).toContain(`sign-up?ref=${(await link.inputValue()).split('ref=')[1]}`);

  await page.getByRole('button', { name: 'See my free months' }).click();
  await expect(page.getByText(/credit is applied to your next invoices/)).toBeVisible();
  await checkScreen(page, 'referral');
});
