import { chromium, type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './support/test';
import { baseUrl, chromiumPath } from './support/settings';
import { checkScreen, newEmail, logIn as signIn, accessToken as apiToken, registerVerified, confirmAllergySummary } from './support/helpers';

/**
 * Share links in the browser, against the real product: the owner makes a link on the
 * share panel, a doctor opens it signed out in another browser context, the owner revokes it, and
 * the doctor's reload says the link is not valid. Also the dashboard's QR code of the default link.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('sharing');
const password = 'Correct-Horse-7-Battery';
let shareUrl = '';

const accessToken = (request: APIRequestContext) => apiToken(request, email, password);

const logIn = (page: Page) => signIn(page, email, password);

test('an account with a confirmed summary', async ({ request }) => {
  await registerVerified(request, { first_name: 'Lee', last_name: 'Testpatient', email, password, date_of_birth: '1980-02-03' });
  await confirmAllergySummary(request, email, password);
});

test('loading the dashboard makes no share link; View Summary is the owner\'s own page', async ({ page, request }) => {
  await logIn(page);
  await expect(page.getByRole('link', { name: 'View Summary' })).toHaveAttribute('href', /^\/summary\/[0-9a-f-]{36}$/);
  await page.waitForLoadState('networkidle');
  const links = await request.get('/api/share-links/', { headers: { authorization: `Bearer ${await accessToken(request)}` } });
  expect(await links.json()).toEqual([]);
});

test("after sign-out, Back does not show the owner's summary again", async ({ page }) => {
  const signOut = async () => {
    await page.getByRole('button', { name: /account menu/i }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  };
  const allergies = page.getByRole('region', { name: 'Allergies' });

  // Within the app: the summary, sign out, Back.
  await logIn(page);
  await page.getByRole('link', { name: 'View Summary' }).click();
  await expect(allergies).toContainText('Penicillin (hives)');
  const summaryPath = new URL(page.url()).pathname;
  await signOut();
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${summaryPath}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'This link is not valid.' })).toBeVisible();
  await expect(page.getByText('Penicillin')).toHaveCount(0);

  // Its page, loaded signed in, is never stored.
  await logIn(page);
  const loaded = await page.goto(summaryPath);
  expect(loaded?.headers()['cache-control']).toBe('no-store');
  await expect(allergies).toContainText('Penicillin (hives)');
});

test("after sign-out, the back/forward cache does not bring an account page back", async () => {
  // Playwright turns the back/forward cache off by default; a browser of this test's own has it on.
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'], ignoreDefaultArgs: ['--disable-back-forward-cache'] });
  try {
    const page = await browser.newPage({ baseURL: baseUrl });
    const ready = () => page.waitForFunction(() => document.documentElement.dataset['app'] === 'ready');
    await page.goto('/login');
    await ready();
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/$/);
    // An account page in a document of its own, then another page, where the patient signs out.
    const profile = await page.goto('/profile');
    expect(profile?.headers()['cache-control']).toBe('no-store');
    await expect(page.getByRole('main')).toContainText(email);
    await page.goto('/contact');
    await ready();
    await page.getByRole('button', { name: /account menu/i }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    // Back to /contact (the same document), then Back to the profile's own document: not as it was.
    await page.goBack();
    // A restored page fires no load event: wait for the address only.
    await page.goBack({ waitUntil: 'commit' });
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back!' })).toBeVisible();
    await expect(page.getByText(email)).toHaveCount(0);
  } finally {
    await browser.close();
  }
});

test("the dashboard's QR code is the default link's, drawn in the page", async ({ page }) => {
  await logIn(page);
  await page.getByRole('button', { name: 'QR Code' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: 'QR code of your summary link' })).toBeVisible();
  await expect(dialog).toContainText(/\/summary\/[A-Za-z0-9_-]{22}/);
  // Made now that it was asked for, for 30 days (changeable here).
  await expect(dialog.getByTestId('qr-expiry')).toContainText('This link expires on');
  await dialog.getByLabel('Change the expiry').selectOption('7');
  await dialog.getByRole('button', { name: 'Set expiry' }).click();
  await expect(dialog.getByRole('status')).toContainText('The link now expires on');
  await dialog.getByRole('button', { name: 'Close' }).click();
});

test('the owner makes a link on the share panel', async ({ page }) => {
  await logIn(page);
  await page.getByRole('link', { name: 'Share links' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Share your summary' })).toBeVisible();
  await page.getByLabel('Name of the link').fill('For Dr Lee');
  await page.getByRole('button', { name: 'Make link' }).click();
  await expect(page.getByText('Link "For Dr Lee" made.')).toBeVisible();
  shareUrl = await page.getByRole('textbox', { name: 'Link "For Dr Lee"' }).inputValue();
  expect(shareUrl).toMatch(/\/summary\/[A-Za-z0-9_-]{22}$/);
  await checkScreen(page, 'share-panel');
});

test('a doctor opens it signed out in another browser, the owner revokes it, and the reload says it is not valid', async ({ page, browser }) => {
  const doctor = await browser.newContext();
  const doctorPage = await doctor.newPage();
  const path = new URL(shareUrl).pathname;
  const opened = await doctorPage.goto(path);
  expect(opened?.headers()['referrer-policy']).toBe('no-referrer');
  expect(opened?.headers()['x-robots-tag']).toBe('noindex');
  await expect(doctorPage.getByRole('heading', { level: 1, name: 'Patient Summary' })).toBeVisible();
  await expect(doctorPage.getByText('Shared through "For Dr Lee"')).toBeVisible();
  await expect(doctorPage.getByRole('region', { name: 'Allergies' })).toContainText('Penicillin (hives)');
  await expect(doctorPage.getByRole('button', { name: 'Review' })).toHaveCount(0);

  await logIn(page);
  await page.goto('/share');
  const card = page.getByTestId('share-link').filter({ hasText: 'For Dr Lee' });
  await expect(card.getByTestId('view-count')).toContainText(/^1/);
  await card.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke now' }).click();
  await expect(page.getByText('"For Dr Lee" no longer opens your summary.')).toBeVisible();

  await doctorPage.reload();
  await expect(doctorPage.getByRole('heading', { level: 1, name: 'This link is not valid.' })).toBeVisible();
  await expect(doctorPage.getByText('Penicillin')).toHaveCount(0);
  await checkScreen(doctorPage, 'share-not-valid');
  await doctor.close();
});
