import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { checkScreen, expectAccessible, logIn as signIn, newEmail, registerVerified, confirmAllergySummary } from './support/helpers';

/**
 * Whose summary it is, in the browser, against the real product: the share panel's "Show my name and date of
 * birth" switch (on by default, explained); a doctor opening the link sees whose summary it is and
 * reads its FHIR IPS in a dialog or downloads it as a file (no raw JSON in a tab); a link made
 * anonymous names nobody.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('identity');
const password = 'Correct-Horse-7-Battery';
const links: Record<string, string> = {};

const logIn = (page: Page) => signIn(page, email, password);

test('an account (Nia Okafortest, born 12 September 1975) with a confirmed summary', async ({ request }) => {
  await registerVerified(request, { first_name: 'Nia', last_name: 'Okafortest', email, password, date_of_birth: '1975-09-12' });
  await confirmAllergySummary(request, email, password);
});

test('the owner makes a named link (the default, explained) and an anonymous one', async ({ page }) => {
  await logIn(page);
  await page.goto('/share');
  await expect(page.getByRole('heading', { level: 1, name: 'Share your summary' })).toBeVisible();
  const form = page.locator('form').filter({ hasText: 'Make a new link' });
  const identity = form.getByRole('checkbox', { name: 'Show my name and date of birth' });
  await expect(identity).toBeChecked();
  await expect(form.getByText('so a doctor can tell whose record it is')).toBeVisible();
  await expectAccessible(page);

  for (const [label, show] of [['For Dr Lee', true], ['Anonymous', false]] as const) {
    await page.getByLabel('Name of the link').fill(label);
    if (!show) await identity.uncheck();
    await page.getByRole('button', { name: 'Make link' }).click();
    await expect(page.getByText(`Link "${label}" made.`)).toBeVisible();
    links[label] = new URL(await page.getByRole('textbox', { name: `Link "${label}"` }).inputValue()).pathname;
  }
  const anonymous = page.getByTestId('share-link').filter({ has: page.getByRole('heading', { name: 'Anonymous', exact: true }) });
  await expect(anonymous).toContainText('Your name and date of birth: not shown (anonymous)');
});

test('a doctor sees whose summary it is, reads its FHIR IPS in a dialog and downloads it as a file', async ({ browser }) => {
  const doctor = await browser.newContext();
  const page = await doctor.newPage();
  await page.goto(links['For Dr Lee'] ?? '');
  const identity = page.getByTestId('patient-identity');
  await expect(identity).toContainText('Nia Okafortest');
  await expect(identity.locator('time')).toHaveAttribute('datetime', '1975-09-12');
  await checkScreen(page, 'shared-summary-named');

  await page.getByRole('button', { name: 'View', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'FHIR International Patient Summary' });
  await expect(dialog).toContainText('Nia Okafortest');
  await expect(dialog).toContainText('Penicillin');
  await checkScreen(page, 'shared-summary-ips-view');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download .json' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^Medfolio_IPS_\d{4}-\d{2}-\d{2}\.json$/);
  const bundle = JSON.parse(await readFile((await download.path()) ?? '', 'utf8')) as { resourceType: string; entry: { resource: { resourceType: string; birthDate?: string } }[] };
  expect(bundle.resourceType).toBe('Bundle');
  expect(bundle.entry.find((e) => e.resource.resourceType === 'Patient')?.resource.birthDate).toBe('1975-09-12');
  await dialog.getByRole('button', { name: 'Close' }).click();
  // No page of raw JSON was opened.
  expect(doctor.pages()).toHaveLength(1);
  await doctor.close();
});

test('the anonymous link names nobody, on the page or in its FHIR IPS', async ({ browser }) => {
  const doctor = await browser.newContext();
  const page = await doctor.newPage();
  await page.goto(links['Anonymous'] ?? '');
  await expect(page.getByRole('region', { name: 'Allergies' })).toContainText('Penicillin (hives)');
  await expect(page.getByTestId('patient-identity')).toContainText('The patient chose not to show their name and date of birth');
  await page.getByRole('button', { name: 'View', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'FHIR International Patient Summary' });
  await expect(dialog).toContainText('Penicillin');
  await expect(page.getByText('Okafortest')).toHaveCount(0);
  await doctor.close();
});
