import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { userLoaded } from '../../session/session-slice';
import { clearTokens, storeTokens } from '../../session/tokens';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import WalletPreview from './WalletPreview';
import { ANA } from '../../test/users';

afterEach(() => clearTokens());

const QR_LABEL = 'Sample QR code of a patient summary link';

/** The QR code is drawn once its encoder has loaded: wait for its modules, so the page has settled. */
const qrDrawn = () =>
  waitFor(() =>
    expect(screen.getByRole('img', { name: QR_LABEL }).querySelector('path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/),
  );

async function render() {
  const view = renderPage(<WalletPreview />, { path: '/wallet-preview' });
  await qrDrawn();
  return view;
}

describe('Wallet preview page', () => {
  it("greets a visitor as 'Patient' and offers the Login link", async () => {
    await render();
    expect(screen.getByRole('heading', { level: 1, name: 'Hello, Patient!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('img', { name: QR_LABEL })).toBeInTheDocument();
    const external = screen.getByRole('link', { name: /Open sample summary \(opens in a new tab\)/ });
    expect(external).toHaveAttribute('href', '/summary/sample');
    expect(external).toHaveAttribute('target', '_blank');
    expect(external).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it('greets a signed-in user by first name, without the Login link', async () => {
    storeTokens({ access: 'access-1', refresh: 'refresh-1' });
    const { store } = await render();
    act(() => {
      store.dispatch(
        userLoaded(ANA),
      );
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Hello, Ana!' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    // Signed in, the link opens the patient's own summary, not the sample.
    expect(screen.queryByRole('link', { name: /Open sample summary/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open my summary \(opens in a new tab\)/ })).toHaveAttribute('href', '/summary/u1');
  });

  it("'View' turns the sample card over to a back like the real pass's: no health data, and the site's address", async () => {
    const user = userEvent.setup();
    await render();
    const view = screen.getByRole('button', { name: 'View' });
    expect(view).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('Digital Health Card')).toBeVisible();
    expect(screen.queryByRole('term')).not.toBeInTheDocument(); // the hidden side is out of the accessibility tree
    await user.click(view);
    expect(view).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toEqual(['About this card', 'How to revoke', 'Website']);
    const back = screen.getByTestId('card-back');
    expect(back).toHaveTextContent('The card itself holds no medical information.');
    expect(back).toHaveTextContent(window.location.origin);
    // The sample summary's own content is not repeated (nor contradicted) on the card.
    expect(back).not.toHaveTextContent(/allerg|penicillin|asthma|blood type|condition/i);
    await user.click(view);
    expect(view).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('term')).not.toBeInTheDocument();
  });

  it("draws a signed-in patient's own card from the fields the pass carries, and saves the name setting", async () => {
    const pass = {
      serial_number: '6f1c1c9e-0d7b-4c1e-9d3a-1f2e3d4c5b6a',
      brand: 'Medfolio',
      description: 'Medfolio health card',
      holder_name: null as string | null,
      show_name: false,
      qr_url: 'https://localhost/summary/AbCdEfGhIjKlMnOpQrStUv',
      header_fields: [{ key: 'card', label: 'CARD', value: 'Health card' }],
      primary_fields: [{ key: 'holder', label: 'SCAN TO VIEW', value: 'My health summary' }],
      secondary_fields: [{ key: 'use', label: 'SHARE', value: 'Show the QR code to your care team' }],
      back_fields: [{ key: 'revoke', label: 'How to revoke', value: 'Sign in and revoke the link.' }],
      background_color: 'rgb(15, 118, 110)',
      foreground_color: 'rgb(255, 255, 255)',
      label_color: 'rgb(204, 251, 241)',
      updated_at: '2026-01-01T00:00:00.000Z',
    };
    let current: typeof pass & { holder_name: string | null } = pass;
    const server = fakeServer({
      'GET /api/client-config/': () => ({ body: { google_client_id: null, google_authorization_url: 'http://google.test/auth', google_wallet: false } }),
      'GET /api/wallet/pass/': () => ({ body: current }),
      'PUT /api/wallet/settings/': () => {
        current = { ...pass, show_name: true, holder_name: 'Ana', primary_fields: [{ key: 'holder', label: 'CARD HOLDER', value: 'Ana' }] };
        return { body: current };
      },
    });
    storeTokens({ access: 'access-1', refresh: 'refresh-1' });
    const user = userEvent.setup();
    renderPage(<WalletPreview />, { path: '/wallet-preview' });
    const qr = await screen.findByRole('img', { name: "QR code of your card's summary link" });
    await waitFor(() => expect(qr.querySelector('path')).not.toBeNull());
    const front = screen.getByTestId('pass-front');
    expect(front).toHaveTextContent('Medfolio');
    expect(front).toHaveTextContent('SCAN TO VIEW');
    expect(front).toHaveTextContent('My health summary');
    await user.click(screen.getByRole('button', { name: 'View' }));
    expect(screen.getByRole('term')).toHaveTextContent('How to revoke');

    await user.click(screen.getByRole('checkbox', { name: 'Show my first name on the card' }));
    await waitFor(() => expect(server.calls.find((c) => c.method === 'PUT')?.body).toEqual({ show_name: true }));
    expect(await screen.findByText('CARD HOLDER')).toBeInTheDocument();
  }, 15_000);
});
