import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encode } from 'uqr';
import { fakeServer } from '../../../test/fake-server';
import { nth } from '../../../test/nth';
import { renderPage } from '../../../test/render';
import { ActionButtons, qrFilename } from './ActionButtons';

const userId = '0f8b2c7e-5d1a-4c3b-9e2f-6a7b8c9d0e1f';
const shareId = 'kq3C1uXW0pDq3b0F7nHqXg';
const defaultUrl = `https://app.medfolio.example/summary/${shareId}`;
const defaultLink = {
  id: '6c0e3c1e-0000-4000-8000-000000000001', share_id: shareId, url: defaultUrl, label: 'My summary link', purpose: 'default', version: 1,
  created_at: '2026-01-01T00:00:00Z', expires_at: '2026-01-31T00:00:00Z', revoked_at: null, has_passcode: false, locked: false, notify_on_view: false,
  providers_may_see_documents: false, view_count: 0, last_viewed_at: null, shl: null, qr_text: defaultUrl,
};
const withDefaultLink = { 'GET /api/share-links/default/': () => ({ body: defaultLink }) };

describe('the three actions', () => {
  it("View Summary opens the owner's own summary page, never a share link; loading the dashboard makes no link", async () => {
    const server = fakeServer({ ...withDefaultLink, 'GET /api/wallet/status/': () => ({ body: { state: 'none', retired_at: null } }) });
    renderPage(<ActionButtons userId={userId} />);
    expect(screen.getByRole('link', { name: 'View Summary' })).toHaveAttribute('href', `/summary/${userId}`);
    await waitFor(() => expect(server.calls.some((c) => c.path.startsWith('/api/summary/')) && server.calls.some((c) => c.path === '/api/wallet/status/')).toBe(true));
    // Everything the dashboard asks for on load has been asked: no share link, no pass.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.calls.filter((c) => c.path.startsWith('/api/share-links/') || c.path === '/api/get-pass-url/')).toEqual([]);
    expect(screen.getByRole('link', { name: 'View Summary' })).toHaveAttribute('href', `/summary/${userId}`);
    expect(screen.getByRole('link', { name: 'Share links' })).toHaveAttribute('href', '/share');
  });

  it('waits for the user before offering the QR code and the summary link', () => {
    renderPage(<ActionButtons userId={null} />);
    expect(screen.getByRole('button', { name: 'QR Code' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'View Summary' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'View Summary' })).not.toBeInTheDocument();
  });
});

