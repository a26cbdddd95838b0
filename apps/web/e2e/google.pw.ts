import { expect, test } from './support/test';

/**
 * Google sign-in by redirect, against the local stand-in for Google's authorization endpoint (the
 * product is started with GOOGLE_AUTHORIZATION_URL and Google's key/userinfo URLs pointing at it).
 */
test('Continue with Google signs a new patient in and lands on the home screen', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /account menu/i })).toBeVisible();
  expect(page.url()).not.toContain('access_token');
});

test('a callback without a credential says so', async ({ page }) => {
  await page.goto('/login');
  await page.evaluate(() => sessionStorage.setItem('medfolio.google.state', JSON.stringify({ state: 's1', next: '/' })));
  await page.goto('/auth/google/callback#state=s1');
  await expect(page.getByRole('dialog')).toContainText('Google login failed: No credential returned');
});
