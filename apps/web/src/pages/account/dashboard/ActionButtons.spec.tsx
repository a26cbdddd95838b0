import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encode } from 'uqr';
import { fakeServer } from '../../../test/fake-server';
import { nth } from '../../../test/nth';
import { renderPage } from '../../../test/render';
import { ActionButtons, qrFilename, summaryLink } from './ActionButtons';

const userId = '0f8b2c7e-5d1a-4c3b-9e2f-6a7b8c9d0e1f';

describe('the three actions', () => {
  it('View Summary goes to /summary/{userId}', () => {
    renderPage(<ActionButtons userId={userId} />);
    expect(screen.getByRole('link', { name: 'View Summary' })).toHaveAttribute('href', `/summary/${userId}`);
  });

  it('Generate Apple Wallet Pass is shown disabled, with a visible note that it comes with the wallet feature', () => {
    renderPage(<ActionButtons userId={userId} />);
    const wallet = screen.getByRole('button', { name: 'Generate Apple Wallet Pass' });
    expect(wallet).toBeDisabled();
    expect(wallet).toHaveAccessibleDescription('Coming with the wallet feature.');
    expect(screen.getByText('Coming with the wallet feature.')).toBeVisible();
  });

  it('waits for the user before offering the QR code and the summary link', () => {
    renderPage(<ActionButtons userId={null} />);
    expect(screen.getByRole('button', { name: 'QR Code' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'View Summary' })).toBeDisabled();
    expect(screen.queryByRole('link', { name: 'View Summary' })).not.toBeInTheDocument();
  });
});

describe("the summary's state beside View Summary", () => {
  const item = (status: string) => ({ body: [{ summary: '', status, version: 1, confirmed_version: null, updated_at: null, sections: [], documents: [] }] });

  it.each([
    ['empty', 'Not yet'],
    ['ready', 'Ready'],
  ])('%s shows "%s", describing the link', async (status, label) => {
    const server = fakeServer({ 'GET /api/summary/': () => item(status) });
    renderPage(<ActionButtons userId={userId} />);
    const link = screen.getByRole('link', { name: 'View Summary' });
    await waitFor(() => expect(link).toHaveAccessibleDescription(`Summary: ${label}`));
    expect(server.calls[0]).toMatchObject({ path: `/api/summary/?user=${userId}` });
  });

  it('says Processing… and asks again until the summary is ready', async () => {
    let answers = 0;
    fakeServer({ 'GET /api/summary/': () => item(++answers < 2 ? 'processing' : 'ready') });
    renderPage(<ActionButtons userId={userId} />);
    expect(await screen.findByText('Processing…')).toBeInTheDocument();
    expect(await screen.findByText('Ready', undefined, { timeout: 5000 })).toBeInTheDocument();
  }, 10_000);

  it('shows no state when the summary cannot be had', async () => {
    const server = fakeServer({});
    renderPage(<ActionButtons userId={userId} />);
    await waitFor(() => expect(server.calls).toHaveLength(1));
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

  it("shows 'Your QR Code' with the public summary link's QR drawn in the page at 200x200, and closes", async () => {
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
    const modules = encode(summaryLink(userId), { border: 1 }).data;
    expect(qr).toHaveAttribute('viewBox', `0 0 ${modules.length} ${modules.length}`);
    expect(qr.querySelector('path')?.getAttribute('d')?.match(/M/g)).toHaveLength(modules.flat().filter(Boolean).length);
    expect(summaryLink(userId)).toBe(`https://localhost/summary/${userId}`);
    expect(dialog).toHaveTextContent(`https://localhost/summary/${userId}`);

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Download QR saves a 200x200 PNG named medfolio_{userId}_qr.png', async () => {
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await user.click(screen.getByRole('button', { name: 'QR Code' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Download QR' }));
    await waitFor(() => expect(clicks).toHaveLength(1));
    expect(qrFilename(userId)).toBe(`medfolio_${userId}_qr.png`);
    expect(clicks[0]).toEqual({ href: 'blob:https://localhost/qr', download: `medfolio_${userId}_qr.png` });
    expect(nth(blobs, 0).type).toBe('image/png');
    expect(await nth(blobs, 0).text()).toBe('200x200');

    // The white background, then one square per dark module of the summary link's QR code.
    const { data } = encode(summaryLink(userId), { border: 1 });
    const dark = data.flat().filter(Boolean).length;
    expect(painted[0]).toEqual([0, 0, 200, 200]);
    expect(painted).toHaveLength(1 + dark);
    expect(painted.slice(1).every(([x, y, w, h]) => x >= 0 && y >= 0 && x + w <= 200 && y + h <= 200)).toBe(true);
  });

  it('says so in the modal when the image cannot be made', async () => {
    jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => null);
    const user = userEvent.setup();
    renderPage(<ActionButtons userId={userId} />);
    await user.click(screen.getByRole('button', { name: 'QR Code' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Download QR' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The QR image could not be saved. Please try again.');
    expect(clicks).toEqual([]);
  });
});
