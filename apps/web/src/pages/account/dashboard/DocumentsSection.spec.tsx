import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentListItem } from '@medfolio/contracts';
import { clearTokens, storeTokens } from '../../../session/tokens';
import { fakeServer, type RecordedCall } from '../../../test/fake-server';
import { nth } from '../../../test/nth';
import { renderPage } from '../../../test/render';
import { DocumentsSection } from './DocumentsSection';

const pdf: DocumentListItem = {
  id: '11111111-1111-4111-8111-111111111111',
  filename: 'Blood Test March.pdf',
  url: null,
  uploaded_at: '2024-03-14T09:30:00.000Z',
  size: 482133,
  content_type: 'application/pdf',
};
const png: DocumentListItem = {
  id: '22222222-2222-4222-8222-222222222222',
  filename: 'x-ray.png',
  url: 'https://localhost/api/files/thumbnails/x-ray.webp?sig=1',
  uploaded_at: '2024-05-02T15:00:00.000Z',
  size: 90210,
  content_type: 'image/png',
};
const jpgWithoutThumbnail: DocumentListItem = {
  id: '33333333-3333-4333-8333-333333333333',
  filename: 'knee.JPG',
  url: null,
  uploaded_at: '2024-05-03T08:00:00.000Z',
  size: 1200,
  content_type: 'image/jpeg',
};
const docx: DocumentListItem = {
  id: '44444444-4444-4444-8444-444444444444',
  filename: 'Referral letter.docx',
  url: null,
  uploaded_at: '2024-04-20T12:00:00.000Z',
  size: 20480,
  content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const zip: DocumentListItem = {
  id: '55555555-5555-4555-8555-555555555555',
  filename: 'old scans.zip',
  url: null,
  uploaded_at: '2024-01-05T10:00:00.000Z',
  size: 3000000,
  content_type: 'application/zip',
};
const all = [pdf, png, jpgWithoutThumbnail, docx, zip];

type Routes = Parameters<typeof fakeServer>[0];

function renderSection(documents: DocumentListItem[] = all, routes: Routes = {}) {
  const server = fakeServer({ 'GET /api/upload/': () => ({ body: documents }), ...routes });
  const user = userEvent.setup();
  const view = renderPage(<DocumentsSection />);
  return { ...view, server, user };
}

const table = () => screen.getByRole('table');
const tableNames = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((row) => nth(within(row).getAllByRole('cell'), 0).querySelector('[title]')?.textContent);
const localDate = (iso: string) => new Date(iso).toLocaleDateString();

let clicks: { href: string; download: string }[];
beforeEach(() => {
  storeTokens({ access: 'access-1', refresh: 'refresh-1' });
  clicks = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicks.push({ href: this.href, download: this.download });
  });
});
afterEach(() => {
  clearTokens();
  localStorage.clear();
  jest.restoreAllMocks();
});

