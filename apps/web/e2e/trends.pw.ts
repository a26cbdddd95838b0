import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { checkScreen, codeFor, confirmAllergySummary, newEmail, signUp } from './support/helpers';

/**
 * Health trends in the browser, against the real product: sign up, upload a C-CDA of the
 * repository's public corpus (HL7's example discharge summary: its blood pressure, 80/55 mmHg, is
 * flagged low by the record itself), open Trends from the dashboard, read the chart's table and its
 * out-of-range mark, open the cited document, download the CSV, share the trend on a link and read
 * it on the shared page. A new account is on the Free plan: the page is the preview (the first key
 * measure, the other tests named, the plans one click away).
 */
test.describe.configure({ mode: 'serial' });

const CORPUS = path.resolve(__dirname, '../../../libs/clinical/quality/public');
const FILE = 'discharge-summary.xml';
const ccda = readFileSync(path.join(CORPUS, 'hl7-discharge-summary', FILE));
const email = newEmail('trends');
const password = 'Correct-Horse-7-Battery';
const SERIES = 'Blood pressure (systolic) (mmHg)';

/** The Trends page once the summary service has read the upload (it learns of it by an event a moment later). */
async function openTrends(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'See your health trends' }).click();
  await expect(page).toHaveURL(/\/trends$/);
  await expect(page).toHaveTitle('Health trends · Medfolio');
  await expect(async () => {
    if (await page.getByRole('heading', { name: 'No results or vital signs yet' }).isVisible()) {
      await page.reload();
      await page.waitForFunction(() => document.documentElement.dataset['app'] === 'ready');
    }
    await expect(page.getByRole('table', { name: SERIES })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000, intervals: [1000, 2000] });
}

test('sign up, upload a C-CDA, and read its out-of-range result on the Trends page', async ({ page }) => {
  await signUp(page, {
    name: 'Robin Trendwatcher',
    email,
    phone: '+44 20 7946 0958',
    birth: { month: '03', day: '14', year: '1961' },
    password,
  });
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/otp-verify$/);
  await page.getByLabel('Verification code').fill(await codeFor(email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);

  await page.getByLabel('Choose files').setInputFiles([{ name: FILE, mimeType: 'application/xml', buffer: ccda }]);
  await page.getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Success' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Ok' }).click();

  await openTrends(page);
  // The table beside the chart: caption, columns, the low value flagged in words, citing the upload.
  const table = page.getByRole('table', { name: SERIES });
  await expect(table.getByRole('columnheader')).toHaveText(['Date', 'Value', 'Reference range', 'Flag', 'Source']);
  const low = table.getByRole('row').filter({ has: page.locator('[data-flag="low"]') });
  await expect(low).toHaveCount(1);
  await expect(low).toContainText('80 mmHg');
  await expect(low.locator('[data-flag="low"]')).toContainText('▼ Low');
  await expect(low).toContainText('as the record says');
  await expect(low.getByRole('button', { name: `Open ${FILE}` })).toBeVisible();

  // The chart: one image to a screen reader, saying how many values are out of range; the low value
  // is a downward triangle with its letter, not only a colour.
  const chart = page.getByTestId('trend-chart');
  await expect(chart).toHaveAccessibleName(/^Blood pressure \(systolic\) \(mmHg\): .*1 out of range/);
  const mark = chart.locator('[data-testid="trend-mark"][data-flag="low"]');
  await expect(mark).toHaveCount(1);
  await expect(mark.locator('path')).toHaveCount(1);
  await expect(mark.locator('text')).toHaveText('L');
  await expect(page.getByText('L = low')).toBeVisible();

  // A Free account: the preview, the other tests named, the plans page linked.
  const upgrade = page.getByTestId('trends-upgrade');
  await expect(upgrade).toContainText('Blood pressure (diastolic)');
  await expect(upgrade.getByRole('link', { name: 'See Plus and Family' })).toHaveAttribute('href', '/membership');
  await checkScreen(page, 'trends-preview');

  // The cited document opens in the app's preview, with its download.
  await low.getByRole('button', { name: `Open ${FILE}` }).click();
  await expect(dialog.getByRole('heading', { name: FILE })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Download' })).toBeVisible();
  await checkScreen(page, 'trends-cited-document');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Every observation as CSV (any plan), citing the document.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8');
  expect(csv.split(/\r?\n/)[0]).toMatch(/^date,test,value,unit,/);
  expect(csv).toContain(FILE);
  await expect(page.getByRole('status').filter({ hasText: 'Your results are downloading' })).toBeVisible();
});

test('share the trend on a link: the shared page shows its table with the low value', async ({
  page,
  browser,
  request,
}) => {
  // The shared page shows records only once the patient has confirmed a summary.
  await confirmAllergySummary(request, email, password);
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/share');
  const form = page.locator('form').filter({ has: page.getByRole('heading', { name: 'Make a new link' }) });
  await form.getByRole('button', { name: 'Choose trends' }).click();
  await form.getByRole('checkbox', { name: /Blood pressure \(systolic\)/ }).check();
  await page.getByLabel('Name of the link').fill('For Dr Trend');
  await page.getByRole('button', { name: 'Make link' }).click();
  await expect(page.getByText('Link "For Dr Trend" made.')).toBeVisible();
  const card = page.getByTestId('share-link').filter({ hasText: 'For Dr Trend' });
  await expect(card.getByTestId('link-trends')).toHaveText('1 test shared');
  await checkScreen(page, 'share-with-trends');
  const url = await card.getByRole('textbox', { name: 'Link "For Dr Trend"' }).inputValue();

  const elsewhere = await browser.newContext();
  const doctor = await elsewhere.newPage();
  try {
    await doctor.goto(new URL(url).pathname);
    const shared = doctor.getByTestId('shared-trends');
    const table = shared.getByRole('table', { name: SERIES });
    await expect(table).toBeVisible();
    await expect(table.locator('[data-flag="low"]')).toContainText('Low');
    // Never a way into the patient's documents from a shared page.
    await expect(table.getByRole('button')).toHaveCount(0);
    await expect(table.getByRole('link')).toHaveCount(0);
    await expect(shared.getByTestId('trend-chart')).toHaveAccessibleName(/1 out of range/);
    await checkScreen(doctor, 'trends-shared-page');
  } finally {
    await elsewhere.close();
  }
});

test('contact: the confirmation says the answer time of the plan', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
  // The header menu leads to Trends too.
  await page.getByRole('button', { name: /account menu/i }).click();
  await page.locator('header').getByRole('link', { name: 'Health trends', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Health trends' })).toBeVisible();
  await page.goto('/contact');
  await page.getByLabel('Messages').fill('Where do I see my blood pressure over time?');
  await expect(page.getByLabel('Email Address')).toHaveValue(email);
  await page.getByRole('button', { name: 'Send Message' }).click();
  // The Free plan: the standard answer time, not priority.
  await expect(page.getByRole('status').filter({ hasText: /We answer within \d+ (hours|days)\./ })).toBeVisible();
  await expect(page.getByText('marked priority')).toHaveCount(0);
});
