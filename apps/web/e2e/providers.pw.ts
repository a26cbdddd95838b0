import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test } from './support/test';
import { accessToken, checkScreen, newEmail, logIn as signIn, registerVerified } from './support/helpers';

/**
 * Providers in the browser against the real product, with identity's NPI registry set to
 * the local NPPES stand-in (global-setup.ts; it knows Dr Ana María Ruiz, NPI 1234567893): a doctor
 * verifies her license on /medical-license, opens the summary a patient shared and asks with 'View
 * past medical history'; the patient, in a second browser context, approves for a day on
 * /providers/access; the doctor opens the patient's documents and downloads one; the patient sees
 * her in the access history and revokes; the doctor's page then says the documents are not available.
 */
test.describe.configure({ mode: 'serial' });

const password = 'Correct-Horse-7-Battery';
const patientEmail = newEmail('patient');
const doctorEmail = newEmail('doctor');
let shareId = '';
let patientId = '';
let doctorPage: Page;
let patientPage: Page;

async function account(request: APIRequestContext, email: string, name: string): Promise<string> {
  await registerVerified(request, { first_name: name, last_name: '', email, password, date_of_birth: '1980-04-17' });
  return accessToken(request, email, password);
}

async function logIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await signIn(page, email, password);
  return page;
}

test('a patient with a document and a shared summary, and a doctor with an account', async ({ request }) => {
  const patient = await account(request, patientEmail, 'Pat Lee');
  await account(request, doctorEmail, 'Ana Ruiz');
  const headers = { authorization: `Bearer ${patient}` };
  patientId = ((await (await request.get('/api/profile/', { headers })).json()) as { id: string }).id;
  const upload = await request.post('/api/upload/', { headers, multipart: { files: { name: 'labs.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1') } } });
  expect(upload.ok(), await upload.text()).toBe(true);
  const link = await request.get('/api/share-links/default/', { headers });
  expect(link.ok(), await link.text()).toBe(true);
  shareId = ((await link.json()) as { share_id: string }).share_id;
});

test('the doctor verifies her license', async ({ browser }) => {
  doctorPage = await logIn(browser, doctorEmail);
  await doctorPage.goto('/medical-license');
  // The format is checked before anything is sent: 10 digits, then the check digit.
  await doctorPage.getByLabel('Medical License Number').fill('12345');
  await doctorPage.getByRole('button', { name: 'Proceed' }).click();
  await expect(doctorPage.getByRole('alert')).toHaveText('An NPI is exactly 10 digits (numbers only). Please check the number.');
  await doctorPage.getByLabel('Medical License Number').fill('1234567890');
  await doctorPage.getByRole('button', { name: 'Proceed' }).click();
  await expect(doctorPage.getByRole('alert')).toContainText('its last digit is a check digit, and it does not match the first nine');
  // A well-formed number the registry does not know: the spec's message.
  await doctorPage.getByLabel('Medical License Number').fill('1234567901');
  await doctorPage.getByRole('button', { name: 'Proceed' }).click();
  await expect(doctorPage.getByRole('alert')).toHaveText('Medical License Number Not Found, Please Try Again');
  await doctorPage.getByRole('button', { name: 'Go Back' }).click();
  await expect(doctorPage.getByLabel('Medical License Number')).toHaveValue('');
  await doctorPage.getByLabel('Medical License Number').fill('1234567893');
  await doctorPage.getByRole('button', { name: 'Proceed' }).click();
  await expect(doctorPage.getByText('License verified successfully!')).toBeVisible();
  await expect(doctorPage.getByRole('status')).toContainText('Dr Ana Ruiz (NPI 1234567893), M.D. · Internal Medicine (CA)');
  // A registry name match is a claim: self-attested until an operator verifies it.
  await expect(doctorPage.getByText('Self-attested provider (review pending)')).toBeVisible();
  await checkScreen(doctorPage, 'medical-license-verified');
  await doctorPage.goto('/profile');
  await expect(doctorPage.getByRole('link', { name: 'Self-attested provider (review pending)' })).toBeVisible();
});

test("the doctor asks from the patient's shared summary", async () => {
  await doctorPage.goto(`/summary/${shareId}`);
  await expect(doctorPage.getByRole('heading', { name: 'Are you a Doctor?' })).toBeVisible();
  await doctorPage.getByRole('button', { name: 'View past medical history' }).click();
  await expect(doctorPage.getByText('Your request was sent to the patient.')).toBeVisible();
  await checkScreen(doctorPage, 'summary-shared-doctor-asked');
});

test('the patient approves for a day, in a second browser context', async ({ browser }) => {
  patientPage = await logIn(browser, patientEmail);
  await patientPage.goto('/providers/access');
  const request = patientPage.getByRole('listitem').filter({ hasText: 'Dr Ana Ruiz (NPI 1234567893)' });
  await expect(request).toContainText('M.D. · Internal Medicine · CA');
  await expect(request).toContainText('Someone who claims to be Dr Ana Ruiz (NPI 1234567893); not verified');
  await checkScreen(patientPage, 'providers-access-request');
  await request.getByRole('radio', { name: 'A day' }).check();
  await request.getByRole('button', { name: 'Approve' }).click();
  await expect(patientPage.getByText('Dr Ana Ruiz (NPI 1234567893) can see your documents now.')).toBeVisible();
  await expect(patientPage.getByRole('button', { name: 'Revoke Dr Ana Ruiz (NPI 1234567893)' })).toBeVisible();
});

test("the doctor opens the patient's documents and downloads one", async () => {
  await doctorPage.goto('/providers/patients');
  await doctorPage.getByRole('link', { name: 'Pat Lee' }).click();
  await expect(doctorPage).toHaveURL(new RegExp(`/providers/patients/${patientId}$`));
  await expect(doctorPage.getByText('labs.pdf')).toBeVisible();
  await checkScreen(doctorPage, 'provider-patient-documents');
  const download = doctorPage.waitForEvent('download');
  await doctorPage.getByRole('button', { name: 'Download labs.pdf' }).click();
  expect((await download).suggestedFilename()).toBe('labs.pdf');
});

test('the patient sees the look in the history, and revokes', async () => {
  await patientPage.goto('/history');
  await expect(patientPage.getByText('Dr Ana Ruiz (NPI 1234567893)').first()).toBeVisible();
  await patientPage.goto('/providers/access');
  await patientPage.getByRole('button', { name: 'Revoke Dr Ana Ruiz (NPI 1234567893)' }).click();
  await expect(patientPage.getByText('Dr Ana Ruiz (NPI 1234567893) can no longer see your documents.')).toBeVisible();
  await expect(patientPage.getByText('No doctor can see your documents.')).toBeVisible();

  await doctorPage.goto(`/providers/patients/${patientId}`);
  await expect(doctorPage.getByRole('heading', { name: 'These documents are not available' })).toBeVisible();
});
