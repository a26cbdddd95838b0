import type { APIRequestContext, Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { expect, test } from './support/test';
import type { SummaryFact } from '../src/api/summary';
import { summaryFact } from '../src/pages/summary/facts';
import { checkScreen, newEmail, logIn as signIn, accessToken as apiToken, textPdf, registerVerified } from './support/helpers';

/**
 * The summary page in the browser, against the real product. The sample and the
 * "not available" page need no summary service and always run (axe at 390 and 1280 px). The
 * owner's own summary needs GET /api/summary/: until the summary service and its gateway routes
 * are in the build, that answers 404 for the owner too, and those steps skip themselves saying so.
 */
test.describe.configure({ mode: 'serial' });

const email = newEmail('summary');
const password = 'Correct-Horse-7-Battery';
let userId = '';
let serviceMissing = false;

const accessToken = (request: APIRequestContext) => apiToken(request, email, password);

const logIn = (page: Page) => signIn(page, email, password);

const SKIP_REASON =
  'GET /api/summary/ answers 404 for the owner: the summary service and its gateway routes are not in this build yet';

test('the sample summary: five cards, each state shown, no review controls', async ({ page }) => {
  await page.goto('/summary/sample');
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Summary' })).toBeVisible();
  // The spec's sample page has the 'Are you a Doctor?' box, then the five cards.
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
    'Are you a Doctor?',
    'Current Medical Conditions',
    'Past Medical History',
    'Medications',
    'Allergies',
    'Additional Categories',
  ]);
  await expect(page.getByRole('region', { name: 'Allergies' })).toContainText('None known: No known drug allergies');
  await expect(page.getByRole('region', { name: 'Past Medical History' })).toContainText('Not recorded');
  await expect(page.getByRole('button', { name: 'Review' })).toHaveCount(0);
  await checkScreen(page, 'summary-sample');
});

test("someone else's summary, signed out: not valid (share links answer every other id the same)", async ({ page }) => {
  await page.goto(`/summary/${randomUUID()}`);
  await expect(page.getByRole('heading', { level: 1, name: 'This link is not valid.' })).toBeVisible();
  await checkScreen(page, 'summary-not-available');
});

test('an account with one document, and whether the summary service is there', async ({ request }) => {
  await registerVerified(request, { first_name: 'Robin', last_name: 'Testpatient', email, password, date_of_birth: '1988-04-17' });
  const headers = { authorization: `Bearer ${await accessToken(request)}` };
  userId = ((await (await request.get('/api/profile/', { headers })).json()) as { id: string }).id;
  const summary = await request.get(`/api/summary/?user=${userId}`, { headers });
  serviceMissing = summary.status() === 404;
  if (serviceMissing) return;
  expect(summary.ok(), await summary.text()).toBe(true);
  const upload = await request.post('/api/upload/', {
    headers,
    multipart: {
      files: {
        name: 'labs.pdf',
        mimeType: 'application/pdf',
        buffer: textPdf('Medications: Metformin 500 mg by mouth twice daily'),
      },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
});

/** A summary with every state a card can be in, for the page's look before the service exists. */
function fullSummary(userIdOfOwner: string) {
  const source = { document_id: randomUUID(), filename: 'labs.pdf', page: 2, quote: 'Metformin 500 mg PO BID' };
  const fact = (id: string, text: string, more: Partial<SummaryFact> = {}) =>
    summaryFact({ id, text, sources: [source], ...more });
  return [
    {
      summary: '',
      status: 'ready',
      version: 3,
      confirmed_version: 2,
      updated_at: '2026-11-24T10:00:00.000Z',
      user: userIdOfOwner,
      sections: [
        {
          key: 'current_conditions',
          title: 'Current Medical Conditions',
          state: 'facts',
          none_known: null,
          facts: [
            fact('a', 'Type 2 diabetes mellitus', {
              onset: '2015',
              code: { system: 'SNOMED CT', code: '44054006', display: 'Diabetes' },
            }),
            fact('b', 'Hypertension', { certainty: 'possible' }),
          ],
        },
        { key: 'past_history', title: 'Past Medical History', state: 'not_recorded', none_known: null, facts: [] },
        {
          key: 'medications',
          title: 'Medications',
          state: 'facts',
          none_known: null,
          facts: [
            fact('c', 'Metformin 500 mg by mouth twice daily'),
            fact('d', 'Atorvastatin 20 mg', { status: 'stopped', end: '2024-03', hidden: true }),
            fact('e', 'Vitamin D 1000 IU daily', { added_by_patient: true, sources: [] }),
            fact('f', 'Lisinopril 10 mg daily', { edited: true }),
          ],
        },
        {
          key: 'allergies',
          title: 'Allergies',
          state: 'none_known',
          none_known: { text: 'No known drug allergies', sources: [source] },
          facts: [],
        },
        { key: 'additional', title: 'Additional Categories', state: 'not_recorded', none_known: null, facts: [] },
      ],
      documents: [
        { document_id: source.document_id, filename: 'labs.pdf', state: 'read', problems: [] },
        { document_id: randomUUID(), filename: 'scan.png', state: 'unreadable', problems: ['the scan is unclear'] },
      ],
    },
  ];
}

test('the look of a full summary in review mode (its GET answered by the test until the service lands)', async ({
  page,
}) => {
  // Only the summary call is answered here; everything else (sign-in, layout, axe) is the real product.
  await page.route('**/api/summary/**', (route) => route.fulfill({ json: fullSummary(userId) }));
  await logIn(page);
  await page.goto(`/summary/${userId}`);
  await expect(page.getByText('scan.png could not be read: the scan is unclear')).toBeVisible();
  await expect(page.getByText('Hidden from shares')).toBeVisible();
  await checkScreen(page, 'summary-full');
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Edit: Metformin 500 mg by mouth twice daily' }).click();
  await page.getByRole('button', { name: 'Add to Past Medical History' }).click();
  await checkScreen(page, 'summary-full-review');
  // Printed: the cards and their sources, no buttons, no header or footer.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('region', { name: 'Medications' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Review' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Hide: Metformin 500 mg by mouth twice daily' })).toBeHidden();
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('contentinfo')).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
});

test("the owner's summary: state, cards, and review (add, hide, confirm)", async ({ page }) => {
  test.skip(serviceMissing, SKIP_REASON);
  test.setTimeout(120_000);
  await logIn(page);
  // The dashboard's badge beside View Summary.
  await expect(page.getByRole('link', { name: 'View Summary' })).toHaveAccessibleDescription(
    /Summary: (Processing…|Ready|Not yet)/,
  );
  await page.getByRole('link', { name: 'View Summary' }).click();
  // The owner's own summary page (not a share link), with review.
  await expect(page).toHaveURL(/\/summary\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Patient Summary' })).toBeVisible();
  // Reading, then ready: the page asks again by itself.
  await expect(page.getByText(/^Updated/)).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(5);
  await checkScreen(page, 'summary-ready');

  await page.getByRole('button', { name: 'Review' }).click();
  const past = page.getByRole('region', { name: 'Past Medical History' });
  await past.getByRole('button', { name: 'Add to Past Medical History' }).click();
  await past.getByLabel('New entry for Past Medical History').fill('Appendix removed in 2001');
  await past.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(past.getByText('Added by you')).toBeVisible();
  await past.getByRole('button', { name: 'Hide: Appendix removed in 2001' }).click();
  await expect(past.getByText('Hidden from shares')).toBeVisible();
  await checkScreen(page, 'summary-review');
  await page.getByRole('button', { name: 'Confirm summary' }).click();
  await expect(page.getByText('You confirmed this version.')).toBeVisible();
});
