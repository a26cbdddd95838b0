import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { checkScreen, newEmail, textPdf } from './support/helpers';
import { startPayingProduct, type PayingProduct } from './support/paying-product';

/**
 * Family and caregivers (issue 30) in two browsers, on a product with payments configured
 * (stripe-mock): a guardian on the Family plan adds a child, uploads for the child and invites a
 * co-parent; the co-parent signs up from the invitation, accepts it, sees the child's summary and
 * never the guardian's own record; the guardian revokes, and the co-parent's next request is
 * refused, which the page says.
 */
test.describe.configure({ mode: 'serial' });

let product: PayingProduct;
let guardianContext: BrowserContext;
let coParentContext: BrowserContext;
let guardian: Page;
let coParent: Page;

const password = 'Correct-Horse-7-Battery';
const guardianEmail = newEmail('guardian');
const coParentEmail = newEmail('coparent');
let childId = '';
let guardianId = '';

/** Opens a path and waits until the app runs the page (support/test.ts does the same for `page`). */
async function open(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.waitForFunction(() => !document.getElementById('root') || document.documentElement.dataset['app'] === 'ready');
}

async function api(method: string, route: string, token: string, body?: unknown, patient?: string) {
  const response = await fetch(`${product.baseUrl}${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(patient ? { 'x-patient-id': patient } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed as Record<string, unknown> };
}

async function tokenFor(email: string): Promise<string> {
  const login = await api('POST', '/api/login/', '', { email, password });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return String(login.body['access']);
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ baseURL: product.baseUrl });
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  product = await startPayingProduct();
  guardianContext = await newContext(browser);
  coParentContext = await newContext(browser);
  guardian = await guardianContext.newPage();
  coParent = await coParentContext.newPage();
});

test.afterAll(async () => {
  await guardianContext?.close();
  await coParentContext?.close();
  await product?.stop();
});

test('the guardian: an account on the Family plan (sign-up verified and Stripe checkout through the API)', async () => {
  const registered = await api('POST', '/api/register/', '', { first_name: 'Gina', last_name: 'Parent', email: guardianEmail, password, phone: '+1 202 555 0143', date_of_birth: '1986-02-03' });
  expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
  const code = await product.mailMatch(guardianEmail, /\b(\d{4})\b/);
  expect((await api('POST', '/api/verify-otp/', '', { email: guardianEmail, otp: code })).status).toBe(200);
  await product.subscribe(await tokenFor(guardianEmail), 'pro');
});

test('the guardian adds a child on /family; the header switches to the child; the banner says whose record', async () => {
  await open(guardian, '/login');
  await guardian.getByLabel('Email Address').fill(guardianEmail);
  await guardian.getByLabel('Password', { exact: true }).fill(password);
  await guardian.getByRole('button', { name: 'Sign in' }).click();
  await expect(guardian).toHaveURL(/\/$/);
  // One record only: no "Viewing" menu yet.
  await expect(guardian.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await expect(guardian.getByRole('button', { name: /Viewing/ })).toHaveCount(0);

  await guardian.getByRole('button', { name: 'Account menu' }).click();
  await guardian.getByRole('link', { name: 'Family' }).click();
  await expect(guardian.getByRole('heading', { level: 1, name: 'Family' })).toBeVisible();
  const add = guardian.getByRole('region', { name: 'Add a family member' });
  await add.getByRole('button', { name: 'Add family member' }).click();
  await expect(add.getByText('First name is required')).toBeVisible();
  await add.getByLabel('First name').fill('Leo');
  await add.getByLabel('Last name').fill('Parent');
  const born = new Date(Date.now() - 6 * 365.25 * 86400_000).toISOString().slice(0, 10);
  await add.getByLabel('Date of birth').fill(born);
  await add.getByRole('button', { name: 'Add family member' }).click();
  await expect(guardian.getByRole('status').filter({ hasText: 'Leo was added.' })).toBeVisible();
  const leo = guardian.getByRole('listitem', { name: 'Leo Parent' });
  await expect(leo).toContainText('your role: guardian');
  await expect(leo).toContainText('Child (under 13)');
  await checkScreen(guardian, 'family');

  const overview = await api('GET', '/api/family/members/', await tokenFor(guardianEmail));
  const records = overview.body['records'] as { patient_id: string; kind: string }[];
  childId = records.find((r) => r.kind === 'dependant')?.patient_id ?? '';
  guardianId = records.find((r) => r.kind === 'self')?.patient_id ?? '';
  expect(childId).not.toBe('');

  await leo.getByRole('button', { name: "Open Leo's record" }).click();
  await expect(guardian).toHaveURL(/\/$/);
  await expect(guardian.getByText("You are viewing Leo's record (guardian).")).toBeVisible();
  await expect(guardian.getByRole('heading', { level: 1, name: "Leo's documents" })).toBeVisible();
  await expect(guardian.getByRole('button', { name: /Viewing: Leo/ })).toBeVisible();
  // The banner and the menu on a phone: readable, nothing wider than the screen.
  await checkScreen(guardian, 'family-viewing-child');
});

test("the guardian uploads for the child: the file is in the child's record, not the guardian's", async () => {
  await guardian.getByLabel('Choose files').setInputFiles([{ name: 'lab-results.pdf', mimeType: 'application/pdf', buffer: textPdf('Hemoglobin 13.1 g/dL') }]);
  await guardian.getByRole('button', { name: 'Upload' }).click();
  const dialog = guardian.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Success' })).toBeVisible({ timeout: 45_000 });
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(guardian.getByRole('table')).toContainText('lab-results');

  const token = await tokenFor(guardianEmail);
  const childDocs = await api('GET', '/api/upload/', token, undefined, childId);
  expect(childDocs.status).toBe(200);
  expect(JSON.stringify(childDocs.body)).toContain('lab-results');
  const ownDocs = await api('GET', '/api/upload/', token);
  expect(JSON.stringify(ownDocs.body)).not.toContain('lab-results');
});

test('the guardian invites the co-parent by e-mail with the view role; the invitation is pending', async () => {
  await open(guardian, '/family');
  const leo = guardian.getByRole('listitem', { name: 'Leo Parent' });
  const form = leo.getByRole('form', { name: "Invite a caregiver to Leo's record" });
  await form.getByLabel("Caregiver's e-mail").fill(coParentEmail);
  await form.getByRole('radio', { name: /^View/ }).check();
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(guardian.getByRole('status').filter({ hasText: `An invitation to Leo's record was sent to ${coParentEmail}.` })).toBeVisible();
  await expect(leo.getByText(coParentEmail, { exact: true })).toBeVisible();
  await expect(leo.getByRole('button', { name: `Withdraw the invitation to ${coParentEmail}` })).toBeVisible();
});

