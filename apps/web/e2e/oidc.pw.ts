import { expect, test } from './support/test';

/**
 * Sign-in with an OpenID Connect provider configured by OIDC_PROVIDERS, against a real local OpenID
 * provider (oidc-provider, started by global-setup): authorization code flow with PKCE, the code
 * exchanged by the server. "microsoft" answers in the query; "apple" by form POST (response_mode
 * form_post, as Apple does when the e-mail or name is asked for) to the gateway, which sends the
 * browser on to the callback page. Facebook is not offered.
 */
test('Continue with Microsoft signs a new patient in through the code flow and lands on the home screen', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: /Facebook/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Continue with Microsoft' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /account menu/i })).toBeVisible();
  expect(page.url()).not.toContain('code=');
});

test('the sign-up page offers the configured provider too', async ({ page }) => {
  await page.goto('/sign-up');
  await expect(page.getByRole('button', { name: 'Continue with Microsoft' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with Apple' })).toBeVisible();
});

test('Continue with Apple (a form_post provider) signs in through the provider\'s form POST to the gateway and lands on the home screen', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('/api/login-with-oidc/apple/callback/')) posts.push(request.headers()['content-type'] ?? '');
  });
  await page.goto('/login');
  await page.getByRole('button', { name: 'Continue with Apple' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: /account menu/i })).toBeVisible();
  expect(posts).toEqual(['application/x-www-form-urlencoded']);
  expect(page.url()).not.toContain('code=');
});

test("a form_post callback without a code or with the provider's error ends on the sign-in error, never signed in", async ({ page }) => {
  const cancelled = await page.request.post('/api/login-with-oidc/apple/callback/', { form: { error: 'user_cancelled_authorize', state: 'x' }, maxRedirects: 0 });
  expect(cancelled.status()).toBe(303);
  expect(cancelled.headers()['location']).toBe('/auth/oidc/apple/callback?error=user_cancelled_authorize&state=x');
  await page.goto(cancelled.headers()['location'] ?? '/');
  await expect(page.getByRole('dialog')).toBeVisible();
  expect((await page.request.post('/api/login-with-oidc/apple/callback/', { form: { state: 'x' }, maxRedirects: 0 })).status()).toBe(400);
});

test('a callback whose state this browser did not start is refused', async ({ page }) => {
  await page.goto('/auth/oidc/microsoft/callback?code=stolen&state=forged');
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(page).toHaveURL(/\/auth\/oidc\/microsoft\/callback$/);
});
