import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useDocumentsListQuery } from '../../../api/api';
import { GENERIC_ERROR } from '../../../api/errors';
import { clearTokens, storeTokens } from '../../../session/tokens';
import { fakeServer } from '../../../test/fake-server';
import { installFakeXhr, nextRequest as next, type FakeXhr } from '../../../test/fake-xhr';
import { nth } from '../../../test/nth';
import { renderPage } from '../../../test/render';
import { UploadPanel } from './UploadPanel';

let xhr: ReturnType<typeof installFakeXhr>;
beforeEach(() => {
  xhr = installFakeXhr();
  storeTokens({ access: 'access-1', refresh: 'refresh-1' });
});
afterEach(() => {
  xhr.restore();
  clearTokens();
});

const MB = 1048576;
const file = (name: string, bytes = 10) => new File([new Uint8Array(bytes)], name);

/** The document list as the dashboard holds it: its refetch after an upload shows in the calls. */
function ListSubscriber() {
  useDocumentsListQuery();
  return null;
}

function renderPanel() {
  const server = fakeServer({ 'GET /api/upload/': () => ({ body: [] }) });
  // The picker's accept attribute is only a hint to the browser's dialog; the rule is the app's.
  const user = userEvent.setup({ applyAccept: false });
  const view = renderPage(
    <>
      <UploadPanel />
      <ListSubscriber />
    </>,
  );
  const input = screen.getByLabelText('Choose files') as HTMLInputElement;
  return { ...view, server, user, input };
}

const selectedList = () => screen.getByRole('list', { name: /Selected Files/ });
const names = () => within(selectedList()).getAllByRole('listitem').map((item) => item.querySelector('p')?.textContent);

/** A dragleave towards `to` (jsdom has no DragEvent to carry relatedTarget). */
function dragLeave(to: Element): Event {
  const event = new Event('dragleave', { bubbles: true });
  Object.defineProperty(event, 'relatedTarget', { value: to });
  return event;
}

const nextRequest = (index = 0): Promise<FakeXhr> => next(xhr.requests, index);

