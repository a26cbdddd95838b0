import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/test';
import { codeFor, DESKTOP, expectAccessible, newEmail, PHONE } from './support/helpers';
import { devMailKey } from './support/settings';

/**
 * A new user's first use, as a new user would try it, at phone and desktop width: sign up
 * (one wrong code first), verify, upload, open each dashboard action and each header menu entry,
 * and follow the buttons of features still to come. Nothing may fail silently (every refusal says
 * why, no console error, no router warning) and nothing may be a dead end (no silent redirect home,
 * every page its own title). Screenshots: tmp/web-e2e/screenshots/first-use-*.png.
 */
const shotsDir = path.resolve(__dirname, '../../../tmp/web-e2e/screenshots');
const password = 'Correct-Horse-7-Battery';
const picture = path.resolve(__dirname, 'support/picture.png');

/**
 * What went wrong along the way: console errors, page errors, React Router warnings, and every
 * answer of 400 or more (as "METHOD path status"), so that each one can be checked to be expected
 * and explained on the page. The browser's own "Failed to load resource" lines are those answers.
 */
function watchProblems(page: Page): { console: string[]; failedCalls: string[] } {
  const problems = { console: [] as string[], failedCalls: [] as string[] };
  page.on('console', (message) => {
    if (/^Failed to load resource/.test(message.text())) return;
    if (message.type() === 'error' || /HydrateFallback|React Router/.test(message.text())) problems.console.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.console.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.failedCalls.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`);
  });
  return problems;
}

for (const size of [PHONE, DESKTOP]) {
  test(`a new user at ${size.width} px meets no silent failure and no dead end`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(size);
    mkdirSync(shotsDir, { recursive: true });
    const problems = watchProblems(page);
    const titles = new Map<string, string>();
    const email = newEmail(`first-use-${size.width}`);

    /** The page as it is: accessible, not wider than the screen, its title noted, saved as a picture. */
    const look = async (name: string) => {
      await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(size.width);
      const title = await page.title();
      const where = new URL(page.url()).pathname;
      // One title per page: the same title never names two different addresses.
      for (const [other, seen] of titles) if (seen === title && other !== where && !/^\/summary\//.test(other + where)) throw new Error(`${where} and ${other} share the title "${title}"`);
      titles.set(where, title);
      await page.screenshot({ path: path.join(shotsDir, `first-use-${name}-${size.width}.png`), fullPage: true });
    };

    // Sign-up: the rules are visible before submitting, the day list has only real days.
    await page.goto('/sign-up');
    await expect(page).toHaveTitle('Create your account · Medfolio');
    await expect(page.getByText('At least 8 characters.')).toBeVisible();
    await page.getByLabel('Name', { exact: true }).fill('Robin Newcomer');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Mobile Number').fill('abc');
    await page.getByLabel('Mobile Number').blur();
    await expect(page.getByText('Enter a valid mobile number with its country code, e.g. +44 20 7946 0958.')).toBeVisible();
    await page.getByLabel('Mobile Number').fill('+44 20 7946 0958');
    await page.getByLabel('Month').selectOption('02');
    await page.getByLabel('Year').selectOption('1987');
    await expect(page.getByLabel('Day').locator('option')).toHaveCount(1 + 28);
    await page.getByLabel('Day').selectOption('28');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password', { exact: true }).fill(password);
    await page.getByLabel(/I agree to the Terms of Service/).check();
    await look('sign-up');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status').filter({ hasText: email })).toBeVisible();

    // Signing in before verifying: the code page explains it, without an error dialog.
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/otp-verify$/);
    await expect(page.getByRole('status').filter({ hasText: 'only needs this step once' })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await look('otp-explained');

    // One wrong code: cleared, and the server's reason under the boxes.
    const code = await codeFor(email);
    await page.getByLabel('Verification code').fill(code === '1111' ? '2222' : '1111');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toContainText('This code is not valid');
    await expect(page.getByLabel('Verification code')).toHaveValue('');
    await look('otp-wrong-code');

    // The right code signs in: home, no password typed again.
    await page.getByLabel('Verification code').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Robin Newcomer');
    await expect(page).toHaveTitle('Your documents · Medfolio');

    // Upload.
    await page.getByLabel('Choose files').setInputFiles(picture);
    await page.getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Success' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Ok' }).click();
    await expect(page.getByRole('heading', { name: 'Documents | 1 Files' })).toBeVisible();
    await look('dashboard');

    // The grid view survives a reload.
    await page.getByRole('button', { name: 'Grid view' }).click();
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset['app'] === 'ready');
    await expect(page.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
    await look('dashboard-grid');
    await page.getByRole('button', { name: 'List view' }).click();

    // Each dashboard action.
    await page.getByRole('list', { name: 'Your documents' }).or(page.getByRole('table')).getByRole('button', { name: /^Preview picture\.png/ }).first().click();
    await expect(dialog.getByRole('img')).toBeVisible();
    await look('dashboard-preview');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'QR Code' }).click();
    await expect(dialog.getByRole('heading', { name: 'Your QR Code' })).toBeVisible();
    await look('dashboard-qr');
    await dialog.getByRole('button', { name: 'Close' }).click();
    const pass = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Generate Apple Wallet Pass' }).click();
    expect((await pass).suggestedFilename()).toMatch(/^medfolio_[0-9a-f-]{36}\.pkpass$/);
    await expect(page.getByRole('link', { name: 'Apple Wallet Pass' })).toBeVisible();
    await page.getByRole('link', { name: 'View Summary' }).click();
    // The owner's own summary page (not a share link).
    await expect(page).toHaveURL(/\/summary\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Patient Summary' })).toBeVisible();
    await look('summary');

    // Each entry of the header menu.
    const menu = async (entry: string) => {
      await page.getByRole('button', { name: /account menu/i }).click();
      await page.getByRole('link', { name: entry, exact: true }).click();
    };
    await menu('Profile');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('main')).toContainText(email);
    await look('menu-profile');
    await menu('Settings');
    await expect(page).toHaveURL(/\/edit-profile$/);
    await expect(page.getByRole('heading', { name: 'User Settings' })).toBeVisible();
    await expect(page.getByLabel('Phone')).toHaveValue('+44 20 7946 0958');
    await look('menu-settings');
    await menu('Billing & Plans');
    await expect(page).toHaveURL(/\/membership$/);
    await look('menu-billing');
    await page.getByRole('link', { name: 'Get Started' }).first().click();
    await expect(page).toHaveURL(/\/checkout\?price_id=/);
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    await look('checkout');
    await menu('Access history');
    await expect(page).toHaveURL(/\/history$/);
    const history = page.getByRole('main');
    await expect(history.getByText('Uploaded a document: picture.png').filter({ visible: true }).first()).toBeVisible();
    await expect(history.getByText('Verified the e-mail address').filter({ visible: true }).first()).toBeVisible();
    // Every dashboard load listed the documents: one line "Listed documents ×n today", that opens.
    await expect(history.getByText(/^×\d+$/).filter({ visible: true }).first()).toBeVisible();
    await history.getByRole('button', { name: /^Show each of these \d+ entries$/ }).filter({ visible: true }).first().click();
    await expect(history.getByRole('button', { name: /^Hide each of these \d+ entries$/ }).filter({ visible: true }).first()).toHaveAttribute('aria-expanded', 'true');
    await look('menu-history');
    await menu('Contact Support');
    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.getByLabel('First Name')).toHaveValue('Robin');
    await expect(page.getByLabel('Email Address')).toHaveValue(email);
    await look('menu-contact');

    // The referral page, from About's Start Referring.
    await page.goto('/about');
    await page.getByRole('link', { name: 'Start Referring' }).click();
    await expect(page).toHaveURL(/\/referral$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Refer a friend' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy Link' })).toBeVisible();
    await look('referral');
    // Signed in, the wallet preview links to the patient's own summary, not the sample.
    await page.goto('/wallet-preview');
    await expect(page.getByRole('link', { name: /Open sample summary/ })).toHaveCount(0);
    const own = await page.getByRole('link', { name: /Open my summary/ }).getAttribute('href');
    expect(own).toMatch(/^\/summary\/(?!sample$)[^/]+$/);
    await page.goto(own ?? '/missing');
    await expect(page.getByRole('heading', { level: 1, name: 'Patient Summary' })).toBeVisible();
    await expect(page.getByText(/A sample, for a made-up patient/)).toHaveCount(0);

    // The dev mailbox, in the app's look.
    await page.goto(`/dev/mail?key=${devMailKey}`);
    await expect(page.getByRole('link', { name: 'Medfolio' })).toBeVisible();
    await page.screenshot({ path: path.join(shotsDir, `first-use-dev-mail-${size.width}.png`), fullPage: true });

    expect(problems.console).toEqual([]);
    // Only the two refusals the journey asks for, each explained on its page (checked above).
    expect(problems.failedCalls).toEqual(['POST /api/login/ 403', 'POST /api/verify-otp/ 400']);
  });
}
