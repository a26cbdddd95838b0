import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import path from 'node:path';
import { checkScreen, codeFor, newEmail, resetPathFor, signUp } from './support/helpers';

/**
 * The whole account journey in the browser, against the real product: sign up → the code from
 * the dev mailbox (/dev/mail.json) → login answers 403 → /otp-verify → verify → log in → edit the
 * profile and the picture → change the password → log out → log back in with the new password,
 * then /history shows what just happened. One account, steps in order.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('journey');
const firstPassword = 'Correct-Horse-7-Battery';
const secondPassword = 'Staple-Horse-8-Battery';

async function logIn(page: Page, password: string, next?: string) {
  await page.goto(next ? `/login?next=${encodeURIComponent(next)}` : '/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /account menu/i }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
}

test('sign up: the form, then a visible message to check the e-mail', async ({ page }) => {
  await signUp(page, {
    name: 'Robin Testpatient',
    email,
    phone: '+1 202 555 0143',
    birth: { month: '04', day: '17', year: '1988' },
    password: firstPassword,
  });
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: email })).toBeVisible();
  await checkScreen(page, 'login-after-sign-up');
});

test('log in before verifying: 403 goes to /otp-verify, which explains why; the e-mailed code verifies the account and signs in', async ({ page }) => {
  await logIn(page, firstPassword);
  await expect(page).toHaveURL(/\/otp-verify$/);
  // A normal step, explained in the page: no error dialog.
  await expect(page.getByRole('status').filter({ hasText: 'only needs this step once' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText(email)).toBeVisible();
  const verify = page.getByRole('button', { name: 'Verify' });
  await expect(verify).toBeDisabled();
  await page.getByLabel('Verification code').fill('000');
  await expect(verify).toBeDisabled();
  await checkScreen(page, 'otp-verify-with-email');
  await page.getByLabel('Verification code').fill(await codeFor(email));
  await verify.click();
  // The verification signs the user in: home, without typing the password again.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Robin');
});

test('log in honours ?next=, loads the user into the header, and the home greets by name', async ({ page }) => {
  await logIn(page, firstPassword, '/profile');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole('button', { name: /account menu/i })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Robin');
  await checkScreen(page, 'profile');
  const cookies = await page.context().cookies();
  for (const name of ['access_token', 'refresh_token']) {
    const cookie = cookies.find((c) => c.name === name);
    expect(cookie, name).toBeDefined();
    expect(cookie).toMatchObject({ path: '/', secure: true, sameSite: 'Strict' });
  }
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Good (Morning|Afternoon|Evening), Robin Testpatient/);
  await checkScreen(page, 'home');
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
});

test('edit profile: names and picture saved; password changed; sign out; sign in with the new password', async ({ page }) => {
  await logIn(page, firstPassword, '/edit-profile');
  await expect(page.getByRole('heading', { name: 'User Settings' })).toBeVisible();
  const save = page.getByRole('button', { name: 'Save Changes' });
  await expect(save).toBeDisabled();
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await page.getByLabel('Last Name').fill('Examplesson');
  await page.setInputFiles('input[type=file]', path.resolve(__dirname, 'support/picture.png'));
  await expect(save).toBeEnabled();
  await checkScreen(page, 'edit-profile');
  await save.click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: /account menu/i }).locator('img')).toHaveAttribute('src', /\/api\/files\//);

  await page.getByLabel('Current password', { exact: true }).fill(firstPassword);
  await page.getByLabel('New password', { exact: true }).fill(secondPassword);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByText(/Password updated successfully/)).toBeVisible();

  await signOut(page);
  await expect(page).toHaveURL(/\/$/);
  expect((await page.context().cookies()).filter((c) => c.name.endsWith('_token'))).toEqual([]);

  await logIn(page, firstPassword);
  await expect(page.getByRole('dialog')).toContainText(/invalid|incorrect|wrong/i);
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await logIn(page, secondPassword);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Robin Examplesson');
});

test('/history lists the sign-ins and changes that just happened', async ({ page }) => {
  await logIn(page, secondPassword, '/history');
  await expect(page).toHaveURL(/\/history$/);
  const log = page.getByRole('main');
  await expect(log.getByText(/signed in|sign-in|logged in/i).first()).toBeVisible();
  await expect(log.getByText(/password/i).first()).toBeVisible();
  await checkScreen(page, 'history');
});

test('an expired access token is refreshed once, invisibly; a revoked session goes to /login', async ({ page }) => {
  await logIn(page, secondPassword);
  await expect(page).toHaveURL(/\/$/);
  // The access token "expires": the next API call answers 401 and the app refreshes it.
  await page.context().addCookies([{ name: 'access_token', value: 'expired.token.value', url: page.url().replace(/\/$/, ''), secure: true, sameSite: 'Strict' }]);
  await page.goto('/history');
  await expect(page.getByRole('table')).toBeVisible();
  const access = (await page.context().cookies()).find((c) => c.name === 'access_token');
  expect(access?.value).not.toBe('expired.token.value');
  // Both tokens unusable: the refresh fails, both cookies go, and the user is sent to /login.
  await page.context().addCookies([
    { name: 'access_token', value: 'expired.token.value', url: page.url().replace(/\/history$/, ''), secure: true, sameSite: 'Strict' },
    { name: 'refresh_token', value: 'revoked', url: page.url().replace(/\/history$/, ''), secure: true, sameSite: 'Strict' },
  ]);
  await page.reload();
  await expect(page).toHaveURL(/\/login/);
  expect((await page.context().cookies()).filter((c) => c.name.endsWith('_token'))).toEqual([]);
});

test('forgot password: a visible message; the e-mailed link resets the password', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByLabel('Email Address').fill(email);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('status')).toContainText(/e-?mail/i);
  await page.goto(await resetPathFor(email));
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill(firstPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(firstPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await logIn(page, firstPassword);
  await expect(page).toHaveURL(/\/$/);
});