describe('choosing files', () => {
  it('shows the hints and a keyboard-reachable multi-file picker limited to the six extensions and the two record types', () => {
    const { input } = renderPanel();
    expect(screen.getByRole('heading', { name: 'Add Documents' })).toBeInTheDocument();
    expect(screen.getByText('Drag & Drop or choose files to upload')).toBeInTheDocument();
    expect(screen.getByText('Select multiple zip, image, pdf or ms.word files')).toBeInTheDocument();
    expect(input).toHaveAttribute('type', 'file');
    expect(input).toHaveAttribute('multiple');
    expect(input).toHaveAttribute('accept', '.pdf,.jpg,.png,.doc,.zip,.docx,.xml,.json');
    expect(input).not.toHaveAttribute('tabindex', '-1');
    expect(input).toHaveAccessibleDescription(
      'Select multiple zip, image, pdf or ms.word files or health records (C-CDA .xml, FHIR .json)',
    );
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact');
    expect(screen.getByText(/Still need help\?/)).toBeInTheDocument();
  });

  it('lists the picked files with their size in MB, and appends later picks', async () => {
    const { user, input } = renderPanel();
    await user.upload(input, [file('Blood test.pdf', 1.5 * MB), file('scan.PNG', 123456)]);
    expect(screen.getByRole('heading', { name: 'Selected Files (2):' })).toBeInTheDocument();
    expect(names()).toEqual(['Blood test.pdf', 'scan.PNG']);
    expect(within(selectedList()).getByText('1.50 MB')).toBeInTheDocument();
    expect(within(selectedList()).getByText('0.12 MB')).toBeInTheDocument();

    await user.upload(input, [file('letter.docx', 2 * MB)]);
    expect(screen.getByRole('heading', { name: 'Selected Files (3):' })).toBeInTheDocument();
    expect(names()).toEqual(['Blood test.pdf', 'scan.PNG', 'letter.docx']);
    expect(within(selectedList()).getByText('2.00 MB')).toBeInTheDocument();
  });

  it('refuses a whole batch with one file of another type, with the red inline message', async () => {
    const { user, input } = renderPanel();
    await user.upload(input, [file('a.pdf')]);
    await user.upload(input, [file('b.pdf'), file('photo.jpeg'), file('c.zip')]);
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Please select only mentioned files.');
    expect(alert).toHaveClass('text-red-700');
    expect(names()).toEqual(['a.pdf']);

    // A good batch afterwards is added and the message goes.
    await user.upload(input, [file('c.zip')]);
    expect(screen.queryByText('Please select only mentioned files.')).not.toBeInTheDocument();
    expect(names()).toEqual(['a.pdf', 'c.zip']);
  });

  it('takes dropped files by the same rule', () => {
    renderPanel();
    const zone = screen.getByTestId('drop-zone');
    fireEvent.drop(zone, { dataTransfer: { files: [file('notes.txt'), file('ok.pdf')] } });
    expect(screen.getByText('Please select only mentioned files.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: /Selected Files/ })).not.toBeInTheDocument();

    fireEvent.dragOver(zone, { dataTransfer: { files: [] } });
    expect(zone).toHaveClass('border-brand-700');
    // Passing over the zone's own text keeps it highlighted; leaving it does not.
    fireEvent(zone, dragLeave(screen.getByText('Drag & Drop or choose files to upload')));
    expect(zone).toHaveClass('border-brand-700');
    fireEvent(zone, dragLeave(document.body));
    expect(zone).not.toHaveClass('border-brand-700');
    fireEvent.dragEnter(zone, { dataTransfer: { files: [] } });
    expect(zone).toHaveClass('border-brand-700');
    fireEvent.drop(zone, { dataTransfer: { files: [file('ok.pdf'), file('Scan.JPG')] } });
    expect(names()).toEqual(['ok.pdf', 'Scan.JPG']);
    expect(zone).not.toHaveClass('border-brand-700');
  });

  it('removes one file at a time; Cancel clears the selection', async () => {
    const { user, input } = renderPanel();
    await user.upload(input, [file('a.pdf'), file('b.png'), file('c.doc')]);
    await user.click(screen.getByRole('button', { name: 'Remove b.png' }));
    expect(names()).toEqual(['a.pdf', 'c.doc']);
    expect(screen.getByRole('heading', { name: 'Selected Files (2):' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('list', { name: /Selected Files/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('lets the same file be picked again after removing it', async () => {
    const { user, input } = renderPanel();
    const same = file('a.pdf');
    await user.upload(input, [same]);
    await user.click(screen.getByRole('button', { name: 'Remove a.pdf' }));
    await user.upload(input, [same]);
    expect(names()).toEqual(['a.pdf']);
  });
});

describe('uploading', () => {
  it('is disabled with nothing selected; a submit with none says a file is required and sends nothing', () => {
    renderPanel();
    const upload = screen.getByRole('button', { name: 'Upload' });
    expect(upload).toBeDisabled();
    const form = upload.closest('form');
    if (!form) throw new Error('Upload is not in a form.');
    fireEvent.submit(form);
    expect(screen.getByText('At least one file is required')).toBeInTheDocument();
    expect(xhr.requests).toHaveLength(0);
  });

  it('sends the files as repeated `files` fields, shows a progress bar per file, then the success dialog', async () => {
    const { user, input, server } = renderPanel();
    await user.upload(input, [file('a.pdf', 100), file('b.png', 300)]);
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/upload/')).toHaveLength(1));
    const upload = screen.getByRole('button', { name: 'Upload' });
    expect(upload).toBeEnabled();
    await user.click(upload);

    const request = await nextRequest();
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/upload/');
    expect(request.headers['authorization']).toBe('Bearer access-1');
    expect([...request.form.keys()]).toEqual(['files', 'files']);
    expect((request.form.getAll('files') as File[]).map((f) => [f.name, f.size])).toEqual([
      ['a.pdf', 100],
      ['b.png', 300],
    ]);

    // While uploading: Upload is busy and disabled, nothing can be removed or added.
    expect(upload).toBeDisabled();
    expect(upload).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('button', { name: 'Remove a.pdf' })).toBeDisabled();
    expect(input).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Uploading 2 files…');

    const bars = () => screen.getAllByRole('progressbar').map((bar) => [bar.getAttribute('aria-label'), bar.getAttribute('aria-valuenow')]);
    expect(bars()).toEqual([
      ['Upload of a.pdf', '0'],
      ['Upload of b.png', '0'],
    ]);
    // 440 bytes of body for 400 bytes of files: the bytes sent go to the files in order.
    act(() => request.progress(55, 440));
    expect(bars()).toEqual([
      ['Upload of a.pdf', '50'],
      ['Upload of b.png', '0'],
    ]);
    act(() => request.progress(275, 440));
    expect(bars()).toEqual([
      ['Upload of a.pdf', '100'],
      ['Upload of b.png', '50'],
    ]);
    expect(nth(screen.getAllByRole('progressbar'), 1).firstElementChild).toHaveStyle({ width: '50%' });
    // The drawn fill is the number shown, at once: no width transition trailing behind it.
    for (const fill of screen.getAllByTestId('upload-fill')) expect(fill.className).not.toMatch(/transition|duration|animate/);
    expect(screen.getAllByTestId('upload-fill').map((fill) => fill.style.width)).toEqual(['100%', '50%']);
    act(() => request.progress(440, 440));
    act(() => request.respond(201, { message: '2 files uploaded successfully.', image_urls: ['/api/files/1', '/api/files/2'], image_url: '/api/files/1', documents: [] }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Success' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('2 files uploaded successfully.');
    expect(screen.queryByRole('list', { name: /Selected Files/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    // The list is fetched again.
    await waitFor(() => expect(server.calls.filter((c) => c.path === '/api/upload/')).toHaveLength(2));
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("says 'Files uploaded successfully!' when the server gives no message", async () => {
    const { user, input } = renderPanel();
    await user.upload(input, [file('a.pdf')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await nextRequest();
    act(() => request.respond(201, { message: '', image_urls: [], image_url: null, documents: [] }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Files uploaded successfully!');
  });

  it("shows a refusal in the 'Error' dialog with the server's message and keeps the selection", async () => {
    const { user, input } = renderPanel();
    await user.upload(input, [file('a.pdf'), file('b.pdf')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await nextRequest();
    act(() =>
      request.respond(402, {
        message: 'Your Free plan allows 2 documents and you have 1, so 2 more cannot be added. The Basic plan allows 5 documents: see /membership.',
        code: 'QUOTA_EXCEEDED',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Error' })).toBeInTheDocument();
    // The server's path is a link in the sentence, not the raw text "/membership".
    expect(dialog).toHaveTextContent('The Basic plan allows 5 documents: see plans and pricing.');
    expect(dialog).not.toHaveTextContent('/membership');
    expect(within(dialog).getByRole('link', { name: 'plans and pricing' })).toHaveAttribute('href', '/membership');
    expect(names()).toEqual(['a.pdf', 'b.pdf']);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('shows the generic text when the failure has no message (a lost connection)', async () => {
    const { user, input } = renderPanel();
    await user.upload(input, [file('a.pdf')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await nextRequest();
    act(() => request.fail());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'Error' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent(GENERIC_ERROR);
    expect(names()).toEqual(['a.pdf']);
  });

  it('Cancel during an upload stops it and keeps the selection, with no error dialog', async () => {
    const { user, input } = renderPanel();
    await user.upload(input, [file('a.pdf')]);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const request = await nextRequest();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(request.aborted).toBe(true));
    expect(await screen.findByText('Upload cancelled. Your selection is kept.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(names()).toEqual(['a.pdf']);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });
});
