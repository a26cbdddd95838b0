import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SummaryFact, SummaryItem, SummarySection } from '../../api/summary';
import { fakeServer, type RecordedCall } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { nth } from '../../test/nth';
import { clearTokens, storeTokens } from '../../session/tokens';
import { summaryFact } from './facts';
import SummaryPage from './SummaryPage';

const patient = '0f8b2c7e-5d1a-4c3b-9e2f-6a7b8c9d0e1f';
const labs = { document_id: 'd-labs', filename: 'labs.pdf', page: 2, quote: 'Metformin 500 mg PO BID' };

function fact(overrides: Partial<SummaryFact> & Pick<SummaryFact, 'id' | 'text'>): SummaryFact {
  return summaryFact({ sources: [labs], ...overrides });
}

function sections(): SummarySection[] {
  return [
    // Out of order on purpose: the page shows the five in the contract's order.
    {
      key: 'allergies',
      title: 'Allergies',
      state: 'none_known',
      facts: [],
      none_known: { text: 'No known drug allergies', sources: [{ ...labs, page: 1 }] },
    },
    {
      key: 'current_conditions',
      title: 'Current Medical Conditions',
      state: 'facts',
      none_known: null,
      facts: [
        fact({
          id: 'f-dm',
          text: 'Type 2 diabetes mellitus',
          onset: '2015',
          code: { system: 'SNOMED CT', code: '44054006', display: 'Diabetes' },
        }),
        fact({ id: 'f-htn', text: 'Hypertension', certainty: 'possible' }),
      ],
    },
    { key: 'past_history', title: 'Past Medical History', state: 'not_recorded', facts: [], none_known: null },
    {
      key: 'medications',
      title: 'Medications',
      state: 'facts',
      none_known: null,
      facts: [
        fact({ id: 'f-met', text: 'Metformin 500 mg by mouth twice daily', category: 'medication' }),
        fact({
          id: 'f-ator',
          text: 'Atorvastatin 20 mg',
          category: 'medication',
          status: 'stopped',
          end: '2024-03',
          hidden: true,
        }),
        fact({
          id: 'f-mine',
          text: 'Vitamin D 1000 IU daily',
          category: 'medication',
          added_by_patient: true,
          sources: [],
        }),
        fact({ id: 'f-fixed', text: 'Lisinopril 10 mg daily', category: 'medication', edited: true }),
      ],
    },
    { key: 'additional', title: 'Additional Categories', state: 'not_recorded', facts: [], none_known: null },
  ];
}

function summary(overrides: Partial<SummaryItem> = {}): SummaryItem {
  return {
    summary: '**Current Medical Conditions:**\n- Type 2 diabetes mellitus',
    status: 'ready',
    version: 3,
    confirmed_version: 2,
    updated_at: '2026-11-24T10:00:00.000Z',
    sections: sections(),
    documents: [
      { document_id: 'd-labs', filename: 'labs.pdf', state: 'read', problems: [] },
      { document_id: 'd-scan', filename: 'scan.png', state: 'unreadable', problems: ['the scan is unclear'] },
    ],
    ...overrides,
  };
}

type Routes = Parameters<typeof fakeServer>[0];

function show(routes: Routes = {}, at = `/summary/${patient}`) {
  const server = fakeServer({ 'GET /api/summary/': () => ({ body: [summary()] }), ...routes });
  const view = renderPage(<SummaryPage />, {
    path: '/summary/:id',
    at,
    routes: [{ path: '/', element: <p>home screen</p> }],
  });
  return { ...view, server };
}

const gets = (calls: RecordedCall[]) =>
  calls.filter((call) => call.method === 'GET' && call.path.startsWith('/api/summary/'));
const card = (title: string) => screen.getByRole('region', { name: title });

beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));
afterEach(() => clearTokens());