describe('the wallet pass', () => {
  let clicks: { href: string; download: string; target: string }[];
  const passUrl = '/api/files/wallet-passes/6f1c1c9e-0d7b-4c1e-9d3a-1f2e3d4c5b6a/0123456789abcdef0123456789abcdef.pkpass?expires=1&signature=s';

  beforeEach(() => {
    clicks = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download, target: this.target });
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it("Generate Apple Wallet Pass: loading, the download as medfolio_{userId}.pkpass, then the 'Apple Wallet Pass' link", async () => {
    let answer: (value: { body: unknown }) => void = () => undefined;
    const server = fakeServer({ 'GET /api/get-pass-url/': () => new Promise((resolve) => (answer = resolve)) });
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await user.click(screen.getByRole('button', { name: 'Generate Apple Wallet Pass' }));
    const busy = await screen.findByRole('button', { name: 'Generating…' });
    expect(busy).toBeDisabled();
    answer({ body: { url: passUrl } });
    const link = await screen.findByRole('link', { name: 'Apple Wallet Pass' });
    expect(link).toHaveAttribute('href', passUrl);
    expect(link).toHaveAttribute('download', `medfolio_${userId}.pkpass`);
    expect(clicks).toEqual([{ href: `https://localhost${passUrl}`, download: `medfolio_${userId}.pkpass`, target: '' }]);
    expect(screen.queryByRole('button', { name: 'Generate Apple Wallet Pass' })).not.toBeInTheDocument();
    expect(server.calls.filter((c) => c.path === '/api/get-pass-url/')).toHaveLength(1);
  });

  it('shows the error when the pass cannot be made, and the button stays for another try', async () => {
    fakeServer({ 'GET /api/get-pass-url/': () => ({ status: 503, body: { code: 'UNAVAILABLE', message: 'The wallet pass could not be made right now. Please try again.' } }) });
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await user.click(screen.getByRole('button', { name: 'Generate Apple Wallet Pass' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The wallet pass could not be made right now. Please try again.');
    expect(screen.getByRole('button', { name: 'Generate Apple Wallet Pass' })).toBeEnabled();
    expect(clicks).toEqual([]);
  });

  it('says the last pass was retired (its link revoked) and issues a new one', async () => {
    let state = 'retired';
    const server = fakeServer({
      'GET /api/wallet/status/': () => ({ body: { state, retired_at: state === 'retired' ? '2026-03-04T10:00:00Z' : null } }),
      'GET /api/get-pass-url/': () => {
        state = 'active';
        return { body: { url: passUrl } };
      },
    });
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    const notice = await screen.findByText(/Your wallet pass was retired on .*: its link was revoked/);
    expect(notice).toHaveTextContent('its QR code no longer opens your summary and the card no longer updates. Issue a new pass below');
    const issue = screen.getByRole('button', { name: 'Issue a new Apple Wallet Pass' });
    expect(issue).toHaveAccessibleDescription(notice.textContent ?? '');
    // Nothing is issued until the patient asks.
    expect(server.calls.some((c) => c.path === '/api/get-pass-url/')).toBe(false);
    await user.click(issue);
    expect(await screen.findByRole('link', { name: 'Apple Wallet Pass' })).toHaveAttribute('href', passUrl);
    expect(screen.queryByText(/Your wallet pass was retired/)).not.toBeInTheDocument();
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/wallet/status/')).toHaveLength(2));
  });

  it('offers Save to Google Wallet only when the server says Google Wallet is configured, and opens its link', async () => {
    renderPage(<ActionButtons userId={userId} />);
    await screen.findByRole('button', { name: 'Generate Apple Wallet Pass' });
    expect(screen.queryByRole('button', { name: 'Save to Google Wallet' })).not.toBeInTheDocument();
  });

  it('opens the Google Wallet Save link in a new tab', async () => {
    const save = 'https://pay.google.com/gp/v/save/eyJhbGciOiJSUzI1NiJ9.e30.c2ln';
    fakeServer({
      'GET /api/client-config/': () => ({ body: { google_client_id: null, google_authorization_url: 'http://google.test/auth', google_wallet: true } }),
      'GET /api/wallet/google/': () => ({ body: { url: save } }),
    });
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await user.click(await screen.findByRole('button', { name: 'Save to Google Wallet' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0]).toMatchObject({ href: save, target: '_blank' });
  });
});

describe("the summary's state beside View Summary", () => {
  const item = (status: string) => ({ body: { status, version: 1, confirmed_version: null, documents: [] } });

  it.each([
    ['empty', 'Not yet'],
    ['ready', 'Ready'],
  ])('%s shows "%s", describing the link', async (status, label) => {
    const server = fakeServer({ 'GET /api/summary/status/': () => item(status) });
    renderPage(<ActionButtons userId={userId} />);
    const link = screen.getByRole('link', { name: 'View Summary' });
    await waitFor(() => expect(link).toHaveAccessibleDescription(`Summary: ${label}`));
    // The status call (no content), never the whole summary.
    expect(server.calls.some((c) => c.path === '/api/summary/status/')).toBe(true);
    expect(server.calls.some((c) => c.path.startsWith('/api/summary/?'))).toBe(false);
  });

  it('says Processing… and asks again until the summary is ready', async () => {
    let answers = 0;
    fakeServer({ 'GET /api/summary/status/': () => item(++answers < 2 ? 'processing' : 'ready') });
    renderPage(<ActionButtons userId={userId} />);
    expect(await screen.findByText('Processing…')).toBeInTheDocument();
    expect(await screen.findByText('Ready', undefined, { timeout: 5000 })).toBeInTheDocument();
  }, 10_000);

  it('follows the summary after an upload: asks again while it has not heard of a listed document, and stops once ready', async () => {
    const doc = { id: '3b9a7c1e-0000-4000-8000-00000000000d', filename: 'letter.pdf', url: null, uploaded_at: '2026-01-01T00:00:00Z', size: 10, content_type: 'application/pdf' };
    let answers = 0;
    const server = fakeServer({
      'GET /api/upload/': () => ({ body: [doc] }),
      // Just uploaded: the summary service has not heard of the document yet, then builds in one go.
      'GET /api/summary/status/': () => {
        answers += 1;
        if (answers < 3) return item('empty');
        return { body: { status: 'ready', version: 1, confirmed_version: null, documents: [{ document_id: doc.id, state: 'read' }] } };
      },
    });
    renderPage(<ActionButtons userId={userId} />);
    const link = screen.getByRole('link', { name: 'View Summary' });
    await waitFor(() => expect(link).toHaveAccessibleDescription('Summary: Not yet'));
    await waitFor(() => expect(link).toHaveAccessibleDescription('Summary: Ready'), { timeout: 7000 });
    const asked = server.calls.filter((c) => c.path.startsWith('/api/summary/')).length;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(server.calls.filter((c) => c.path.startsWith('/api/summary/')).length).toBe(asked);
  }, 15_000);

  it('shows no state when the summary cannot be had', async () => {
    const server = fakeServer({});
    renderPage(<ActionButtons userId={userId} />);
    await waitFor(() => expect(server.calls.filter((c) => c.path.startsWith('/api/summary/'))).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'View Summary' })).toHaveAccessibleDescription('');
  });
});

describe('the QR modal', () => {
  let clicks: { href: string; download: string }[];
  let painted: [number, number, number, number][];
  let blobs: Blob[];

  beforeEach(() => {
    clicks = [];
    painted = [];
    blobs = [];
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.href, download: this.download });
    });
    // jsdom has no canvas: a 2D context that records what is painted, and a PNG Blob.
    const context = { fillStyle: '', fillRect: (x: number, y: number, w: number, h: number) => void painted.push([x, y, w, h]) };
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => context as unknown as CanvasRenderingContext2D);
    jest.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation(function (this: HTMLCanvasElement, callback: BlobCallback, type?: string) {
      callback(new Blob([`${this.width}x${this.height}`], { type: type ?? '' }));
    });
    URL.createObjectURL = jest.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:https://localhost/qr';
    });
    URL.revokeObjectURL = jest.fn();
  });
  afterEach(() => jest.restoreAllMocks());

  /** Opens the QR modal (the default link answered) and clicks Download QR once it is ready. */
  async function downloadQr() {
    fakeServer(withDefaultLink);
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await user.click(screen.getByRole('button', { name: 'QR Code' }));
    const download = within(screen.getByRole('dialog')).getByRole('button', { name: 'Download QR' });
    await waitFor(() => expect(download).toBeEnabled());
    await user.click(download);
  }

  it("shows 'Your QR Code' with the default share link's QR drawn in the page at 200x200, and closes", async () => {
    fakeServer(withDefaultLink);
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await user.click(screen.getByRole('button', { name: 'QR Code' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Your QR Code' })).toBeInTheDocument();
    const qr = await within(dialog).findByRole('img', { name: 'QR code of your summary link' });
    await waitFor(() => expect(qr.querySelector('path')).not.toBeNull());
    expect(qr).toHaveAttribute('width', '200');
    expect(qr).toHaveAttribute('height', '200');
    // Drawn locally as inline SVG (nothing from another site), module for module the link's QR code.
    const modules = encode(defaultUrl, { border: 1 }).data;
    expect(qr).toHaveAttribute('viewBox', `0 0 ${modules.length} ${modules.length}`);
    expect(qr.querySelector('path')?.getAttribute('d')?.match(/M/g)).toHaveLength(modules.flat().filter(Boolean).length);
    expect(dialog).toHaveTextContent(defaultUrl);
    expect(dialog).not.toHaveTextContent(userId);
    expect(within(dialog).getByTestId('qr-expiry')).toHaveTextContent(`This link expires on ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date('2026-01-31T00:00:00Z'))}.`);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('leads to the review first while the patient has confirmed nothing, and makes the link only when asked anyway', async () => {
    const server = fakeServer({
      ...withDefaultLink,
      'GET /api/summary/status/': () => ({ body: { status: 'ready', version: 2, confirmed_version: null, documents: [] } }),
    });
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await waitFor(() => expect(screen.getByRole('link', { name: 'View Summary' })).toHaveAccessibleDescription('Summary: Ready'));
    await user.click(screen.getByRole('button', { name: 'QR Code' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByTestId('qr-review-first')).toHaveTextContent('You have not reviewed your summary yet.');
    expect(within(dialog).getByRole('link', { name: 'Review your summary first' })).toHaveAttribute('href', `/summary/${userId}?review=1`);
    expect(within(dialog).queryByRole('img', { name: 'QR code of your summary link' })).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Download QR' })).toBeDisabled();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.calls.some((c) => c.path === '/api/share-links/default/')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Show the QR code anyway' }));
    expect(await within(dialog).findByRole('img', { name: 'QR code of your summary link' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('qr-review-first')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path === '/api/share-links/default/')).toHaveLength(1);
  });

  it('asks for the default link only when opened, and changes its expiry there', async () => {
    let current: Omit<typeof defaultLink, 'expires_at'> & { expires_at: string | null } = defaultLink;
    const server = fakeServer({
      ...withDefaultLink,
      'GET /api/share-links/default/': () => ({ body: current }),
      'PATCH /api/share-links/6c0e3c1e-0000-4000-8000-000000000001/': (call) => {
        current = { ...defaultLink, expires_at: (call.body as { expires_at: string | null }).expires_at };
        return { body: current };
      },
    });
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    expect(server.calls.some((c) => c.path === '/api/share-links/default/')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'QR Code' }));
    const dialog = screen.getByRole('dialog');
    await within(dialog).findByTestId('qr-expiry');
    expect(server.calls.filter((c) => c.path === '/api/share-links/default/')).toHaveLength(1);

    await user.selectOptions(within(dialog).getByLabelText('Change the expiry'), '7');
    const before = Date.now();
    await user.click(within(dialog).getByRole('button', { name: 'Set expiry' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent(/^The link now expires on /);
    const sent = nth(server.calls.filter((c) => c.method === 'PATCH'), 0).body as { expires_at: string };
    const days = (Date.parse(sent.expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);

    await user.selectOptions(within(dialog).getByLabelText('Change the expiry'), 'never');
    await user.click(within(dialog).getByRole('button', { name: 'Set expiry' }));
    await waitFor(() => expect(within(dialog).getByTestId('qr-expiry')).toHaveTextContent('This link never expires.'));
    expect(server.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ expires_at: sent.expires_at }, { expires_at: null }]);
  });

  it('Download QR saves a 200x200 PNG named medfolio_{userId}_qr.png', async () => {
    await downloadQr();
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(qrFilename(userId)).toBe(`medfolio_${userId}_qr.png`);
    expect(clicks[0]).toEqual({ href: 'blob:https://localhost/qr', download: `medfolio_${userId}_qr.png` });
    expect(nth(blobs, 0).type).toBe('image/png');
    expect(await nth(blobs, 0).text()).toBe('200x200');

    // The white background, then one square per dark module of the summary link's QR code.
    const { data } = encode(defaultUrl, { border: 1 });
    const dark = data.flat().filter(Boolean).length;
    expect(painted[0]).toEqual([0, 0, 200, 200]);
    expect(painted).toHaveLength(1 + dark);
    expect(painted.slice(1).every(([x, y, w, h]) => x >= 0 && y >= 0 && x + w <= 200 && y + h <= 200)).toBe(true);
  });

  it('says so in the modal when the image cannot be made', async () => {
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => null);
    await downloadQr();
    expect(await screen.findByRole('alert')).toHaveTextContent('The QR image could not be saved. Please try again.');
    expect(clicks).toEqual([]);
  });
});