test('the co-parent opens the invitation, signs up, verifies, comes back and accepts; sees the child and never the guardian', async () => {
  const link = await product.mailMatch(coParentEmail, /https?:\/\/[^/\s]+(\/family\/invite\/[A-Za-z0-9_-]+)/);
  await open(coParent, link);
  await expect(coParent.getByText(/invites you to help with/)).toContainText("Gina invites you to help with Leo's health record.");
  await expect(coParent.getByText('Role: View')).toBeVisible();
  await checkScreen(coParent, 'family-invite-signed-out');
  await coParent.getByRole('link', { name: 'Create an account' }).click();
  await expect(coParent).toHaveURL(/\/sign-up\?next=/);

  await coParent.getByLabel('Name', { exact: true }).fill('Cora Parent');
  await coParent.getByLabel('Email Address').fill(coParentEmail);
  await coParent.getByLabel('Mobile Number').fill('+1 202 555 0187');
  await coParent.getByLabel('Month').selectOption('03');
  await coParent.getByLabel('Year').selectOption('1985');
  await coParent.getByLabel('Day').selectOption('04');
  await coParent.getByLabel('Password', { exact: true }).fill(password);
  await coParent.getByLabel('Confirm Password', { exact: true }).fill(password);
  await coParent.getByLabel(/I agree to the Terms of Service/).check();
  await coParent.getByRole('button', { name: 'Sign up' }).click();
  await expect(coParent).toHaveURL(/\/login\?next=/);

  await coParent.getByLabel('Password', { exact: true }).fill(password);
  await coParent.getByRole('button', { name: 'Sign in' }).click();
  await expect(coParent).toHaveURL(/\/otp-verify\?next=/);
  const code = await product.mailMatch(coParentEmail, /\b(\d{4})\b/);
  await coParent.getByLabel('Verification code').fill(code);
  await coParent.getByRole('button', { name: 'Verify' }).click();
  // Signed in by the verification, and back on the invitation (?next= kept through sign-up, sign-in and the code).
  await expect(coParent).toHaveURL(/\/family\/invite\//, { timeout: 15_000 });

  await coParent.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(coParent.getByRole('status').filter({ hasText: "You now have access to Leo's record." })).toBeVisible();
  await coParent.getByRole('button', { name: "Open Leo's record" }).click();
  await expect(coParent.getByText("You are viewing Leo's record (caregiver, view only).")).toBeVisible();
  await expect(coParent.getByRole('table')).toContainText('lab-results');
  // View only: no upload and no delete.
  await expect(coParent.getByText(/You can view Leo's record but not change it/).first()).toBeVisible();
  await expect(coParent.getByLabel('Choose files')).toHaveCount(0);
  await expect(coParent.getByRole('button', { name: /^Delete / })).toHaveCount(0);
  await checkScreen(coParent, 'family-caregiver-view-only');

  // The child's summary opens; the guardian's record is not among the co-parent's records.
  await coParent.getByRole('link', { name: /View Summary/ }).click();
  await expect(coParent.getByRole('heading', { level: 1, name: 'Patient Summary' })).toBeVisible();
  await expect(coParent.getByText("You are viewing Leo's record (caregiver, view only).")).toBeVisible();
  await expect(coParent.locator('main')).not.toContainText('Gina');
  await coParent.getByRole('button', { name: /Viewing: Leo/ }).click();
  const menu = coParent.getByRole('list', { name: 'Whose record to show' });
  await expect(menu.getByRole('button')).toHaveCount(2);
  await expect(menu).not.toContainText('Gina');
  await coParent.keyboard.press('Escape');

  const token = await tokenFor(coParentEmail);
  expect((await api('GET', `/api/summary/?user=${childId}`, token, undefined, childId)).status).toBe(200);
  expect((await api('GET', '/api/upload/', token, undefined, guardianId)).status).toBe(403);
  expect((await api('GET', `/api/summary/?user=${guardianId}`, token, undefined, guardianId)).status).toBe(403);
});

test("Leo's access history names who acted for him: the guardian's upload, the co-parent's reads", async () => {
  // The guardian's tab still shows Leo's record (kept per tab).
  await open(guardian, '/history');
  await expect(guardian.getByText("You are viewing Leo's record (guardian).")).toBeVisible();
  const table = guardian.getByRole('table');
  await expect(table.getByText('Gina (guardian) uploaded lab-results.pdf for Leo').first()).toBeVisible();
  await expect(table.getByText('Cora (caregiver) viewed summary for Leo').first()).toBeVisible();
  await checkScreen(guardian, 'family-history');
});

test("the guardian sees the co-parent's access and revokes it; the co-parent's next request is refused and the page says access ended", async () => {
  await open(guardian, '/family');
  const leo = guardian.getByRole('listitem', { name: 'Leo Parent' });
  await expect(leo).toContainText('Cora Parent');
  await expect(leo).toContainText('Active');
  await leo.getByRole('button', { name: "Revoke Cora Parent's access" }).click();
  const dialog = guardian.getByRole('dialog', { name: 'Revoke access?' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(guardian.getByRole('status').filter({ hasText: "Cora Parent no longer has access to Leo's record." })).toBeVisible();

  // The co-parent's next request (a reload of the child's dashboard) is refused at once.
  await open(coParent, '/');
  await expect(coParent.getByRole('alert').filter({ hasText: "Your access to Leo's record has ended." })).toBeVisible({ timeout: 15_000 });
  await expect(coParent.getByText(/You are viewing Leo's record/)).toHaveCount(0);
  await checkScreen(coParent, 'family-access-ended');
  await expect(coParent.locator('main')).not.toContainText('lab-results');
  const token = await tokenFor(coParentEmail);
  expect((await api('GET', '/api/upload/', token, undefined, childId)).status).toBe(403);
});

test("the guardian removes Leo, typing his first name: the record is gone, the tab is back on the guardian's own, and Leo's record is refused", async () => {
  await open(guardian, '/family');
  const leo = guardian.getByRole('listitem', { name: 'Leo Parent' });
  await leo.getByRole('button', { name: "Open Leo's record" }).click();
  await expect(guardian.getByText("You are viewing Leo's record (guardian).")).toBeVisible();
  await open(guardian, '/family');
  await guardian.getByRole('listitem', { name: 'Leo Parent' }).getByRole('button', { name: 'Remove Leo' }).click();
  const dialog = guardian.getByRole('dialog', { name: 'Remove Leo?' });
  await expect(dialog).toContainText('nobody can read it any more');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog.getByText('Type Leo to confirm.')).toBeVisible();
  await dialog.getByLabel('Type Leo to confirm').fill('Leo');
  await checkScreen(guardian, 'family-remove-child');
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(guardian.getByRole('status').filter({ hasText: 'Leo is removed. Their record is being erased' })).toBeVisible();
  await expect(guardian.getByRole('listitem', { name: 'Leo Parent' })).toHaveCount(0);
  await expect(guardian.getByRole('button', { name: /Viewing/ })).toHaveCount(0);
  await open(guardian, '/');
  await expect(guardian.getByText(/You are viewing Leo's record/)).toHaveCount(0);
  await expect(guardian.locator('main')).not.toContainText('lab-results');
  expect((await api('GET', '/api/upload/', await tokenFor(guardianEmail), undefined, childId)).status).toBe(403);
});
