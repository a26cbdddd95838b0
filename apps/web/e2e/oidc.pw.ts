import { expect, test } from './support/test';

/**
 * Sign-in with an OpenID Connect provider configured by OIDC_PROVIDERS ("microsoft" here), against a
 * real local OpenID provider (oidc-provider, started by global-setup): authorization code flow with
 * PKCE, the code exchanged by the server. Apple is not configured, so it has no button.
 */
test('Continue with Microsoft signs a new patient in through the code flow and lands on the home screen', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Continue with Apple' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Facebook/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue with Microsoft' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /account menu/i })).toBeVisible();
  expect(page.url()).not.toContain('code=');
});

test('the sign-up page offers the configured provider too', async ({ page }) => {
  await page.goto('/sign-up');
  await expect(page.getByRole('button', { name: 'Continue with Microsoft' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Apple' })).toHaveCount(0);
});

test('a callback whose state this browser did not start is refused', async ({ page }) => {
  await page.goto('/auth/oidc/microsoft/callback?code=stolen&state=forged');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/oidc\/microsoft\/callback$/);
});
