import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { accessToken, checkScreen, DESKTOP, logIn, newEmail, PHONE, registerVerified, confirmAllergySummary } from './support/helpers';

/**
 * The share panel's form and a link's Change panel, at phone and desktop width: a made link puts
 * the form back to its defaults (the next link inherits no "e-mail me", passcode or expiry), and a
 * link's Change panel shows that link's own expiry, "Never" only for a link that has none (so Set
 * expiry pressed unchanged keeps what the link has).
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('share-form');
const password = 'Correct-Horse-7-Battery';

interface Link {
  id: string;
  label: string;
  expires_at: string | null;
  notify_on_view: boolean;
  has_passcode: boolean;
  providers_may_see_documents: boolean;
  show_patient_identity?: boolean;
}

async function links(request: APIRequestContext): Promise<Link[]> {
  const listed = await request.get('/api/share-links/', { headers: { authorization: `Bearer ${await accessToken(request, email, password)}` } });
  expect(listed.ok(), await listed.text()).toBe(true);
  return (await listed.json()) as Link[];
}

async function linkNamed(request: APIRequestContext, label: string): Promise<Link> {
  const link = (await links(request)).find((l) => l.label === label);
  if (!link) throw new Error(`no link "${label}"`);
  return link;
}

/** The calendar day of an instant in the browser's own time zone, as a date field holds it (YYYY-MM-DD). */
const localDay = (page: Page, iso: string) =>
  page.evaluate((at) => {
    const d = new Date(at);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  }, iso);

const newLinkForm = (page: Page) => page.locator('form').filter({ has: page.getByRole('heading', { name: 'Make a new link' }) });

test('an account with a confirmed summary', async ({ request }) => {
  await registerVerified(request, { first_name: 'Robin', last_name: 'Testpatient', email, password, date_of_birth: '1980-02-03' });
  await confirmAllergySummary(request, email, password);
});

for (const size of [PHONE, DESKTOP]) {
  test.describe(`at ${size.width} px`, () => {
    test.beforeEach(async ({ page }) => page.setViewportSize(size));

    test('a made link puts the form back to its defaults: the next link has no e-mail, passcode or chosen expiry', async ({ page, request }) => {
      const first = `For Dr Ames (${size.width})`;
      const next = `For Dr Baker (${size.width})`;
      await logIn(page, email, password);
      await page.goto('/share');
      const form = newLinkForm(page);
      // The defaults, before anything is chosen.
      await expect(form.getByLabel('Expires')).toHaveValue('30');
      await expect(form.getByLabel('E-mail me when it is opened (at most once an hour)')).not.toBeChecked();

      await form.getByLabel('Name of the link').fill(first);
      await form.getByLabel('Expires').selectOption('7');
      await form.getByLabel('Passcode (optional)').fill('tulip-4821');
      await form.getByLabel('E-mail me when it is opened (at most once an hour)').check();
      await form.getByLabel('Care providers may ask to see my documents').check();
      await form.getByLabel('Show my name and date of birth').uncheck();
      await form.getByRole('button', { name: 'Make link' }).click();
      await expect(page.getByText(`Link "${first}" made.`)).toBeVisible();
      expect(await linkNamed(request, first)).toMatchObject({ notify_on_view: true, has_passcode: true, providers_may_see_documents: true, show_patient_identity: false });

      // Every setting is back to its default.
      await expect(form.getByLabel('Name of the link')).toHaveValue('');
      await expect(form.getByLabel('Expires')).toHaveValue('30');
      await expect(form.getByLabel('Expiry date')).toHaveCount(0);
      await expect(form.getByLabel('Passcode (optional)')).toHaveValue('');
      await expect(form.getByLabel('E-mail me when it is opened (at most once an hour)')).not.toBeChecked();
      await expect(form.getByLabel('Care providers may ask to see my documents')).not.toBeChecked();
      await expect(form.getByLabel('Show my name and date of birth')).toBeChecked();
      if (size === PHONE) await checkScreen(page, 'share-form-after-link');

      // The next link, with only a name, carries none of the first one's settings.
      await form.getByLabel('Name of the link').fill(next);
      await form.getByRole('button', { name: 'Make link' }).click();
      await expect(page.getByText(`Link "${next}" made.`)).toBeVisible();
      const made = await linkNamed(request, next);
      expect(made).toMatchObject({ notify_on_view: false, has_passcode: false, providers_may_see_documents: false });
      expect(made.show_patient_identity).not.toBe(false);
      // 30 days (the default), not the first link's 7.
      const days = (Date.parse(made.expires_at ?? '') - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(29);
      expect(days).toBeLessThanOrEqual(30.01);
    });

    test("a link's Change panel shows its own expiry date, and 'Never' only for a link without one", async ({ page, request }) => {
      const dated = `Expiring (${size.width})`;
      const open = `Open-ended (${size.width})`;
      const headers = { authorization: `Bearer ${await accessToken(request, email, password)}` };
      const expiresAt = new Date(Date.now() + 5 * 86_400_000).toISOString();
      for (const [label, expires_at] of [
        [dated, expiresAt],
        [open, null],
      ] as const) {
        const made = await request.post('/api/share-links/', { headers, data: { label, expires_at } });
        expect(made.ok(), await made.text()).toBe(true);
      }
      const stored = (await linkNamed(request, dated)).expires_at;
      if (stored === null) throw new Error('the link was made without its expiry');

      await logIn(page, email, password);
      await page.goto('/share');
      const datedCard = page.getByTestId('share-link').filter({ has: page.getByRole('heading', { name: dated }) });
      await datedCard.getByText('Change', { exact: true }).click();
      const day = await localDay(page, stored);
      await expect(datedCard.getByLabel('Expires')).toHaveValue('date');
      await expect(datedCard.getByLabel('Expiry date')).toHaveValue(day);
      await expect(datedCard.getByLabel('Expires').locator('option:checked')).toHaveText('On a date');
      if (size === PHONE) await checkScreen(page, 'share-link-change-expiry');

      // Set expiry pressed without a change keeps the link's day (it used to remove the expiry).
      await datedCard.getByRole('button', { name: 'Set expiry' }).click();
      await expect(page.getByText('The expiry is changed.')).toBeVisible();
      const kept = (await linkNamed(request, dated)).expires_at;
      expect(kept, 'Set expiry unchanged keeps an expiry').not.toBeNull();
      expect(await localDay(page, kept ?? '')).toBe(day);

      const openCard = page.getByTestId('share-link').filter({ has: page.getByRole('heading', { name: open }) });
      await openCard.getByText('Change', { exact: true }).click();
      await expect(openCard.getByLabel('Expires')).toHaveValue('never');
      await expect(openCard.getByLabel('Expires').locator('option:checked')).toHaveText('Never');
      await expect(openCard.getByLabel('Expiry date')).toHaveCount(0);
    });
  });
}