describe('the documents list', () => {
  it("shows 'Documents | n Files', the hint, and the list view as a table with the spec's columns", async () => {
    renderSection();
    expect(await screen.findByRole('heading', { name: 'Documents | 5 Files' })).toBeInTheDocument();
    expect(screen.getByText('Click on a file to preview the file')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'false');

    expect(within(table()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['File name', 'Location (Folder)', 'File type', 'Modified', 'Actions']);
    const rows = within(table()).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').slice(1, 4).map((c) => c.textContent))).toEqual([
      ['Uploaded Documents', '.pdf', localDate(pdf.uploaded_at)],
      ['Uploaded Documents', '.png', localDate(png.uploaded_at)],
      ['Uploaded Documents', '.jpg', localDate(jpgWithoutThumbnail.uploaded_at)],
      ['Uploaded Documents', '.docx', localDate(docx.uploaded_at)],
      ['Uploaded Documents', '.zip', localDate(zip.uploaded_at)],
    ]);
    expect(tableNames()).toEqual(['Blood Test March.pdf', 'x-ray.png', 'knee.JPG', 'Referral letter.docx', 'old scans.zip']);
    // Each row: a preview button named by the file, and download and delete buttons naming it.
    expect(within(nth(rows, 0)).getByRole('button', { name: 'Preview Blood Test March.pdf' })).toBeInTheDocument();
    expect(within(nth(rows, 0)).getByRole('button', { name: 'Download Blood Test March.pdf' })).toBeInTheDocument();
    expect(within(nth(rows, 0)).getByRole('button', { name: 'Delete Blood Test March.pdf' })).toBeInTheDocument();
  });

  it('shows cards with the name, the folder and the date on small screens (the table from md up)', async () => {
    renderSection([pdf]);
    const cards = await screen.findByRole('list', { name: 'Your documents' });
    expect(cards).toHaveClass('md:hidden');
    expect(table().parentElement).toHaveClass('hidden', 'md:block');
    const card = within(cards).getByRole('listitem');
    expect(card).toHaveTextContent('Blood Test March.pdf');
    expect(card).toHaveTextContent('Uploaded Documents');
    expect(card).toHaveTextContent(localDate(pdf.uploaded_at));
  });

  it('filters by a case-insensitive substring of the file name', async () => {
    const { user } = renderSection();
    await screen.findByRole('table');
    const search = screen.getByRole('searchbox', { name: 'Search files' });
    expect(search).toHaveAttribute('placeholder', 'Search files...');
    await user.type(search, 'BLOOD');
    expect(tableNames()).toEqual(['Blood Test March.pdf']);
    await user.clear(search);
    await user.type(search, 'r');
    expect(tableNames()).toEqual(['Blood Test March.pdf', 'x-ray.png', 'Referral letter.docx']);
    await user.clear(search);
    await user.type(search, 'invoice');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('No files match “invoice”.')).toBeInTheDocument();
    // The count is of all the files.
    expect(screen.getByRole('heading', { name: 'Documents | 5 Files' })).toBeInTheDocument();
  });

  it('switches to a grid of 2, 3 or 4 columns: thumbnails for images, icons by type for the rest', async () => {
    const { user } = renderSection();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Grid view' }));
    expect(screen.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'List view' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    const grid = screen.getByRole('list', { name: 'Your documents' });
    expect(grid).toHaveClass('grid', 'grid-cols-2', 'sm:grid-cols-3', 'lg:grid-cols-4');
    const card = (name: string) => within(grid).getByRole('button', { name: new RegExp(`Preview ${name.replace('.', '\\.')}`) });
    expect(card('x-ray.png').querySelector('img')).toHaveAttribute('src', png.url);
    // No thumbnail yet: the image icon.
    expect(card('knee.JPG').querySelector('img')).toBeNull();
    expect(card('knee.JPG').querySelector('[data-icon]')).toHaveAttribute('data-icon', 'image');
    expect(card('Blood Test March.pdf').querySelector('[data-icon]')).toHaveAttribute('data-icon', 'pdf');
    expect(card('Referral letter.docx').querySelector('[data-icon]')).toHaveAttribute('data-icon', 'word');
    expect(card('old scans.zip').querySelector('[data-icon]')).toHaveAttribute('data-icon', 'other');

    // An expired thumbnail link falls back to the icon.
    fireEvent.error(nth(card('x-ray.png').querySelectorAll('img'), 0));
    expect(card('x-ray.png').querySelector('img')).toBeNull();
    expect(card('x-ray.png').querySelector('[data-icon]')).toHaveAttribute('data-icon', 'image');

    // The search applies to the grid too; back to the list.
    await user.type(screen.getByRole('searchbox', { name: 'Search files' }), 'LETTER');
    expect(within(grid).getAllByRole('listitem')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'List view' }));
    expect(tableNames()).toEqual(['Referral letter.docx']);
  });

  it('remembers list or grid in this browser: a reload shows the view last chosen', async () => {
    const first = renderSection();
    await screen.findByRole('table');
    await first.user.click(screen.getByRole('button', { name: 'Grid view' }));
    first.unmount();
    renderSection();
    expect(await screen.findByRole('list', { name: 'Your documents' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("asks again every few seconds while a new image's thumbnail is being made, and stops once it is there", async () => {
    const fresh = { ...jpgWithoutThumbnail, uploaded_at: new Date().toISOString() };
    let lists = 0;
    renderSection([], {
      'GET /api/upload/': () => {
        lists += 1;
        return { body: [lists < 2 ? fresh : { ...fresh, url: 'https://localhost/api/files/thumbnails/knee.webp?sig=2' }] };
      },
    });
    await screen.findByRole('table');
    await waitFor(() => expect(lists).toBe(2), { timeout: 5000 });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Grid view' }));
    const grid = screen.getByRole('list', { name: 'Your documents' });
    await waitFor(() =>
      expect(within(grid).getByRole('button', { name: /Preview knee\.JPG/ }).querySelector('img')).toHaveAttribute(
        'src',
        'https://localhost/api/files/thumbnails/knee.webp?sig=2',
      ),
    );
    // The thumbnail is there: no more asking.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(lists).toBe(2);
  }, 15_000);

  it('stops asking once the thumbnail window is over, even if the answer never changes', async () => {
    const stuck = { ...jpgWithoutThumbnail, uploaded_at: new Date(Date.now() - 29_000).toISOString() };
    let lists = 0;
    renderSection([], {
      'GET /api/upload/': () => {
        lists += 1;
        return { body: [stuck] };
      },
    });
    await screen.findByRole('table');
    await waitFor(() => expect(lists).toBe(2), { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(lists).toBe(2);
  }, 15_000);

  it('shows the empty state', async () => {
    renderSection([]);
    expect(await screen.findByText('No files uploaded yet. Upload some files to see them here.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Documents | 0 Files' })).toBeInTheDocument();
  });

  it('shows a loading state while the list loads', () => {
    fakeServer({ 'GET /api/upload/': () => new Promise<never>(() => undefined) });
    renderPage(<DocumentsSection />);
    expect(screen.getByText('Loading your files…')).toHaveAttribute('role', 'status');
  });

  it("shows a list failure with the server's message, else 'Failed to fetch files.', and can try again", async () => {
    let answer: { status: number; body?: unknown } = { status: 503, body: { message: 'The documents service is unavailable.', code: 'UNAVAILABLE' } };
    const { user } = renderSection([], { 'GET /api/upload/': () => answer });
    expect(await screen.findByRole('alert')).toHaveTextContent('The documents service is unavailable.');
    answer = { status: 500 };
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to fetch files.'));
    answer = { status: 200, body: [pdf] };
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });
});

describe('download', () => {
  const linkPath = `/api/get-document-download-link/${pdf.id}/`;

  it("gets a fresh link, saves the file and says 'Download Started'", async () => {
    const { user, server } = renderSection([pdf], {
      [`GET ${linkPath}`]: () => ({ body: { download_url: '/api/files/documents/abc?expires=1&sig=s', filename: pdf.filename, expires_at: '2024-05-06T10:05:00.000Z' } }),
    });
    const row = nth(await screen.findAllByRole('row'), 1);
    await user.click(within(row).getByRole('button', { name: 'Download Blood Test March.pdf' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Download Started' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Your file "Blood Test March.pdf" is being downloaded.');
    expect(clicks).toEqual([{ href: 'https://localhost/api/files/documents/abc?expires=1&sig=s', download: 'Blood Test March.pdf' }]);
    expect(server.calls.find((c) => c.path === linkPath)?.authorization).toBe('Bearer access-1');

    // A second download asks for a new link (links expire after 5 minutes).
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await user.click(within(row).getByRole('button', { name: 'Download Blood Test March.pdf' }));
    await screen.findByRole('dialog');
    expect(server.calls.filter((c) => c.path === linkPath)).toHaveLength(2);
  });

  it("says 'Download Failed' when the server returns no link", async () => {
    const { user } = renderSection([pdf], { [`GET ${linkPath}`]: () => ({ body: { download_url: '', filename: pdf.filename, expires_at: '' } }) });
    const row = nth(await screen.findAllByRole('row'), 1);
    await user.click(within(row).getByRole('button', { name: 'Download Blood Test March.pdf' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Download Failed' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('The server did not return a valid download link.');
    expect(clicks).toEqual([]);
  });

  it.each([
    [{ status: 404, body: { message: 'Document not found.', code: 'NOT_FOUND' } }, 'Document not found.'],
    [{ status: 500 }, 'Unable to fetch the file download link. Please try again.'],
  ])("says 'Download Failed' with the server's message or the spec's text (%#)", async (answer, text) => {
    const { user } = renderSection([pdf], { [`GET ${linkPath}`]: () => answer });
    const row = nth(await screen.findAllByRole('row'), 1);
    await user.click(within(row).getByRole('button', { name: 'Download Blood Test March.pdf' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Download Failed' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(text);
    expect(clicks).toEqual([]);
  });
});

describe('delete', () => {
  it('asks first (red confirm button); Cancel keeps the file; confirming deletes it and refreshes the list', async () => {
    let documents = [pdf, png];
    const { user, server } = renderSection(undefined, {
      'GET /api/upload/': () => ({ body: documents }),
      'DELETE /api/upload/': (call: RecordedCall) => {
        documents = documents.filter((d) => d.id !== (call.body as { document_id: string }).document_id);
        return { body: { message: 'Document deleted.' } };
      },
    });
    const row = nth(await screen.findAllByRole('row'), 2);
    await user.click(within(row).getByRole('button', { name: 'Delete x-ray.png' }));
    let dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Delete this file?' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('“x-ray.png” will be deleted');
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toHaveClass('bg-red-700');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await user.click(within(row).getByRole('button', { name: 'Delete x-ray.png' }));
    dialog = screen.getByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(tableNames()).toEqual(['Blood Test March.pdf']));
    expect(server.calls.filter((c) => c.method === 'DELETE').map((c) => c.body)).toEqual([{ document_id: png.id }]);
    expect(screen.getByRole('heading', { name: 'Documents | 1 Files' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('"x-ray.png" was deleted.')).toBeInTheDocument();
  });

  it.each([
    [{ status: 404, body: { message: 'Document not found.', code: 'NOT_FOUND' } }, 'Document not found.'],
    [{ status: 500 }, 'Something went wrong while deleting the file.'],
  ])("shows a failure in the 'Error' dialog (%#)", async (answer, text) => {
    const { user } = renderSection([pdf], { 'DELETE /api/upload/': () => answer });
    const row = nth(await screen.findAllByRole('row'), 1);
    await user.click(within(row).getByRole('button', { name: 'Delete Blood Test March.pdf' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Error' })).toBeInTheDocument());
    expect(screen.getByRole('dialog')).toHaveTextContent(text);
    expect(tableNames()).toEqual(['Blood Test March.pdf']);
  });
});

describe('preview', () => {
  let objectUrls: string[];
  let revoked: string[];
  beforeEach(() => {
    objectUrls = [];
    revoked = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      const url = `blob:https://localhost/preview-${objectUrls.length + 1}-${blob.type}`;
      objectUrls.push(url);
      return url;
    });
    URL.revokeObjectURL = jest.fn((url: string) => void revoked.push(url));
  });

  const link = (doc: DocumentListItem) => ({
    [`GET /api/get-document-download-link/${doc.id}/`]: () => ({
      body: { download_url: `https://localhost/api/files/documents/${doc.id}?sig=s`, filename: doc.filename, expires_at: '2024-05-06T10:05:00.000Z' },
    }),
  });

  it('shows an image in the page from its download link', async () => {
    const { user } = renderSection([png], link(png));
    await user.click(await screen.findByRole('button', { name: 'Preview x-ray.png' }));
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'x-ray.png' })).toBeInTheDocument();
    expect(await within(dialog).findByRole('img', { name: 'x-ray.png' })).toHaveAttribute('src', `https://localhost/api/files/documents/${png.id}?sig=s`);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows a PDF in the page from a blob: URL, with a download link inside, and revokes the URL on close', async () => {
    const { user, server } = renderSection([pdf], {
      ...link(pdf),
      [`GET /api/files/documents/${pdf.id}`]: () => ({ body: '%PDF-1.7' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Preview Blood Test March.pdf' }));
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(dialog.querySelector('object')).not.toBeNull());
    const object = nth(dialog.querySelectorAll('object'), 0);
    expect(object).toHaveAttribute('type', 'application/pdf');
    expect(object).toHaveAttribute('data', 'blob:https://localhost/preview-1-application/pdf');
    expect(within(object).getByRole('link', { name: 'Download Blood Test March.pdf' })).toHaveAttribute('download', 'Blood Test March.pdf');
    expect(server.calls.some((c) => c.path.startsWith(`/api/files/documents/${pdf.id}`))).toBe(true);
    expect(revoked).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(revoked).toEqual(['blob:https://localhost/preview-1-application/pdf']);
  });

  it('never shows one document in the preview of another, and loads a reopened PDF afresh', async () => {
    const { user, server } = renderSection([pdf, png], {
      ...link(pdf),
      ...link(png),
      [`GET /api/files/documents/${pdf.id}`]: () => ({ body: '%PDF-1.7' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Preview Blood Test March.pdf' }));
    const dialog = screen.getByRole('dialog');
    await waitFor(() => expect(dialog.querySelector('object')).not.toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.click(screen.getByRole('button', { name: 'Preview x-ray.png' }));
    expect(dialog.querySelector('object')).toBeNull();
    expect(await within(dialog).findByRole('img', { name: 'x-ray.png' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));

    await user.click(screen.getByRole('button', { name: 'Preview Blood Test March.pdf' }));
    await waitFor(() => expect(dialog.querySelector('object')).toHaveAttribute('data', 'blob:https://localhost/preview-2-application/pdf'));
    expect(revoked).toEqual(['blob:https://localhost/preview-1-application/pdf']);
    expect(server.calls.filter((c) => c.path === `/api/get-document-download-link/${pdf.id}/`)).toHaveLength(2);
  });

  it('says when a PDF cannot be loaded', async () => {
    const { user } = renderSection([pdf], { ...link(pdf), [`GET /api/files/documents/${pdf.id}`]: () => ({ status: 410, body: { message: 'This link has expired.' } }) });
    await user.click(await screen.findByRole('button', { name: 'Preview Blood Test March.pdf' }));
    expect(await within(screen.getByRole('dialog')).findByRole('alert')).toHaveTextContent('The preview could not be loaded.');
  });

  it('offers other types as a download, without asking for a link until Download is pressed', async () => {
    const { user, server } = renderSection([zip], link(zip));
    await user.click(await screen.findByRole('button', { name: 'Preview old scans.zip' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('This type of file cannot be previewed here.');
    expect(server.calls.filter((c) => c.path.startsWith('/api/get-document-download-link/'))).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Download Started' })).toBeInTheDocument());
    expect(clicks).toEqual([{ href: `https://localhost/api/files/documents/${zip.id}?sig=s`, download: 'old scans.zip' }]);
  });

  it('opens from the grid as well', async () => {
    const { user } = renderSection([png], link(png));
    await user.click(await screen.findByRole('button', { name: 'Grid view' }));
    await user.click(screen.getByRole('button', { name: /^Preview x-ray\.png/ }));
    expect(await within(screen.getByRole('dialog')).findByRole('img', { name: 'x-ray.png' })).toBeInTheDocument();
  });
});