describe('the summary page', () => {
  it("asks for the patient's summary with the bearer token, and shows the five cards in order with icons and descriptions", async () => {
    const { server } = show();
    expect(await screen.findByRole('heading', { level: 1, name: 'Patient Summary' })).toBeInTheDocument();
    expect(gets(server.calls)[0]).toMatchObject({ path: `/api/summary/?user=${patient}`, authorization: 'Bearer a' });
    const titles = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(titles).toEqual([
      'Current Medical Conditions',
      'Past Medical History',
      'Medications',
      'Allergies',
      'Additional Categories',
    ]);
    expect(within(card('Medications')).getByText('Medicines you take, with dose and how often')).toBeInTheDocument();
    expect(card('Medications').querySelector('svg')).not.toBeNull();
  });

  it('lists procedures under Additional Categories, with their date and no "resolved"', async () => {
    const withProcedures = summary();
    const additional = withProcedures.sections.find((s) => s.key === 'additional');
    if (!additional) throw new Error('the summary has Additional Categories');
    Object.assign(additional, {
      state: 'facts',
      facts: [
        fact({
          id: 'f-ecg',
          text: '12 lead electrocardiogram',
          category: 'procedure',
          status: null,
          onset: '2014-10-01',
        }),
      ],
    });
    show({ 'GET /api/summary/': () => ({ body: [withProcedures] }) });
    await screen.findByRole('heading', { level: 1, name: 'Patient Summary' });
    const extra = card('Additional Categories');
    expect(within(extra).getByText('12 lead electrocardiogram')).toBeInTheDocument();
    expect(extra).toHaveTextContent('2014-10-01');
    expect(extra).not.toHaveTextContent(/resolved/i);
    expect(
      within(extra).getByText('Procedures and operations, vaccinations, test results, vital signs and other notes'),
    ).toBeInTheDocument();
    expect(card('Past Medical History')).not.toHaveTextContent('electrocardiogram');
  });

  it('gives an unknown section the general description', async () => {
    show({
      'GET /api/summary/': () => ({
        body: [
          summary({
            sections: [
              { key: 'vaccines' as never, title: 'Vaccines:', state: 'not_recorded', facts: [], none_known: null },
            ],
          }),
        ],
      }),
    });
    const vaccines = await screen.findByRole('region', { name: 'Vaccines' });
    expect(within(vaccines).getByText('General medical information')).toBeInTheDocument();
  });

  it('tells the three states of a section apart: facts, none known with its source, not recorded', async () => {
    show();
    await screen.findByRole('heading', { level: 1, name: 'Patient Summary' });
    const conditions = card('Current Medical Conditions');
    expect(within(conditions).getByText('Type 2 diabetes mellitus')).toBeInTheDocument();
    expect(conditions).toHaveTextContent('since 2015 · SNOMED CT 44054006');
    expect(within(conditions).getByText('possible')).toBeInTheDocument();
    expect(within(conditions).queryByText(/not recorded|none known/i)).not.toBeInTheDocument();

    const allergies = card('Allergies');
    expect(allergies).toHaveTextContent('None known: No known drug allergies');
    expect(within(allergies).getByRole('button', { name: 'labs.pdf, page 1' })).toBeInTheDocument();
    expect(within(allergies).queryByText('Not recorded')).not.toBeInTheDocument();

    const past = card('Past Medical History');
    expect(within(past).getByText('Not recorded')).toBeInTheDocument();
    expect(within(past).getByText('Nothing in your documents mentions this.')).toBeInTheDocument();
    expect(past).not.toHaveTextContent(/none/i);
  });

  it("marks each fact's status and the patient's own changes", async () => {
    show();
    await screen.findByRole('heading', { level: 1, name: 'Patient Summary' });
    const medications = card('Medications');
    expect(within(medications).getByText('stopped 2024-03')).toBeInTheDocument();
    // Hidden facts stay visible to the owner, struck through.
    expect(within(medications).getByText('Atorvastatin 20 mg')).toHaveClass('line-through');
    expect(within(medications).getByText('Hidden from shares')).toBeInTheDocument();
    expect(within(medications).getByText('Added by you')).toBeInTheDocument();
    expect(within(medications).getByText('Edited by you')).toBeInTheDocument();
    expect(within(medications).getByText('Metformin 500 mg by mouth twice daily')).not.toHaveClass('line-through');
  });

  it('says when it was updated, and lists documents it could not read in plain words', async () => {
    show();
    expect(await screen.findByText(/^Updated/)).toHaveTextContent('Not yet confirmed by you.');
    expect(screen.getByText('scan.png could not be read: the scan is unclear')).toBeInTheDocument();
  });

  it('says what to do when there is nothing to summarise yet', async () => {
    show({
      'GET /api/summary/': () => ({
        body: [summary({ status: 'empty', version: 0, confirmed_version: null, sections: [], documents: [] })],
      }),
    });
    expect(await screen.findByText('No summary yet.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Upload records' }));
    expect(await screen.findByText('home screen')).toBeInTheDocument();
  });

  it('opens a source document at its page from the link under a fact', async () => {
    URL.createObjectURL = jest.fn(() => 'blob:https://localhost/labs');
    URL.revokeObjectURL = jest.fn();
    const { server } = show({
      'GET /api/get-document-download-link/d-labs/': () => ({
        body: {
          download_url: '/api/files/documents/labs?sig=1',
          filename: 'labs.pdf',
          expires_at: '2026-11-24T10:05:00.000Z',
        },
      }),
      'GET /api/files/documents/labs': () => ({ body: undefined }),
    });
    await screen.findByRole('heading', { level: 1, name: 'Patient Summary' });
    await userEvent
      .setup()
      .click(within(card('Current Medical Conditions')).getAllByRole('button', { name: 'labs.pdf, page 2' })[0]);
    const preview = await screen.findByLabelText('Preview of labs.pdf');
    expect(preview).toHaveAttribute('data', 'blob:https://localhost/labs#page=2');
    expect(screen.getByRole('heading', { name: 'labs.pdf, page 2' })).toBeInTheDocument();
    expect(server.calls.some((call) => call.path === '/api/get-document-download-link/d-labs/')).toBe(true);
  });

  it('asks again every 2 seconds while the documents are being read, and stops once the summary is ready', async () => {
    let answers = 0;
    const processing = summary({
      status: 'processing',
      documents: [
        { document_id: 'd-labs', filename: 'labs.pdf', state: 'read', problems: [] },
        { document_id: 'd-letter', filename: 'letter.pdf', state: 'processing', problems: [] },
        { document_id: 'd-scan', filename: 'scan.png', state: 'pending', problems: [] },
      ],
    });
    const { server } = show({
      'GET /api/summary/': () => {
        answers += 1;
        return { body: [answers < 2 ? processing : summary()] };
      },
    });
    expect(await screen.findByText('Reading 2 of 3 documents…')).toBeInTheDocument();
    expect(screen.getByText(/Still to read: letter\.pdf, scan\.png/)).toBeInTheDocument();
    expect(await screen.findByText(/^Updated/, undefined, { timeout: 5000 })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(gets(server.calls)).toHaveLength(2);
  }, 15_000);

  it('says plainly "This link is not valid." on a 404, whatever the reason', async () => {
    show({ 'GET /api/summary/': () => ({ status: 404, body: { message: 'This link is not valid.', code: 'NOT_FOUND' } }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'This link is not valid.' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Patient Summary' })).not.toBeInTheDocument();
  });

  it('offers a signed-out visitor to log in and come back', async () => {
    clearTokens();
    show({ 'GET /api/summary/': () => ({ status: 404, body: { message: 'Summary not found.', code: 'NOT_FOUND' } }) });
    expect(await screen.findByRole('link', { name: 'Log in' })).toHaveAttribute(
      'href',
      `/login?next=${encodeURIComponent(`/summary/${patient}`)}`,
    );
  });

  it('shows the sample summary without asking the server', async () => {
    const { server } = show({}, '/summary/sample');
    expect(await screen.findByRole('heading', { level: 1, name: 'Patient Summary' })).toBeInTheDocument();
    expect(screen.getByText(/A sample, for a made-up patient/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Review' })).not.toBeInTheDocument();
    expect(gets(server.calls)).toHaveLength(0);
  });
});

describe('a shared summary (through a share link)', () => {
  const shareId = 'kq3C1uXW0pDq3b0F7nHqXg';
  const shared = () =>
    summary({
      version: 2,
      confirmed_version: 2,
      documents: [],
      shared: { label: 'For Dr Lee', expires_at: '2027-01-01T00:00:00.000Z' },
      sections: sections().map((s) => ({ ...s, facts: s.facts.filter((f) => !f.hidden).map((f) => ({ ...f, sources: [], edited: false, added_by_patient: false })) })),
    });

  it('shows it read-only: the label and expiry, the cards, no review, no documents', async () => {
    clearTokens();
    show({ 'GET /api/summary/': () => ({ body: [shared()] }) }, `/summary/${shareId}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Patient Summary' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Shared through "For Dr Lee". Confirmed by the patient');
    expect(screen.getByRole('status')).toHaveTextContent('This link expires');
    expect(within(card('Medications')).getByText('Metformin 500 mg by mouth twice daily')).toBeInTheDocument();
    expect(screen.queryByText('Atorvastatin 20 mg')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Review' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.queryByText(/could not be read/)).not.toBeInTheDocument();
    // A doctor can take it away: the PDF (A4, Letter) and the FHIR IPS Bundle of the same link.
    expect(screen.getByRole('link', { name: 'PDF (A4)' })).toHaveAttribute('href', `/api/summary/pdf/?user=${shareId}&size=a4`);
    // The FHIR Bundle is no longer raw JSON in a tab: a download and a readable view (PatientIdentity.spec.tsx).
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'View' })).toBeInTheDocument();
  });

  it('shows the trends the link includes: a table per test with flags in words, document names without links, and the chart', async () => {
    clearTokens();
    const trends = [
      {
        key: 'ldl',
        name: 'LDL cholesterol',
        category: 'result' as const,
        unit: 'mg/dL',
        ucum: 'mg/dL',
        codes: [],
        points: [
          { date: '2019-03-04', value: 96, original: { value: 96, unit: 'mg/dL' }, range: { low: null, high: 100, text: null }, flag: 'normal' as const, flag_from: 'range' as const, interpretation: null, sources: [{ document_id: null, filename: 'clinic-a.xml', page: null }] },
          { date: '2021-06-22', value: 162, original: { value: 162, unit: 'mg/dL' }, range: { low: null, high: 100, text: null }, flag: 'high' as const, flag_from: 'source' as const, interpretation: 'H', sources: [{ document_id: null, filename: 'labs.pdf', page: 2 }] },
        ],
      },
    ];
    show({ 'GET /api/summary/': () => ({ body: [{ ...shared(), trends }] }) }, `/summary/${shareId}`);
    const section = await screen.findByTestId('shared-trends');
    const table = within(section).getByRole('table', { name: 'LDL cholesterol (mg/dL)' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(nth(rows, 0)).getByText('162 mg/dL')).toBeInTheDocument();
    expect(nth(rows, 0).querySelector('[data-flag="high"]')).toHaveTextContent('▲ High');
    expect(within(nth(rows, 0)).getByText('labs.pdf, page 2')).toBeInTheDocument();
    expect(within(section).queryByRole('button')).not.toBeInTheDocument();
    const chart = await within(section).findByTestId('trend-chart');
    expect(chart).toHaveAccessibleName(/1 out of range/);
  });

  it('shows no trends before the patient reviewed anything, even if the link includes some', async () => {
    clearTokens();
    const unreviewed = summary({ summary: '', status: 'unreviewed', version: 0, confirmed_version: null, documents: [], sections: [], shared: { label: 'My summary link', expires_at: '2027-01-01T00:00:00.000Z' } });
    show({ 'GET /api/summary/': () => ({ body: [{ ...unreviewed, trends: [{ key: 'ldl', name: 'LDL cholesterol', category: 'result', unit: 'mg/dL', ucum: null, codes: [], points: [] }] }] }) }, `/summary/${shareId}`);
    expect(await screen.findByTestId('not-reviewed')).toBeInTheDocument();
    expect(screen.queryByTestId('shared-trends')).not.toBeInTheDocument();
  });

  it('before the patient reviewed anything, says so plainly and claims nothing about any section', async () => {
    clearTokens();
    const unreviewed = summary({ summary: '', status: 'unreviewed', version: 0, confirmed_version: null, documents: [], sections: [], shared: { label: 'My summary link', expires_at: '2027-01-01T00:00:00.000Z' } });
    show({ 'GET /api/summary/': () => ({ body: [unreviewed] }) }, `/summary/${shareId}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Patient Summary' })).toBeInTheDocument();
    expect(screen.getByTestId('not-reviewed')).toHaveTextContent('The patient has not reviewed this summary yet.');
    expect(screen.getByTestId('not-reviewed')).toHaveTextContent('This link expires');
    expect(screen.queryByText('Not recorded')).not.toBeInTheDocument();
    expect(screen.queryByText(/Nothing in your documents mentions this/)).not.toBeInTheDocument();
    for (const title of ['Current Medical Conditions', 'Medications', 'Allergies']) expect(screen.queryByRole('region', { name: title })).not.toBeInTheDocument();
    expect(screen.queryByText(/Confirmed by the patient/)).not.toBeInTheDocument();
  });

  it('asks for the passcode first, says how many tries are left, and then shows the summary with the view token', async () => {
    clearTokens();
    let tries = 0;
    const { server } = show(
      {
        'GET /api/summary/': (call) =>
          call.path.includes('view_token=1.tok') ? { body: [shared()] } : { status: 403, body: { message: 'This link needs a passcode.', code: 'FORBIDDEN' } },
        'POST /api/summary/unlock/': (call) =>
          (call.body as { passcode: string }).passcode === 'blue-heron'
            ? { body: { view_token: '1.tok', expires_at: '2027-01-01T00:00:00Z' } }
            : { status: 401, body: { message: `Wrong passcode. ${4 - tries++} attempts left.`, code: 'UNAUTHENTICATED' } },
      },
      `/summary/${shareId}`,
    );
    const user = userEvent.setup();
    const field = await screen.findByLabelText('Passcode');
    await user.type(field, 'guess');
    await user.click(screen.getByRole('button', { name: 'Open the summary' }));
    expect(await screen.findByText('Wrong passcode. 4 attempts left.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'blue-heron');
    await user.click(screen.getByRole('button', { name: 'Open the summary' }));
    expect(await screen.findByText(/Shared through "For Dr Lee"/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'PDF (Letter)' })).toHaveAttribute('href', `/api/summary/pdf/?user=${shareId}&view_token=1.tok&size=letter`);
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { user: shareId, passcode: 'guess' },
      { user: shareId, passcode: 'blue-heron' },
    ]);
  });

  it("sends the view token with a doctor's 'View past medical history' on a passcode link (the link asks for it)", async () => {
    storeTokens({ access: 'a', refresh: 'r' });
    const { server } = show(
      {
        'GET /api/profile/': () => ({ body: { id: 'u1', first_name: 'Ana', last_name: '', email: 'a@example.com', phone: '', profile_picture: null, date_of_birth: null, email_verified: true, roles: ['patient', 'provider'], provider: null } }),
        'GET /api/summary/': (call) =>
          call.path.includes('view_token=1.tok') ? { body: [shared()] } : { status: 403, body: { message: 'This link needs a passcode.', code: 'FORBIDDEN' } },
        'POST /api/summary/unlock/': () => ({ body: { view_token: '1.tok', expires_at: '2027-01-01T00:00:00Z' } }),
        'POST /api/providers/access-requests/': () => ({ body: { message: 'Your request was sent to the patient. You will see their documents once they approve it.', state: 'pending', patient_id: null } }),
      },
      `/summary/${shareId}`,
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Passcode'), 'blue-heron');
    await user.click(screen.getByRole('button', { name: 'Open the summary' }));
    const button = await screen.findByRole('button', { name: 'View past medical history' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    expect(await screen.findByText('Your request was sent to the patient. You will see their documents once they approve it.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/providers/access-requests/')?.body).toEqual({ share_id: shareId, view_token: '1.tok' });
    clearTokens();
  });

  it('says the link is not valid when the passcode answer is 404 (locked)', async () => {
    clearTokens();
    show(
      {
        'GET /api/summary/': () => ({ status: 403, body: { message: 'This link needs a passcode.', code: 'FORBIDDEN' } }),
        'POST /api/summary/unlock/': () => ({ status: 404, body: { message: 'This link is not valid.', code: 'NOT_FOUND' } }),
      },
      `/summary/${shareId}`,
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Passcode'), 'x1234');
    await user.click(screen.getByRole('button', { name: 'Open the summary' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'This link is not valid.' })).toBeInTheDocument();
  });
});

describe('review mode', () => {
  /** Opens review mode on a page whose every review call answers the summary item, and counts the reloads. */
  async function reviewing(routes: Routes = {}) {
    const reply = () => ({ body: [summary()] });
    const view = show({
      'POST /api/summary/facts/f-met/hide/': reply,
      'PUT /api/summary/facts/f-met/': reply,
      'POST /api/summary/facts/': reply,
      'DELETE /api/summary/facts/f-mine/': reply,
      'POST /api/summary/confirm/': () => ({ body: [summary({ confirmed_version: 3 })] }),
      ...routes,
    });
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Patient Summary' });
    await user.click(screen.getByRole('button', { name: 'Review' }));
    expect(screen.getByRole('button', { name: 'Review' })).toHaveAttribute('aria-pressed', 'true');
    return { ...view, user };
  }

  const reloaded = async (calls: RecordedCall[]) => waitFor(() => expect(gets(calls)).toHaveLength(2));

  it("opens in review mode from the dashboard's 'Review your summary first' (?review=1)", async () => {
    show({}, `/summary/${patient}?review=1`);
    await screen.findByRole('heading', { level: 1, name: 'Patient Summary' });
    expect(screen.getByRole('button', { name: 'Review' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Confirm summary' })).toBeInTheDocument();
  });

  it('is off at first: no review buttons', async () => {
    show();
    await screen.findByRole('heading', { level: 1, name: 'Patient Summary' });
    expect(screen.queryByRole('button', { name: /^Hide/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm summary' })).not.toBeInTheDocument();
  });

  it('hides a fact and shows a hidden one again, then reloads the summary', async () => {
    const { user, server } = await reviewing({ 'POST /api/summary/facts/f-ator/hide/': () => ({ body: [summary()] }) });
    await user.click(screen.getByRole('button', { name: 'Hide: Metformin 500 mg by mouth twice daily' }));
    await reloaded(server.calls);
    expect(server.calls.find((call) => call.path === '/api/summary/facts/f-met/hide/')).toMatchObject({
      method: 'POST',
      body: { hidden: true },
    });
    await user.click(screen.getByRole('button', { name: 'Show: Atorvastatin 20 mg' }));
    await waitFor(() =>
      expect(server.calls.find((call) => call.path === '/api/summary/facts/f-ator/hide/')).toMatchObject({
        body: { hidden: false },
      }),
    );
  });

  it('edits a fact inline, refusing more than 300 characters', async () => {
    const { user, server } = await reviewing();
    await user.click(screen.getByRole('button', { name: 'Edit: Metformin 500 mg by mouth twice daily' }));
    const box = screen.getByLabelText('Corrected text');
    await user.clear(box);
    await user.click(box);
    await user.paste('x'.repeat(301));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Limit exceeded (300 characters)')).toBeInTheDocument();
    expect(server.calls.some((call) => call.method === 'PUT')).toBe(false);

    await user.clear(box);
    await user.type(box, 'Metformin 1000 mg twice daily');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await reloaded(server.calls);
    expect(server.calls.find((call) => call.method === 'PUT')).toMatchObject({
      path: '/api/summary/facts/f-met/',
      body: { text: 'Metformin 1000 mg twice daily' },
    });
    expect(screen.queryByLabelText('Corrected text')).not.toBeInTheDocument();
  });

  it('adds a fact to a section, and removes one the patient added (only those can be removed)', async () => {
    const { user, server } = await reviewing();
    const past = card('Past Medical History');
    await user.click(within(past).getByRole('button', { name: 'Add to Past Medical History' }));
    await user.type(within(past).getByLabelText('New entry for Past Medical History'), 'Appendix removed in 2001');
    await user.click(within(past).getByRole('button', { name: 'Add' }));
    await reloaded(server.calls);
    expect(server.calls.find((call) => call.path === '/api/summary/facts/' && call.method === 'POST')).toMatchObject({
      body: { section: 'past_history', text: 'Appendix removed in 2001' },
    });

    expect(
      screen.queryByRole('button', { name: 'Remove: Metformin 500 mg by mouth twice daily' }),
    ).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove: Vitamin D 1000 IU daily' }));
    await waitFor(() =>
      expect(server.calls.find((call) => call.method === 'DELETE')).toMatchObject({
        path: '/api/summary/facts/f-mine/',
      }),
    );
  });

  it('confirms the version shown', async () => {
    const { user, server } = await reviewing();
    await user.click(screen.getByRole('button', { name: 'Confirm summary' }));
    expect(await screen.findByText('Thank you: you confirmed this summary.')).toBeInTheDocument();
    expect(server.calls.find((call) => call.path === '/api/summary/confirm/')).toMatchObject({
      method: 'POST',
      body: { version: 3 },
    });
    await reloaded(server.calls);
  });

  it('on 409 (a newer version exists) says so and reloads the summary', async () => {
    let version = 3;
    const { user, server } = await reviewing({
      'GET /api/summary/': () => ({ body: [summary({ version })] }),
      'POST /api/summary/confirm/': () => {
        version = 4;
        return { status: 409, body: { message: 'The summary changed; review the new version.', code: 'CONFLICT' } };
      },
    });
    await user.click(screen.getByRole('button', { name: 'Confirm summary' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The summary changed; review the new version.');
    await waitFor(() => expect(gets(server.calls).length).toBeGreaterThanOrEqual(2));
    await user.click(screen.getByRole('button', { name: 'Confirm summary' }));
    await waitFor(() =>
      expect(server.calls.filter((call) => call.path === '/api/summary/confirm/').map((call) => call.body)).toEqual([
        { version: 3 },
        { version: 4 },
      ]),
    );
  });
});
