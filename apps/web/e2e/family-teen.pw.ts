import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { checkScreen, newEmail, textPdf } from './support/helpers';
import { startPayingProduct, type PayingProduct } from './support/paying-product';

/**
 * A teen's own sign-in (issue 30) in two browsers, on a product with payments (the Family plan): the
 * guardian invites Tess (15) to sign in from /family; Tess opens the e-mailed link, chooses a
 * password, signs in, keeps her guardian's access on the assent screen, and marks a document
 * Private on her own record; the guardian then no longer sees that document in Tess's record.
 */
test.describe.configure({ mode: 'serial' });

let product: PayingProduct;
let guardianContext: BrowserContext;
let teenContext: BrowserContext;
let guardian: Page;
let teen: Page;

const password = 'Correct-Horse-7-Battery';
const teenPassword = 'Tess-Horse-8-Battery';
const guardianEmail = newEmail('guardian');
const teenEmail = newEmail('tess');
let tessId = '';

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
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
}

async function tokenFor(email: string, secret = password): Promise<string> {
  const login = await api('POST', '/api/login/', '', { email, password: secret });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return String(login.body['access']);
}

async function uploadFor(token: string, patient: string, name: string): Promise<void> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(textPdf(`${name} Hemoglobin 13.1 g/dL`))], { type: 'application/pdf' }), name);
  const response = await fetch(`${product.baseUrl}/api/upload/`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}`, 'x-patient-id': patient } });
  expect(response.status, await response.clone().text()).toBe(201);
}

test.beforeAll(async ({ browser }) => {
  test.setTimeout(180_000);
  product = await startPayingProduct();
  guardianContext = await browser.newContext({ baseURL: product.baseUrl });
  teenContext = await browser.newContext({ baseURL: product.baseUrl });
  guardian = await guardianContext.newPage();
  teen = await teenContext.newPage();
});

test.afterAll(async () => {
  await guardianContext?.close();
  await teenContext?.close();
  await product?.stop();
});

test('the guardian, on the Family plan, has a 15-year-old with two documents (through the API)', async () => {
  const registered = await api('POST', '/api/register/', '', { first_name: 'Gina', last_name: 'Parent', email: guardianEmail, password, phone: '+1 202 555 0143', date_of_birth: '1986-02-03' });
  expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);
  const code = await product.mailMatch(guardianEmail, /\b(\d{4})\b/);
  expect((await api('POST', '/api/verify-otp/', '', { email: guardianEmail, otp: code })).status).toBe(200);
  const token = await tokenFor(guardianEmail);
  await product.subscribe(token, 'pro');
  const born = `${new Date().getUTCFullYear() - 15}-02-02`;
  const added = await api('POST', '/api/family/members/', token, { first_name: 'Tess', last_name: 'Parent', date_of_birth: born });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  tessId = String(added.body['patient_id']);
  await uploadFor(token, tessId, 'school-note.pdf');
  await uploadFor(token, tessId, 'clinic-visit.pdf');
});

test('the guardian invites Tess to sign in from /family; the card says she is invited', async () => {
  await open(guardian, '/login');
  await guardian.getByLabel('Email Address').fill(guardianEmail);
  await guardian.getByLabel('Password', { exact: true }).fill(password);
  await guardian.getByRole('button', { name: 'Sign in' }).click();
  await expect(guardian).toHaveURL(/\/$/);
  await open(guardian, '/family');
  const tess = guardian.getByRole('listitem', { name: 'Tess Parent' });
  await expect(tess).toContainText('Teen (13 to 17)');
  const block = tess.getByRole('group', { name: "Tess's own sign-in" });
  await block.getByLabel("Tess's e-mail").fill(teenEmail);
  await block.getByRole('button', { name: 'Invite Tess to sign in' }).click();
  await expect(guardian.getByRole('status').filter({ hasText: `Tess was sent a link to set up their own sign-in at ${teenEmail}.` })).toBeVisible();
  await expect(block).toContainText('An invitation is waiting for Tess');
  await checkScreen(guardian, 'family-teen-invited');
});

test('Tess opens the link, chooses a password, signs in and keeps her guardian on the assent screen', async () => {
  const link = await product.mailMatch(teenEmail, /https?:\/\/[^/\s]+(\/family\/claim\/[A-Za-z0-9_-]+)/);
  await open(teen, link);
  await expect(teen.getByText(/Hello Tess/)).toContainText('Gina has kept your health record here');
  await checkScreen(teen, 'family-claim');
  await teen.getByLabel('Choose a password').fill(teenPassword);
  await teen.getByLabel('Type it again').fill(teenPassword);
  await teen.getByRole('button', { name: 'Set up my sign-in' }).click();
  await expect(teen.getByRole('status')).toContainText('Welcome, Tess');
  await teen.getByRole('link', { name: 'Sign in' }).click();
  await teen.getByLabel('Email Address').fill(teenEmail);
  await teen.getByLabel('Password', { exact: true }).fill(teenPassword);
  await teen.getByRole('button', { name: 'Sign in' }).click();
  await expect(teen).toHaveURL(/\/family\/assent$/, { timeout: 15_000 });
  await expect(teen.getByText(/Should they keep access/)).toContainText('Until now, Gina kept your health record.');
  await checkScreen(teen, 'family-assent');
  await teen.getByRole('button', { name: 'Let them keep access' }).click();
  await expect(teen.getByRole('status')).toContainText('they keep access until your 18th birthday');
});

test("Tess marks a document Private on her own record; the guardian no longer sees it in Tess's record", async () => {
  await open(teen, '/');
  await expect(teen.getByText('Private: hidden from your parents and caregivers.')).toBeVisible();
  const toggle = teen.getByRole('switch', { name: 'Private: hide clinic-visit.pdf from your parents and caregivers' }).first();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await toggle.click();
  await expect(teen.getByRole('switch', { name: /clinic-visit.pdf/ }).first()).toHaveAttribute('aria-checked', 'true');
  await checkScreen(teen, 'family-teen-private');

  await open(guardian, '/family');
  await expect(guardian.getByRole('listitem', { name: 'Tess Parent' }).getByRole('group', { name: "Tess's own sign-in" })).toContainText(
    'Tess signs in with their own account. They agreed that you keep access until their 18th birthday.',
  );
  await guardian.getByRole('listitem', { name: 'Tess Parent' }).getByRole('button', { name: "Open Tess's record" }).click();
  await expect(guardian.getByText("You are viewing Tess's record (guardian).")).toBeVisible();
  await expect(guardian.getByRole('table')).toContainText('school-note');
  await expect(guardian.getByRole('table')).not.toContainText('clinic-visit');
  const token = await tokenFor(guardianEmail);
  const list = await api('GET', '/api/upload/', token, undefined, tessId);
  expect(JSON.stringify(list.body)).not.toContain('clinic-visit');
  // Tess, as herself, still has both.
  const own = await api('GET', '/api/upload/', await tokenFor(teenEmail, teenPassword));
  expect(JSON.stringify(own.body)).toContain('clinic-visit');
});
