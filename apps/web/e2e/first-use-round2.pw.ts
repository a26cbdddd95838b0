import { expect, test } from './support/test';
import { checkScreen, DESKTOP, PHONE } from './support/helpers';

/**
 * What a new user tripped on (the signed-out screens; the referral, the quota refusal and
 * the upload bar are in billing.pw.ts and documents.pw.ts, the signed-in wallet link in
 * first-use.pw.ts): each at phone and desktop width.
 */
for (const size of [PHONE, DESKTOP]) {
  test.describe(`at ${size.width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize(size));

    test('the sample wallet card: its back is like the real pass (no health data), whole on the card', async ({ page }) => {
      await page.goto('/wallet-preview');
      await page.getByRole('button', { name: 'View' }).click();
      const back = page.getByTestId('card-back');
      await expect(back).toContainText('The card itself holds no medical information.');
      await expect(back.getByRole('term')).toHaveText(['About this card', 'How to revoke', 'Website']);
      await expect(back).not.toContainText(/allerg|penicillin|asthma|blood type/i);
      // Let the turn finish, then: the last line (the website) is inside the card, nothing cut off.
      await page.waitForTimeout(700);
      const site = back.getByRole('definition').last();
      await expect(site).toHaveText(new URL(page.url()).origin);
      const [card, line] = await Promise.all([back.boundingBox(), site.boundingBox()]);
      expect(card && line, 'both drawn').toBeTruthy();
      if (!card || !line) return;
      expect(line.y + line.height, 'the website line ends inside the card').toBeLessThanOrEqual(card.y + card.height - 8);
      expect(line.x + line.width).toBeLessThanOrEqual(card.x + card.width);
      expect(await back.evaluate((el) => el.scrollHeight - el.clientHeight), 'nothing overflows the back').toBeLessThanOrEqual(1);
      // The controls below the card are not covered by it.
      const below = await page.getByRole('button', { name: 'View' }).boundingBox();
      expect(below && below.y).toBeGreaterThanOrEqual(card.y + card.height);
      if (size === PHONE) await checkScreen(page, 'wallet-preview-back');
    });

    test('the Free plan card lists what Free users get: the summary, its QR code and the wallet card', async ({ page }) => {
      await page.goto('/membership');
      const free = page.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 2, name: 'Free', exact: true }) });
      await expect(free).toContainText('2 documents only');
      await expect(free).toContainText('AI-driven summary of your records');
      await expect(free).toContainText('QR code and wallet card sharing');
    });

    test('an unknown address goes home with a brief notice that the page does not exist', async ({ page }) => {
      await page.goto('/no/such/page');
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1, name: /one tap away/i })).toBeVisible();
      const notice = page.getByRole('status').filter({ hasText: 'There is no page at' });
      await expect(notice).toHaveText(/There is no page at \/no\/such\/page, so here is the home page\./);
      if (size === PHONE) await checkScreen(page, 'unknown-address');
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect(notice).toHaveCount(0);
      await expect(page).toHaveURL(/\/$/);
    });

    test("the license form says an NPI is 10 digits with a check digit, before asking anyone", async ({ page }) => {
      const calls: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && request.url().includes('/api/medical-license')) calls.push(request.url());
      });
      await page.goto('/medical-license');
      const field = page.getByLabel('Medical License Number');
      await field.fill('12345');
      await page.getByRole('button', { name: 'Proceed' }).click();
      await expect(page.getByRole('alert')).toHaveText('An NPI is exactly 10 digits (numbers only). Please check the number.');
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await field.fill('1234567890');
      await page.getByRole('button', { name: 'Proceed' }).click();
      await expect(page.getByRole('alert')).toContainText('its last digit is a check digit');
      if (size === PHONE) await checkScreen(page, 'medical-license-format');
      expect(calls).toEqual([]);
    });
  });
}
