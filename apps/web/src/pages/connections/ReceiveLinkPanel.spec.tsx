import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import { linkFlags, ReceiveLinkPanel } from './ReceiveLinkPanel';

const shlink = (payload: Record<string, unknown>) => `shlink:/${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
const KEY = 'rxTgYlOaKJPFtcEd0qcceN8wEU4p94SqAwIWQe6uX7Q';
const PLAIN = shlink({ url: 'https://clinic.example/m/abc', key: KEY, label: 'Springfield Clinic' });
const WITH_PASSCODE = shlink({ url: 'https://clinic.example/m/def', key: KEY, flag: 'P', label: 'Vaccines' });

beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));
afterEach(() => clearTokens());

describe('Received a link from a clinic?', () => {
  it('reads what a pasted link says of itself (a viewer URL too); anything else is no link', () => {
    expect(linkFlags(PLAIN)).toEqual({ isLink: true, needsPasscode: false });
    expect(linkFlags(`https://viewer.example/#${WITH_PASSCODE}`)).toEqual({ isLink: true, needsPasscode: true });
    expect(linkFlags('https://example.com/shlink:/abc')).toEqual({ isLink: false, needsPasscode: false });
    expect(linkFlags('hello')).toEqual({ isLink: false, needsPasscode: false });
  });

  it('sends the pasted link and lists what was added, each card verified or not in plain words', async () => {
    const server = fakeServer({
      'POST /api/connections/shl/': () => ({
        body: {
          label: 'Springfield Clinic',
          imported: [
            { document_id: 'd1', name: 'SMART Health Link from Springfield Clinic, received 27 Nov 2026.json', kind: 'fhir-bundle' },
            { document_id: 'd2', name: 'SMART Health Card from Springfield Clinic, received 27 Nov 2026.json', kind: 'health-card', verified_issuer: 'https://issuer.example', issuer: 'https://issuer.example' },
            { document_id: 'd3', name: 'SMART Health Card from Springfield Clinic, received 27 Nov 2026 (2).json', kind: 'health-card', verified_issuer: null, issuer: 'https://other.example' },
          ],
        },
      }),
    });
    renderPage(<ReceiveLinkPanel />);
    expect(screen.queryByLabelText('Passcode')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('SMART Health Link'), PLAIN);
    await userEvent.click(screen.getByRole('button', { name: 'Add to my documents' }));
    const list = within(await screen.findByRole('list', { name: 'Received from the link' }));
    expect(server.calls.at(-1)).toMatchObject({ method: 'POST', path: '/api/connections/shl/', body: { shlink: PLAIN } });
    expect(screen.getByRole('status')).toHaveTextContent('Added 3 files from “Springfield Clinic” to your documents.');
    const items = list.getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Health records (FHIR Bundle).');
    expect(items[1]).toHaveTextContent('Verified issuer: https://issuer.example');
    expect(items[2]).toHaveTextContent('Issuer not verified: Medfolio could not check that https://other.example signed this card.');
    expect(screen.getByLabelText('SMART Health Link')).toHaveValue('');
  });

  it('asks for the passcode a link is flagged with, then shows a wrong one as the field’s error', async () => {
    const server = fakeServer({
      'POST /api/connections/shl/': (call) =>
        (call.body as { passcode?: string }).passcode === 'right'
          ? { body: { label: 'Vaccines', imported: [{ document_id: 'd1', name: 'SMART Health Link from Vaccines, received 27 Nov 2026.json', kind: 'fhir-bundle' }] } }
          : { status: 403, body: { code: 'FORBIDDEN', message: 'Wrong passcode. 2 attempts left.' } },
    });
    renderPage(<ReceiveLinkPanel />);
    await userEvent.type(screen.getByLabelText('SMART Health Link'), WITH_PASSCODE);
    await userEvent.click(screen.getByRole('button', { name: 'Add to my documents' }));
    expect(await screen.findByText('This link needs a passcode.')).toBeInTheDocument();
    expect(server.calls).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Passcode'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Add to my documents' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong passcode. 2 attempts left.');
    expect(screen.getByLabelText('Passcode')).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(screen.getByLabelText('Passcode'));
    await userEvent.type(screen.getByLabelText('Passcode'), 'right');
    await userEvent.click(screen.getByRole('button', { name: 'Add to my documents' }));
    expect(await screen.findByRole('list', { name: 'Received from the link' })).toHaveTextContent('SMART Health Link from Vaccines');
    expect(server.calls.at(-1)?.body).toEqual({ shlink: WITH_PASSCODE, passcode: 'right' });
  });

  it("says the service's reason when a link cannot be received, and refuses text that is no link without asking", async () => {
    const server = fakeServer({ 'POST /api/connections/shl/': () => ({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'This link has expired. Ask the clinic for a new one.' } }) });
    renderPage(<ReceiveLinkPanel />);
    await userEvent.type(screen.getByLabelText('SMART Health Link'), 'just some text');
    await userEvent.click(screen.getByRole('button', { name: 'Add to my documents' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This is not a SMART Health Link.');
    expect(server.calls).toHaveLength(0);
    await userEvent.clear(screen.getByLabelText('SMART Health Link'));
    await userEvent.type(screen.getByLabelText('SMART Health Link'), PLAIN);
    await userEvent.click(screen.getByRole('button', { name: 'Add to my documents' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired. Ask the clinic for a new one.');
  });
});
