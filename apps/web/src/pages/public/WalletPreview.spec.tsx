import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { userLoaded } from '../../session/session-slice';
import { clearTokens, storeTokens } from '../../session/tokens';
import { renderPage } from '../../test/render';
import WalletPreview from './WalletPreview';

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
    expect(external).toHaveAttribute('target', '_blank');
    expect(external).toHaveAttribute('rel', expect.stringContaining('noopener'));
  });

  it('greets a signed-in user by first name, without the Login link', async () => {
    storeTokens({ access: 'access-1', refresh: 'refresh-1' });
    const { store } = await render();
    act(() => {
      store.dispatch(
        userLoaded({
          id: 'u1',
          first_name: 'Ana',
          last_name: 'Lima',
          email: 'ana@example.com',
          phone: '1',
          profile_picture: null,
        }),
      );
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Hello, Ana!' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it("'View' turns the card over to its summary side, and back", async () => {
    const user = userEvent.setup();
    await render();
    const view = screen.getByRole('button', { name: 'View' });
    expect(view).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByText('Digital Health Card')).toBeVisible();
    expect(screen.queryByRole('term')).not.toBeInTheDocument(); // the hidden side is out of the accessibility tree
    await user.click(view);
    expect(view).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByRole('term').map((t) => t.textContent)).toContain('Blood type');
    await user.click(view);
    expect(view).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('term')).not.toBeInTheDocument();
  });
});
