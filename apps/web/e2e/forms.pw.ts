import { expect, test } from './support/test';
import { newEmail, signUp } from './support/helpers';

/** Every form's client-side messages, as a user meets them in the browser (spec section 5). */

test('login: required messages after touching, and on submit', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email Address').focus();
  await page.getByLabel('Password', { exact: true }).focus();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeHidden();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Password is required', { exact: true })).toBeVisible();
  await page.getByLabel('Email Address').fill('x'.repeat(101));
  await page.getByLabel('Email Address').blur();
  await expect(page.getByText('Limit exceeded (100 characters)')).toBeVisible();
});

test('login: wrong credentials show the server message in an error dialog', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(newEmail('nobody'));
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Error' })).toBeVisible();
  await expect(dialog).not.toContainText('Oops!');
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(dialog).toBeHidden();
});

test('sign-up: every required message, the limit and the password match', async ({ page }) => {
  await page.goto('/sign-up');
  await page.getByLabel(/I agree to the Terms of Service/).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
  for (const message of ['Name is required', 'Mobile number is required', 'Email is required', 'Month is required', 'Day is required', 'Year is required', 'Password is required', 'Confirm password is required']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await page.getByLabel('Password', { exact: true }).fill('one-password');
  await page.getByLabel('Confirm Password', { exact: true }).fill('another-password');
  await page.getByLabel('Confirm Password', { exact: true }).blur();
  await expect(page.getByText('Passwords must match')).toBeVisible();
  await page.getByLabel('Name', { exact: true }).fill('n'.repeat(101));
  await page.getByLabel('Name', { exact: true }).blur();
  await expect(page.getByText('Limit exceeded (100 characters)')).toBeVisible();
});

test('sign-up: the terms checkbox is required by the browser', async ({ page }) => {
  await page.goto('/sign-up');
  const terms = page.getByLabel(/I agree to the Terms of Service/);
  await expect(terms).toHaveAttribute('required', '');
  expect(await terms.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
});

test('sign-up: an address already registered is answered as a new one (no enumeration); the login page explains both cases', async ({ page, request }) => {
  const email = newEmail('taken');
  await request.post('/api/register/', { data: { first_name: 'Sam', last_name: '', phone: '+1 202 555 0143', email, password: 'Correct-Horse-7-Battery', date_of_birth: '1990-01-01' } });
  await signUp(page, {
    name: 'Sam Sample',
    email,
    phone: '+1 202 555 0143',
    birth: { month: '01', day: '01', year: '1990' },
    password: 'Correct-Horse-7-Battery',
  });
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(`We sent a 4-digit code to ${email}`)).toBeVisible();
  await expect(page.getByText('If you already had an account with this address, we e-mailed you instead')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('forgot password: required and limit messages', async ({ page }) => {
  await page.goto('/forgot-password');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByLabel('Email Address').fill('e'.repeat(101));
  await page.getByLabel('Email Address').blur();
  await expect(page.getByText('Limit exceeded (100 characters)')).toBeVisible();
});

test('reset password: required, match, and a link that is not valid gets the server message', async ({ page }) => {
  await page.goto('/reset-password/someone%40example.com/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Password is required', { exact: true })).toBeVisible();
  await expect(page.getByText('Confirm password is required', { exact: true })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('Correct-Horse-7-Battery');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Different-Horse-7');
  await page.getByLabel('Confirm new password', { exact: true }).blur();
  await expect(page.getByText('Passwords must match')).toBeVisible();
  await page.getByLabel('Confirm new password', { exact: true }).fill('Correct-Horse-7-Battery');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page.getByRole('dialog')).not.toContainText('Oops!');
});

test('contact: messages for touched fields, then the message is sent', async ({ page }) => {
  await page.goto('/contact');
  await page.getByLabel('First Name').focus();
  await page.getByLabel('Last Name').focus();
  await expect(page.getByText('Firstname is required')).toBeVisible();
  await expect(page.getByText('Lastname is required')).toBeHidden();
  await page.getByLabel('Email Address').fill('not-an-address');
  await page.getByLabel('Email Address').blur();
  await expect(page.getByText('Invalid email')).toBeVisible();
  await page.getByLabel('Messages').fill('m'.repeat(201));
  await page.getByLabel('Messages').blur();
  await expect(page.getByText('Limit exceeded (200 characters)')).toBeVisible();
  await page.getByLabel('First Name').fill('Sam');
  await page.getByLabel('Last Name').fill('Sample');
  await page.getByLabel('Email Address').fill('sam@example.com');
  await page.getByLabel('Messages').fill('Can I share my summary with two doctors?');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.getByRole('status')).toContainText(/sent|thank/i);
});

test('medical license, signed out: Proceed needs input and asks to log in first; Go Back clears', async ({ page }) => {
  // The real check (against the NPI registry, signed in) is providers.pw.ts.
  await page.goto('/medical-license');
  const proceed = page.getByRole('button', { name: 'Proceed' });
  await expect(proceed).toBeDisabled();
  await page.getByLabel('Medical License Number').fill('1234567893');
  await proceed.click();
  await expect(page.getByRole('status')).toContainText('Sign in to verify your license');
  await expect(page.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?next=%2Fmedical-license');
  await page.getByRole('button', { name: 'Go Back' }).click();
  await expect(page.getByLabel('Medical License Number')).toHaveValue('');
  await expect(proceed).toBeDisabled();
});

test('membership: yearly by default, monthly on the toggle', async ({ page }) => {
  await page.goto('/membership');
  await expect(page.getByText('$80')).toBeVisible();
  await page.getByText('Monthly', { exact: true }).click();
  await expect(page.getByRole('radio', { name: /monthly/i })).toBeChecked();
  await expect(page.getByText('$8', { exact: true })).toBeVisible();
  await expect(page.getByText('Current Plan')).toBeVisible();
  await expect(page.getByText('Most Popular')).toBeVisible();
});
