import { expect, test } from './support/test';
import { logIn as signIn, newEmail, textPdf, registerVerified } from './support/helpers';

/**
 * Before the review, in the browser, against the real product: the dashboard's summary badge follows a new
 * upload live (no reload, no focus change), the QR dialog leads to the review first while nothing is
 * confirmed, and a link opened before the review says so plainly and claims nothing about any section.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('review');
const password = 'Correct-Horse-7-Battery';

test('an account', async ({ request }) => {
  await registerVerified(request, { first_name: 'Kim', last_name: 'Testpatient', email, password, date_of_birth: '1979-02-11', phone: '+1 202 555 0144' });
});

let shareUrl = '';

test('the badge follows an upload live, and the QR dialog leads to the review first', async ({ page }) => {
  await signIn(page, email, password);
  const viewSummary = page.getByRole('link', { name: 'View Summary' });
  await expect(viewSummary).toHaveAccessibleDescription('Summary: Not yet');

  await page.getByLabel('Choose files').setInputFiles([
    { name: 'letter.pdf', mimeType: 'application/pdf', buffer: textPdf('Allergies: Penicillin (hives). Medications: Metformin 500 mg by mouth twice daily') },
  ]);
  await page.getByRole('button', { name: 'Upload' }).click();
  const done = page.getByRole('dialog');
  await expect(done.getByRole('heading', { name: 'Success' })).toBeVisible({ timeout: 30_000 });
  const uploadedAt = Date.now();
  await done.getByRole('button', { name: 'Ok' }).click();
  // Live: no reload, no focus change; a summary ready in about 2 s shows within seconds, not 20-30.
  await expect(viewSummary).toHaveAccessibleDescription('Summary: Ready', { timeout: 15_000 });
  expect(Date.now() - uploadedAt).toBeLessThan(15_000);

  await page.getByRole('button', { name: 'QR Code' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('qr-review-first')).toContainText('You have not reviewed your summary yet.');
  await expect(dialog.getByRole('link', { name: 'Review your summary first' })).toHaveAttribute('href', /^\/summary\/[0-9a-f-]{36}\?review=1$/);
  await expect(dialog.getByRole('img', { name: 'QR code of your summary link' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Show the QR code anyway' }).click();
  await expect(dialog.getByRole('img', { name: 'QR code of your summary link' })).toBeVisible();
  shareUrl = (await dialog.locator('span.break-all').textContent()) ?? '';
  expect(shareUrl).toMatch(/\/summary\/[A-Za-z0-9_-]{22}$/);
});

test('a link opened before the review says so, and claims nothing about any section', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(new URL(shareUrl).pathname);
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Summary' })).toBeVisible();
  await expect(page.getByTestId('not-reviewed')).toContainText('The patient has not reviewed this summary yet.');
  await expect(page.getByText('Not recorded')).toHaveCount(0);
  await expect(page.getByText('Penicillin')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Allergies' })).toHaveCount(0);
  await context.close();
});
