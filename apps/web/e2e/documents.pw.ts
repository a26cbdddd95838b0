import type { Page } from '@playwright/test';
import { expect, test } from './support/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkScreen, newEmail, logIn as signIn, registerVerified } from './support/helpers';

/**
 * The documents dashboard in the browser, against the real product: an account (signed up and
 * verified through the API) → the empty dashboard → the file rule → an upload of two files with a
 * progress bar each → search, list and grid views, the image's thumbnail → previews (image and
 * PDF in the page) and the QR code → download → delete → a refused file and the Free plan's
 * limit of 2 documents. One account, steps in order.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('documents');
const password = 'Correct-Horse-7-Battery';
const MB = 1024 * 1024;

/** A small but complete PDF (it starts with %PDF- and ends with %%EOF), padded with comment lines to `bytes`. */
function samplePdf(text: string, bytes = 0): Buffer {
  const head = `%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n% ${text}\n`;
  const tail = 'trailer\n<< /Root 1 0 R >>\n%%EOF\n';
  const room = Math.max(0, bytes - head.length - tail.length);
  const line = `%${'x'.repeat(78)}\n`;
  const padding = line.repeat(Math.floor(room / line.length)) + ' '.repeat(room % line.length);
  return Buffer.from(head + padding + tail, 'latin1');
}

/** Large enough for the browser to report the upload in several steps. */
const bloodTest = samplePdf('haemoglobin 14.1', 24 * MB);
const picture = readFileSync(path.resolve(__dirname, 'support/picture.png'));

async function logIn(page: Page) {
  await signIn(page, email, password);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Robin Testpatient');
}

/** Every value the progress bars take, recorded in the page as they change, with how full each is drawn then. */
async function recordProgress(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    const drawn: string[] = [];
    Object.assign(window, { progressSeen: seen, progressDrawn: drawn });
    const record = () => {
      for (const bar of document.querySelectorAll('[role="progressbar"]')) {
        seen.push(`${bar.getAttribute('aria-label')}=${bar.getAttribute('aria-valuenow')}`);
        const fill = bar.firstElementChild?.getBoundingClientRect().width ?? 0;
        const full = bar.getBoundingClientRect().width;
        if (full > 0) drawn.push(`${bar.getAttribute('aria-valuenow')}:${Math.round((fill / full) * 100)}`);
      }
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  return async (file: string) => {
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    return seen.filter((entry) => entry.startsWith(`Upload of ${file}=`)).map((entry) => Number(entry.slice(entry.lastIndexOf('=') + 1)));
  };
}

test('an account for the dashboard, signed up and verified through the API', async ({ request }) => {
  await registerVerified(request, { first_name: 'Robin', last_name: 'Testpatient', email, password, date_of_birth: '1988-04-17' });
});

test('the empty dashboard: greeting, Add Documents, the three actions, the empty state', async ({ page }) => {
  await logIn(page);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/Good (Morning|Afternoon|Evening), Robin Testpatient/);
  await expect(page.getByText('Drag & Drop or choose files to upload')).toBeVisible();
  await expect(page.getByText('Select multiple zip, image, pdf or ms.word files')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upload' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'QR Code' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Generate Apple Wallet Pass' })).toBeEnabled();
  // View Summary is the owner's own page, not a share link: loading the dashboard makes no link.
  await expect(page.getByRole('link', { name: 'View Summary' })).toHaveAttribute('href', /^\/summary\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Documents | 0 Files' })).toBeVisible();
  await expect(page.getByText('No files uploaded yet. Upload some files to see them here.')).toBeVisible();
  await checkScreen(page, 'dashboard-empty');
});

test('the file rule: a batch with one file of another type adds nothing', async ({ page }) => {
  await logIn(page);
  const picker = page.getByLabel('Choose files');
  await picker.setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a document') },
    { name: 'letter.pdf', mimeType: 'application/pdf', buffer: samplePdf('letter') },
  ]);
  await expect(page.getByText('Please select only mentioned files.')).toBeVisible();
  await expect(page.getByRole('heading', { name: /Selected Files/ })).toHaveCount(0);
  // The picker is reachable from the keyboard.
  await picker.focus();
  await expect(picker).toBeFocused();
});

