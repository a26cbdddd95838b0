import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { baseUrl, devMailKey } from './settings';

const shotsDir = path.resolve(__dirname, '../../../../tmp/web-e2e/screenshots');
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** WCAG 2.1 A and AA rules of axe-core: the page must have no violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `accessibility violations on ${page.url()}`).toEqual([]);
}

/**
 * The screen at phone (390 px) and desktop (1280 px) width: checked with axe at each width and
 * saved as full-page screenshots tmp/web-e2e/screenshots/{name}-{width}.png (test artifacts).
 */
export async function checkScreen(page: Page, name: string): Promise<void> {
  mkdirSync(shotsDir, { recursive: true });
  const original = page.viewportSize();
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    // Settle first; some screens (an open PDF preview) never go fully network-idle.
    await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
    await expectAccessible(page);
    // Nothing wider than the screen: no sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${size.width} px`).toBeLessThanOrEqual(size.width);
    await page.screenshot({ path: path.join(shotsDir, `${name}-${size.width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

export function newEmail(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.com`;
}

interface DevMail {
  to: string;
  subject: string;
  text: string;
  sent_at: string;
}

async function mailTo(to: string): Promise<DevMail[]> {
  const response = await fetch(`${baseUrl}/dev/mail.json`, { headers: { 'x-dev-mail-key': devMailKey } });
  const mail = (await response.json()) as DevMail[];
  return mail.filter((m) => m.to.toLowerCase() === to.toLowerCase()).sort((a, b) => b.sent_at.localeCompare(a.sent_at));
}

async function poll<T>(what: string, read: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The newest verification code e-mailed to `to` (read from the dev mailbox, /dev/mail.json). */
export async function codeFor(to: string, other?: string): Promise<string> {
  return poll(`a verification code for ${to}`, async () => {
    const code = (await mailTo(to)).map((m) => /\b(\d{4})\b/.exec(m.text)?.[1]).find(Boolean);
    return code && code !== other ? code : undefined;
  });
}

/** The password-reset link e-mailed to `to`, as a path of this site. */
export async function resetPathFor(to: string): Promise<string> {
  return poll(`a reset link for ${to}`, async () => {
    for (const m of await mailTo(to)) {
      const match = /https?:\/\/[^/\s]+(\/reset-password\/[^\s]+\/[A-Za-z0-9_-]+)/.exec(m.text);
      if (match) return match[1];
    }
    return undefined;
  });
}

/** Signs in on /login as a user would and waits for the dashboard. */
export async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/** A sign-up as a user makes it: fills in the /sign-up form, accepts the terms and presses Sign up. */
export async function signUp(
  page: Page,
  account: { name: string; email: string; phone: string; birth: { month: string; day: string; year: string }; password: string },
): Promise<void> {
  await page.goto('/sign-up');
  await page.getByLabel('Name', { exact: true }).fill(account.name);
  await page.getByLabel('Email Address').fill(account.email);
  await page.getByLabel('Mobile Number').fill(account.phone);
  await page.getByLabel('Month').selectOption(account.birth.month);
  await page.getByLabel('Day').selectOption(account.birth.day);
  await page.getByLabel('Year').selectOption(account.birth.year);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(account.password);
  await page.getByLabel(/I agree to the Terms of Service/).check();
  await page.getByRole('button', { name: 'Sign up' }).click();
}

/** An access token for the API, through POST /api/login/. */
export async function accessToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const login = await request.post('/api/login/', { data: { email, password } });
  expect(login.ok(), await login.text()).toBe(true);
  return ((await login.json()) as { access: string }).access;
}

/** An account to make through the API (phone: a test number unless given). */
export interface NewAccount {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  date_of_birth: string;
  phone?: string;
}

/** Registers an account through POST /api/register/ and verifies it with the code e-mailed to it (POST /api/verify-otp/). */
export async function registerVerified(request: APIRequestContext, account: NewAccount): Promise<void> {
  const registered = await request.post('/api/register/', { data: { phone: '+1 202 555 0143', ...account } });
  expect(registered.ok(), await registered.text()).toBe(true);
  const verified = await request.post('/api/verify-otp/', { data: { email: account.email, otp: await codeFor(account.email) } });
  expect(verified.ok(), await verified.text()).toBe(true);
}

/** Gives the account a summary of its own and confirms it: one allergy the patient adds, 'Penicillin (hives)'. */
export async function confirmAllergySummary(request: APIRequestContext, email: string, password: string): Promise<void> {
  const headers = { authorization: `Bearer ${await accessToken(request, email, password)}` };
  const added = await request.post('/api/summary/facts/', { headers, data: { section: 'allergies', text: 'Penicillin (hives)' } });
  expect(added.ok(), await added.text()).toBe(true);
  const { version } = (await added.json()) as { version: number };
  expect((await request.post('/api/summary/confirm/', { headers, data: { version } })).ok()).toBe(true);
}

/** A one-page PDF with a line of real text (so the summary has something to read). */
export function textPdf(line: string): Buffer {
  const stream = `BT /F1 12 Tf 72 720 Td (${line}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(body.length);
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
