import { expect, test } from './support/test';
import { checkScreen, codeFor, newEmail, signUp } from './support/helpers';

/**
 * "Connect a hospital or clinic" against the real product and a real SMART on FHIR server: the local
 * SMART sandbox (started by global-setup, the only hospital of the directory, over loopback http) that
 * approves the sign-in at once. Sign up, find the hospital, connect (the browser goes to the sandbox's
 * authorization page and comes back to /connections/callback), see it connected, try the used sign-in
 * address again, fetch the records again with Sync now, and disconnect.
 */
const HOSPITAL = 'Springfield Sandbox Hospital';
const email = newEmail('connections');
const password = 'Correct-Horse-7-Battery';

test('connect a hospital over SMART on FHIR, come back to it connected, and disconnect', async ({ page }) => {
  await signUp(page, { name: 'Marge Connector', email, phone: '+44 20 7946 0958', birth: { month: '03', day: '19', year: '1956' }, password });
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/otp-verify$/);
  await page.getByLabel('Verification code').fill(await codeFor(email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);

  // The header menu names the page; the dashboard links to it.
  await page.getByRole('button', { name: /account menu/i }).click();
  await expect(page.locator('header').getByRole('link', { name: 'Hospitals & clinics' })).toHaveAttribute('href', '/connections');
  await page.keyboard.press('Escape');
  await page.getByRole('link', { name: 'Connect a hospital or clinic' }).click();
  await expect(page).toHaveURL(/\/connections$/);
  await expect(page).toHaveTitle('Connect a hospital or clinic · Medfolio');
  await expect(page.getByText('No hospital or clinic connected yet. Find yours below to connect it.')).toBeVisible();

  await page.getByRole('searchbox', { name: 'Hospital, clinic or city' }).fill('springfield');
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results).toContainText(HOSPITAL);
  await expect(results).toContainText('Springfield, IL');
  await checkScreen(page, 'connections-search');

  // Connect: the sandbox's authorization page approves and redirects to the callback page, which
  // finishes with the service and lands on the connections page.
  const callback = page.waitForRequest((request) => request.url().includes('/connections/callback?'));
  await results.getByRole('button', { name: `Connect ${HOSPITAL}` }).click();
  const callbackUrl = (await callback).url();
  expect(new URL(callbackUrl).searchParams.get('code')).toBeTruthy();
  await expect(page).toHaveURL(/\/connections$/);
  await expect(page.getByRole('status').filter({ hasText: `Connected to ${HOSPITAL}.` })).toBeVisible();
  const list = page.getByRole('region', { name: 'Your connections' });
  await expect(list.getByRole('heading', { level: 3, name: HOSPITAL })).toBeVisible();
  await expect(list).toContainText(/Connected since/);
  // The service fetches the records right after connecting; the page follows the fetch.
  await expect(list).toContainText(/\d+ records fetched: 1 allergy, 1 condition, .*1 patient profile\./, { timeout: 30_000 });
  await expect(list).toContainText(/Last synced/);
  await checkScreen(page, 'connections-connected');

  // The hospital's records reach the summary, each fact cited by where it was fetched from.
  await page.goto('/');
  const viewSummary = page.getByRole('link', { name: 'View Summary' });
  await expect(viewSummary).toHaveAccessibleDescription(/Summary: (Ready|Needs review)/, { timeout: 60_000 });
  await viewSummary.click();
  const allergies = page.getByRole('region', { name: 'Allergies' });
  await expect(allergies.getByText('Penicillin').first()).toBeVisible({ timeout: 15_000 });
  const citation = new RegExp(`^${HOSPITAL}( via .+)?, fetched \\d{1,2} \\w{3} \\d{4}$`);
  await expect(allergies.getByRole('button', { name: citation }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Current Medical Conditions' }).getByRole('button', { name: citation }).first()).toBeVisible();
  await checkScreen(page, 'connections-summary-cited');
  // The access history names the hospital each fetch came from (from the patient's own list of connections).
  await page.goto('/history');
  await expect(page.getByRole('main')).toContainText(`Fetched records from ${HOSPITAL}`);
  await page.goto('/connections');

  // Sync now: fetched again (nothing new at the sandbox), and the page shows the fetch end.
  await list.getByRole('button', { name: `Sync now ${HOSPITAL}` }).click();
  await expect(list.getByRole('button', { name: `Sync now ${HOSPITAL}` })).toBeEnabled({ timeout: 30_000 });
  await expect(list).toContainText(/Last synced/);

  // The same answer from the hospital again (the back button, a reload): its state was used once.
  await page.goto(callbackUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'The hospital or clinic was not connected' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('was already used, or has expired. Please start connecting again.');
  await checkScreen(page, 'connections-callback-used');
  await page.getByRole('link', { name: 'Back to your connections' }).click();

  // Disconnect, after the confirmation.
  await list.getByRole('button', { name: `Disconnect ${HOSPITAL}` }).click();
  const dialog = page.getByRole('dialog', { name: `Disconnect ${HOSPITAL}?` });
  await expect(dialog).toContainText('its own copy of the records fetched through this connection');
  await expect(dialog).toContainText(`Files already added to your documents from this connection (their names start with “${HOSPITAL}”) stay there until you delete them.`);
  await checkScreen(page, 'connections-disconnect');
  await dialog.getByRole('button', { name: 'Disconnect', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: `Disconnected from ${HOSPITAL}.` })).toBeVisible();
  await expect(page.getByText('No hospital or clinic connected yet. Find yours below to connect it.')).toBeVisible();
  await expect(list.getByRole('heading', { level: 3 })).toHaveCount(0);

  // As the dialog said: the file the fetch added to the patient's documents (the record as a FHIR Bundle) is still there.
  await page.goto('/');
  await expect(page.getByRole('table')).toContainText(new RegExp(`${HOSPITAL} .*— fetched \\d{4}-\\d{2}-\\d{2}\\.json`));
  await expect(page.getByRole('link', { name: 'Connect a hospital or clinic' })).toBeVisible();
  await checkScreen(page, 'connections-dashboard');
});
