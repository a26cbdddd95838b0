import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { checkScreen, codeFor, newEmail, logIn as signIn, accessToken as apiToken } from './support/helpers';

/**
 * Share links (issue 15) in the browser, against the real product: the owner makes a link on the
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
  const registered = await request.post('/api/register/', {
    data: { first_name: 'Lee', last_name: 'Testpatient', phone: '+1 202 555 0143', email, password, date_of_birth: '1980-02-03' },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  expect((await request.post('/api/verify-otp/', { data: { email, otp: await codeFor(email) } })).ok()).toBe(true);
  const headers = { authorization: `Bearer ${await accessToken(request)}` };
  const added = await request.post('/api/summary/facts/', { headers, data: { section: 'allergies', text: 'Penicillin (hives)' } });
  expect(added.ok(), await added.text()).toBe(true);
  const { version } = (await added.json()) as { version: number };
  expect((await request.post('/api/summary/confirm/', { headers, data: { version } })).ok()).toBe(true);
});

test("the dashboard's QR code is the default link's, drawn in the page", async ({ page }) => {
  await logIn(page);
  await page.getByRole('button', { name: 'QR Code' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: 'QR code of your summary link' })).toBeVisible();
  await expect(dialog).toContainText(/\/summary\/[A-Za-z0-9_-]{22}/);
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
