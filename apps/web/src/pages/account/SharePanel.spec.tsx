import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expiryChoiceOf, expiryFrom } from '../../api/sharing';
import { fakeServer } from '../../test/fake-server';
import { nth } from '../../test/nth';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import SharePanel from './SharePanel';

const link = (overrides: Record<string, unknown> = {}) => ({
  id: '6c0e3c1e-0000-4000-8000-000000000001',
  share_id: 'kq3C1uXW0pDq3b0F7nHqXg',
  url: 'https://app.medfolio.example/summary/kq3C1uXW0pDq3b0F7nHqXg',
  label: 'For Dr Lee',
  purpose: 'custom',
  version: 1,
  created_at: '2026-01-01T00:00:00Z',
  expires_at: null,
  revoked_at: null,
  has_passcode: true,
  locked: false,
  notify_on_view: false,
  providers_may_see_documents: false,
  view_count: 3,
  last_viewed_at: '2026-01-02T10:00:00Z',
  shl: null,
  qr_text: 'https://app.medfolio.example/summary/kq3C1uXW0pDq3b0F7nHqXg',
  ...overrides,
});

beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));
afterEach(() => clearTokens());

describe('the share panel', () => {
  it('lists links with their URL, views, passcode; makes a link with a passcode, an expiry preset and e-mail on view', async () => {
    const links = [link(), link({ id: '6c0e3c1e-0000-4000-8000-000000000002', label: 'Old', revoked_at: '2026-01-03T00:00:00Z' })];
    const server = fakeServer({
      'GET /api/share-links/': () => ({ body: links }),
      'POST /api/share-links/': (call) => {
        links.unshift(link({ id: '6c0e3c1e-0000-4000-8000-000000000003', label: (call.body as { label: string }).label, view_count: 0 }));
        return { status: 201, body: links[0] };
      },
    });
    renderPage(<SharePanel />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Share your summary' })).toBeInTheDocument();
    const first = nth(screen.getAllByTestId('share-link'), 0);
    expect(within(first).getByRole('textbox', { name: 'Link "For Dr Lee"' })).toHaveValue(link().url);
    expect(within(first).getByTestId('view-count')).toHaveTextContent(/^3 \(last/);
    expect(screen.getByRole('heading', { name: 'Revoked (1)' })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name of the link'), 'For the dentist');
    await user.selectOptions(nth(screen.getAllByLabelText('Expires'), 0), '7');
    await user.type(screen.getByLabelText('Passcode (optional)'), 'blue-heron');
    await user.click(nth(screen.getAllByLabelText('E-mail me when it is opened (at most once an hour)'), 0));
    await user.click(screen.getByRole('button', { name: 'Make link' }));
    expect(await screen.findByText('Link "For the dentist" made.')).toBeInTheDocument();
    const post = server.calls.find((c) => c.method === 'POST');
    expect(post?.body).toMatchObject({ label: 'For the dentist', passcode: 'blue-heron', notify_on_view: true, providers_may_see_documents: false });
    expect(post?.body).not.toHaveProperty('trends');
    const expires = new Date((post?.body as { expires_at: string }).expires_at).getTime();
    expect(Math.abs(expires - (Date.now() + 7 * 24 * 3600 * 1000))).toBeLessThan(60_000);
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Your links (2)' })).toBeInTheDocument());
  });

  it('makes a link that shares chosen trends, loading the series only when asked, and changes them on a link', async () => {
    const series = (key: string, name: string, points: number) => ({ key, name, category: 'result', unit: 'mg/dL', ucum: 'mg/dL', codes: [], points: Array.from({ length: points }, (_, i) => ({ date: `202${i}`, value: i, original: { value: i, unit: 'mg/dL' }, range: null, flag: null, flag_from: null, interpretation: null, sources: [] })) });
    const server = fakeServer({
      'GET /api/share-links/': () => ({ body: [link({ trends: ['ldl'] })] }),
      'GET /api/trends/': () => ({ body: { access: 'full', series: [series('hba1c', 'Hemoglobin A1c', 2), series('ldl', 'LDL cholesterol', 1)], locked: [], timeline: [], generated_at: '2026-01-01T00:00:00Z' } }),
      'POST /api/share-links/': (call) => ({ status: 201, body: link({ id: '6c0e3c1e-0000-4000-8000-000000000009', label: 'With trends', trends: (call.body as { trends?: string[] }).trends ?? [] }) }),
      'PATCH /api/share-links/6c0e3c1e-0000-4000-8000-000000000001/': (call) => ({ body: link({ trends: (call.body as { trends: string[] }).trends }) }),
    });
    renderPage(<SharePanel />);
    expect(await screen.findByTestId('link-trends')).toHaveTextContent('1 test shared');
    expect(server.calls.some((c) => c.path === '/api/trends/')).toBe(false);
    const user = userEvent.setup();
    const form = screen.getByRole('heading', { name: 'Make a new link' }).closest('form') as HTMLElement;
    await user.click(within(form).getByRole('button', { name: 'Choose trends' }));
    await user.click(await within(form).findByRole('checkbox', { name: /Hemoglobin A1c/ }));
    await user.type(screen.getByLabelText('Name of the link'), 'With trends');
    await user.click(screen.getByRole('button', { name: 'Make link' }));
    expect(await screen.findByText('Link "With trends" made.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ label: 'With trends', trends: ['hba1c'] });

    // On the existing link: its shared trend is ticked; untick it, tick the other, save.
    const card = nth(screen.getAllByTestId('share-link'), 0);
    await user.click(within(card).getByText('Change'));
    await user.click(within(card).getByRole('button', { name: 'Choose trends (1 chosen)' }));
    expect(await within(card).findByRole('checkbox', { name: /LDL cholesterol/ })).toBeChecked();
    await user.click(within(card).getByRole('checkbox', { name: /LDL cholesterol/ }));
    await user.click(within(card).getByRole('checkbox', { name: /Hemoglobin A1c/ }));
    await user.click(within(card).getByRole('button', { name: 'Save trends' }));
    expect(await screen.findByText('This link now shares 1 trend.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ trends: ['hba1c'] });
  });

  it('revokes a link after asking', async () => {
    const server = fakeServer({
      'GET /api/share-links/': () => ({ body: [link()] }),
      'POST /api/share-links/6c0e3c1e-0000-4000-8000-000000000001/revoke/': () => ({ body: link({ revoked_at: '2026-01-04T00:00:00Z' }) }),
    });
    renderPage(<SharePanel />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke now' }));
    expect(await screen.findByText('"For Dr Lee" no longer opens your summary.')).toBeInTheDocument();
    expect(server.calls.some((c) => c.method === 'POST' && c.path.endsWith('/revoke/'))).toBe(true);
  });

  it("says that revoking the wallet pass's link retires the pass", async () => {
    fakeServer({ 'GET /api/share-links/': () => ({ body: [link(), link({ id: '6c0e3c1e-0000-4000-8000-000000000003', label: 'Wallet card', purpose: 'wallet' })] }) });
    renderPage(<SharePanel />);
    const user = userEvent.setup();
    const cards = await screen.findAllByTestId('share-link');
    await user.click(within(nth(cards, 0)).getByRole('button', { name: 'Revoke' }));
    expect(screen.getByRole('dialog')).not.toHaveTextContent('retired');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await user.click(within(nth(cards, 1)).getByRole('button', { name: 'Revoke' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('the pass is retired for good (it no longer updates, also on any copy). To carry a pass again, issue a new one from your dashboard.');
  });

  it('turns a link into a SMART Health Link, whose QR then carries it, and offers the PDF of a link without passcode', async () => {
    const shl = 'shlink:/eyJ1cmwiOiJodHRwczovL2FwcC5tZWRmb2xpby5leGFtcGxlL2FwaS9zdW1tYXJ5L3NobC8iLCJrZXkiOiJ4In0';
    let current = link({ has_passcode: false });
    const server = fakeServer({
      'GET /api/share-links/': () => ({ body: [current] }),
      'PATCH /api/share-links/6c0e3c1e-0000-4000-8000-000000000001/': () => {
        current = link({ has_passcode: false, shl, qr_text: `${link().url}#${shl}` });
        return { body: current };
      },
    });
    renderPage(<SharePanel />);
    const user = userEvent.setup();
    const pdf = await screen.findByRole('link', { name: 'PDF (Letter)' });
    expect(pdf).toHaveAttribute('href', '/api/summary/pdf/?user=kq3C1uXW0pDq3b0F7nHqXg&size=letter');
    await user.click(screen.getByText('Change'));
    await user.click(screen.getByLabelText("Also a SMART Health Link (doctors' apps read it as FHIR)"));
    expect(await screen.findByText('The QR code now also carries a SMART Health Link.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ shl: true });
    await user.click(screen.getByRole('button', { name: 'QR' }));
    expect(await screen.findByText(/a doctor's SMART Health Link app reads it as FHIR/)).toBeInTheDocument();
  });

  it("shows the patient's name and date of birth by default, explained, and makes a link anonymous when asked", async () => {
    let current = link();
    const server = fakeServer({
      'GET /api/share-links/': () => ({ body: [current] }),
      'POST /api/share-links/': (call) => ({ status: 201, body: link({ id: '6c0e3c1e-0000-4000-8000-000000000003', label: (call.body as { label: string }).label }) }),
      'PATCH /api/share-links/6c0e3c1e-0000-4000-8000-000000000001/': (call) => {
        current = link({ ...(call.body as object) });
        return { body: current };
      },
    });
    renderPage(<SharePanel />);
    const user = userEvent.setup();
    await screen.findByRole('heading', { level: 1, name: 'Share your summary' });
    // On a new link: on by default, with one line saying why.
    const make = nth(screen.getAllByRole('checkbox', { name: 'Show my name and date of birth' }), 0);
    expect(make).toBeChecked();
    expect(make).toHaveAccessibleDescription(/so a doctor can tell whose record it is\. Turn off only for an anonymous summary\./);
    await user.click(make);
    await user.type(screen.getByLabelText('Name of the link'), 'Second opinion');
    await user.click(screen.getByRole('button', { name: 'Make link' }));
    expect(await screen.findByText('Link "Second opinion" made.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'POST')?.body).toMatchObject({ label: 'Second opinion', show_patient_identity: false });

    // On an existing link: a link without the field (older answers) counts as shown; turning it off is saved.
    const card = nth(screen.getAllByTestId('share-link'), 0);
    expect(card).toHaveTextContent('Your name and date of birth: shown');
    await user.click(within(card).getByText('Change'));
    await user.click(within(card).getByRole('checkbox', { name: 'Show my name and date of birth' }));
    expect(await screen.findByText('This link is now anonymous: no name or date of birth.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ show_patient_identity: false });
    await waitFor(() => expect(nth(screen.getAllByTestId('share-link'), 0)).toHaveTextContent('Your name and date of birth: not shown (anonymous)'));
  });
});

describe('the share form starts each link afresh (first use, round 2)', () => {
  it('puts every setting back to its default after a link is made, so the next one does not inherit them', async () => {
    const links = [link()];
    fakeServer({
      'GET /api/share-links/': () => ({ body: links }),
      'POST /api/share-links/': (call) => {
        links.unshift(link({ id: '6c0e3c1e-0000-4000-8000-000000000004', label: (call.body as { label: string }).label }));
        return { status: 201, body: links[0] };
      },
    });
    renderPage(<SharePanel />);
    await screen.findByRole('heading', { level: 1, name: 'Share your summary' });
    const user = userEvent.setup();
    const form = screen.getByRole('heading', { name: 'Make a new link' }).closest('form')!;
    const inForm = within(form);
    await user.type(inForm.getByLabelText('Name of the link'), 'For the dentist');
    await user.selectOptions(inForm.getByLabelText('Expires'), '7');
    await user.click(inForm.getByLabelText('E-mail me when it is opened (at most once an hour)'));
    await user.click(inForm.getByLabelText('Care providers may ask to see my documents'));
    await user.click(inForm.getByLabelText('Show my name and date of birth'));
    await user.click(inForm.getByRole('button', { name: 'Make link' }));
    expect(await screen.findByText('Link "For the dentist" made.')).toBeInTheDocument();
    expect(inForm.getByLabelText('Name of the link')).toHaveValue('');
    expect(inForm.getByLabelText('Expires')).toHaveValue('30');
    expect(inForm.getByLabelText('E-mail me when it is opened (at most once an hour)')).not.toBeChecked();
    expect(inForm.getByLabelText('Care providers may ask to see my documents')).not.toBeChecked();
    expect(inForm.getByLabelText('Show my name and date of birth')).toBeChecked();
  });

  it("shows a link's own expiry in its Change panel, never 'Never' for a link that expires", async () => {
    fakeServer({ 'GET /api/share-links/': () => ({ body: [link({ expires_at: '2026-12-03T12:00:00Z' }), link({ id: '6c0e3c1e-0000-4000-8000-000000000005', label: 'Forever' })] }) });
    renderPage(<SharePanel />);
    const [expiring, forever] = await screen.findAllByTestId('share-link');
    expect(within(expiring!).getByLabelText('Expires')).toHaveValue('date');
    expect(within(expiring!).getByLabelText('Expiry date')).toHaveValue(expiryChoiceOf('2026-12-03T12:00:00Z').date);
    expect(within(forever!).getByLabelText('Expires')).toHaveValue('never');
  });
});

describe('expiryChoiceOf', () => {
  it("gives a link's expiry as the local day it ends, and Never only without one", () => {
    const end = new Date(2026, 11, 3, 15, 30);
    expect(expiryChoiceOf(end.toISOString())).toEqual({ choice: 'date', date: '2026-12-03' });
    expect(expiryChoiceOf(null)).toEqual({ choice: 'never', date: '' });
  });
});

describe('expiryFrom', () => {
  const now = new Date(2026, 0, 10, 12, 0, 0);
  it('turns presets and a date into the API expiry; a past or missing date is refused', () => {
    expect(expiryFrom('never', '', now)).toBeNull();
    expect(expiryFrom('1', '', now)).toBe(new Date(2026, 0, 11, 12, 0, 0).toISOString());
    expect(expiryFrom('date', '2026-02-01', now)).toBe(new Date(2026, 1, 1, 23, 59, 59).toISOString());
    expect(expiryFrom('date', '2026-01-01', now)).toBeUndefined();
    expect(expiryFrom('date', '', now)).toBeUndefined();
  });
});