test('upload two files: a real progress bar per file, the success dialog, the list refreshed', async ({ page }) => {
  await logIn(page);
  await page.getByLabel('Choose files').setInputFiles([
    { name: 'Blood test.pdf', mimeType: 'application/pdf', buffer: bloodTest },
    { name: 'x-ray.png', mimeType: 'image/png', buffer: picture },
  ]);
  await expect(page.getByRole('heading', { name: 'Selected Files (2):' })).toBeVisible();
  await expect(page.getByText('24.00 MB')).toBeVisible();
  await checkScreen(page, 'dashboard-selected');

  const progressOf = await recordProgress(page);
  // A slower upload link (Chromium's network emulation), so that the steps are there to see.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 8 * MB });
  await page.getByRole('button', { name: 'Upload' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Success' })).toBeVisible({ timeout: 45_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(dialog).toContainText(/uploaded/i);

  const pdfSteps = await progressOf('Blood test.pdf');
  expect(pdfSteps[0], 'each bar starts at 0').toBe(0);
  expect(pdfSteps.some((value) => value > 0 && value < 100), `steps between 0 and 100: ${pdfSteps.join(', ')}`).toBe(true);
  expect(pdfSteps, 'never goes back').toEqual([...pdfSteps].sort((a, b) => a - b));
  expect((await progressOf('x-ray.png')).length).toBeGreaterThan(0);
  // Each bar is drawn as full as its number says, at the moment the number changes (no fill trailing behind).
  const drawn = await page.evaluate(() => (window as unknown as { progressDrawn: string[] }).progressDrawn);
  expect(drawn.length).toBeGreaterThan(0);
  for (const entry of drawn) {
    const [value, fill] = entry.split(':').map(Number);
    expect(Math.abs((value ?? 0) - (fill ?? 0)), `drawn ${fill}% for ${value}%`).toBeLessThanOrEqual(1);
  }

  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByRole('heading', { name: /Selected Files/ })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Documents | 2 Files' })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table).toContainText('Uploaded Documents');
  await expect(table).toContainText('.pdf');
  await expect(table).toContainText('.png');
});

test('search (case-insensitive), list and grid views, the image thumbnail', async ({ page }) => {
  await logIn(page);
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(3);
  const search = page.getByRole('searchbox', { name: 'Search files' });
  await search.fill('BLOOD');
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table).toContainText('Blood test.pdf');
  await expect(table).not.toContainText('x-ray.png');
  await search.fill('nothing like this');
  await expect(page.getByText('No files match “nothing like this”.')).toBeVisible();
  await search.fill('');
  await checkScreen(page, 'dashboard-list');

  // The thumbnail is made a moment after the upload; the page asks for it again by itself, no reload.
  await page.getByRole('button', { name: 'Grid view' }).click();
  await expect(page.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
  const thumbnail = page.getByRole('list', { name: 'Your documents' }).getByRole('button', { name: /^Preview x-ray\.png/ }).locator('img');
  await expect(thumbnail).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const grid = page.getByRole('list', { name: 'Your documents' });
  await expect(grid.getByRole('button', { name: /^Preview Blood test\.pdf/ }).locator('[data-icon="pdf"]')).toBeVisible();
  await expect(table).toHaveCount(0);
  await checkScreen(page, 'dashboard-grid');
  await page.getByRole('button', { name: 'List view' }).click();
  await expect(page.getByRole('table')).toBeVisible();
});

test('preview: the image and the PDF in the page; the QR code modal and its PNG', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await logIn(page);
  const table = page.getByRole('table');
  const dialog = page.getByRole('dialog');

  await table.getByRole('button', { name: 'Preview x-ray.png' }).click();
  await expect(dialog.getByRole('heading', { name: 'x-ray.png' })).toBeVisible();
  const image = dialog.getByRole('img', { name: 'x-ray.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await checkScreen(page, 'dashboard-preview-image');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);

  await table.getByRole('button', { name: 'Preview Blood test.pdf' }).click();
  await expect(dialog.getByRole('heading', { name: 'Blood test.pdf' })).toBeVisible();
  await expect(dialog.locator('object[type="application/pdf"]')).toHaveAttribute('data', /^blob:/, { timeout: 20_000 });
  await checkScreen(page, 'dashboard-preview-pdf');
  await dialog.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: 'QR Code' }).click();
  await expect(dialog.getByRole('heading', { name: 'Your QR Code' })).toBeVisible();
  // Nothing confirmed yet: the dialog leads to the review first; the QR comes when asked anyway.
  await expect(dialog.getByTestId('qr-review-first')).toContainText('You have not reviewed your summary yet.');
  await dialog.getByRole('button', { name: 'Show the QR code anyway' }).click();
  const qr = dialog.getByRole('img', { name: 'QR code of your summary link' });
  await expect(qr.locator('path')).toHaveAttribute('d', /^M\d+ \d+h1v1h-1z/);
  await expect(qr).toHaveAttribute('width', '200');
  // The default share link (128 random bits, base64url), made now that it was asked for, and when it ends.
  await expect(dialog).toContainText(new RegExp(`${new URL(page.url()).origin}/summary/[A-Za-z0-9_-]{22}`));
  await expect(dialog.getByTestId('qr-expiry')).toContainText('This link expires on');
  await checkScreen(page, 'dashboard-qr');
  const saving = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download QR' }).click();
  const saved = await saving;
  // The QR is the default share link's; the file is still named after the user id (the owner's own summary link).
  const userId = (await page.getByRole('link', { name: 'View Summary' }).getAttribute('href'))?.split('/').pop();
  expect(userId).toMatch(/^[0-9a-f-]{36}$/);
  expect(saved.suggestedFilename()).toBe(`medfolio_${userId}_qr.png`);
  const png = readFileSync(await saved.path());
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([200, 200]);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Nothing was refused by the Content-Security-Policy (the PDF preview is a blob: URL in an <object>).
  expect(problems, 'no script errors and no CSP violations').toEqual([]);
});

test('download: the file is saved under its name and the dialog says so', async ({ page }) => {
  await logIn(page);
  const saving = page.waitForEvent('download');
  await page.getByRole('table').getByRole('button', { name: 'Download Blood test.pdf' }).click();
  const saved = await saving;
  expect(saved.suggestedFilename()).toBe('Blood test.pdf');
  expect(readFileSync(await saved.path()).equals(bloodTest)).toBe(true);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Download Started' })).toBeVisible();
  await expect(dialog).toContainText('Your file "Blood test.pdf" is being downloaded.');
  await checkScreen(page, 'dashboard-download-started');
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('delete with confirmation; a refused file; more than the Free plan allows is refused, naming a plan that allows more', async ({ page }) => {
  await logIn(page);
  const table = page.getByRole('table');
  const dialog = page.getByRole('dialog');

  await table.getByRole('button', { name: 'Delete x-ray.png' }).click();
  await expect(dialog.getByRole('heading', { name: 'Delete this file?' })).toBeVisible();
  await checkScreen(page, 'dashboard-delete-confirm');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Documents | 1 Files' })).toBeVisible();
  await expect(table).not.toContainText('x-ray.png');

  // A program named .pdf passes the name rule; the server looks at the content and refuses it.
  const picker = page.getByLabel('Choose files');
  await picker.setInputFiles([{ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)]) }]);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByRole('heading', { name: 'Error' })).toBeVisible();
  await expect(dialog).toContainText('invoice.pdf');
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: /Selected Files/ })).toHaveCount(0);

  // The Free plan keeps 2 documents: 1 stored + 2 more is one too many.
  await picker.setInputFiles([
    { name: 'Referral letter.pdf', mimeType: 'application/pdf', buffer: samplePdf('referral') },
    { name: 'Discharge note.pdf', mimeType: 'application/pdf', buffer: samplePdf('discharge') },
  ]);
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByRole('heading', { name: 'Error' })).toBeVisible();
  await expect(dialog).toContainText('Free plan allows 2 documents');
  await expect(dialog).toContainText(/The Basic plan allows 5 documents/);
  // The server's "see /membership" is a link in the sentence, not a raw path.
  await expect(dialog.getByRole('link', { name: 'plans and pricing' })).toHaveAttribute('href', '/membership');
  await expect(dialog).not.toContainText('/membership');
  await checkScreen(page, 'dashboard-quota');
  await dialog.getByRole('button', { name: 'Ok' }).click();
  // The selection is kept for another try; nothing was stored.
  await expect(page.getByRole('heading', { name: 'Selected Files (2):' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Documents | 1 Files' })).toBeVisible();

  // One of them fits.
  await page.getByRole('button', { name: 'Remove Discharge note.pdf' }).click();
  await page.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog.getByRole('heading', { name: 'Success' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByRole('heading', { name: 'Documents | 2 Files' })).toBeVisible();
});
