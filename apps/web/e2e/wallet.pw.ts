import { expect, test } from './support/test';
import { expectAccessible, logIn, newEmail, registerVerified } from './support/helpers';

/**
 * The wallet pass in the browser, against the real product: Generate Apple Wallet Pass
 * (loading, then the download as medfolio_{userId}.pkpass, a real signed pass), then the 'Apple
 * Wallet Pass' link; /wallet-preview draws the patient's own card from the pass's fields and the
 * name setting changes it.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('wallet');
const password = 'Correct-Horse-7-Battery';

test('an account, signed up and verified through the API', async ({ request }) => {
  await registerVerified(request, { first_name: 'Robin', last_name: 'Walletpatient', email, password, date_of_birth: '1988-04-17' });
});

test('Generate Apple Wallet Pass downloads the signed pass and becomes the Apple Wallet Pass link; the preview shows the card', async ({ page }) => {
  test.setTimeout(120_000);
  await logIn(page, email, password);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Robin Walletpatient');
  const profile = await page.evaluate(async () => (await fetch('/api/profile/', { headers: { authorization: `Bearer ${decodeURIComponent(/access_token=([^;]+)/.exec(document.cookie)?.[1] ?? '')}` } })).json());
  const userId = (profile as { id: string }).id;

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Generate Apple Wallet Pass' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`medfolio_${userId}.pkpass`);
  // A zip (the system tests unzip and verify it) holding the pass, its manifest, signature and images.
  const bytes = Buffer.concat(await (await download.createReadStream()).toArray());
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  for (const name of ['pass.json', 'manifest.json', 'signature', 'icon@3x.png']) expect(bytes.includes(Buffer.from(name))).toBe(true);
  const link = page.getByRole('link', { name: 'Apple Wallet Pass' });
  await expect(link).toHaveAttribute('href', /^\/api\/files\/wallet-passes\//);
  await expect(page.getByRole('button', { name: 'Generate Apple Wallet Pass' })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);

  await page.goto('/wallet-preview');
  await expect(page.getByRole('heading', { level: 1, name: 'Hello, Robin!' })).toBeVisible();
  const front = page.getByTestId('pass-front');
  await expect(front).toContainText('My health summary');
  // Saved first, then shown: the box follows the server's answer.
  const nameSetting = page.getByRole('checkbox', { name: 'Show my first name on the card' });
  await nameSetting.click();
  await expect(nameSetting).toBeChecked();
  await expect(front).toContainText('CARD HOLDER');
  await expect(front).toContainText('Robin');
  await expect(page.getByRole('img', { name: "QR code of your card's summary link" })).toBeVisible();
  await expectAccessible(page);
});
