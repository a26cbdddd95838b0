import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearTokens, storeTokens } from '../../session/tokens';
import { renderPage } from '../../test/render';
import About from './About';

afterEach(() => clearTokens());

const render = () =>
  renderPage(<About />, {
    path: '/about',
    routes: [
      { path: '/login', element: <p>login page</p> },
      { path: '/referral', element: <p>referral page</p> },
    ],
  });

describe('About page', () => {
  it('describes the product, sharing with doctors and the four features', () => {
    render();
    expect(screen.getByRole('heading', { level: 1, name: 'About Medfolio' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Sharing with your doctors' })).toBeInTheDocument();
    for (const feature of ['Upload any format', 'Organize securely', 'Easy viewing', 'Share with doctors']) {
      expect(screen.getByRole('heading', { level: 3, name: feature })).toBeInTheDocument();
    }
    expect(screen.getByText(/PDFs, images, Word docs and zip files/)).toBeInTheDocument();
  });

  it("sends a visitor's 'Start Referring' through the login page", async () => {
    const user = userEvent.setup();
    const { router } = render();
    const link = screen.getByRole('link', { name: 'Start Referring' });
    expect(link).toHaveAttribute('href', '/login?next=/referral');
    await user.click(link);
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=/referral');
  });

  it("sends a signed-in user's 'Start Referring' straight to /referral", async () => {
    storeTokens({ access: 'access-1', refresh: 'refresh-1' });
    const user = userEvent.setup();
    render();
    const link = screen.getByRole('link', { name: 'Start Referring' });
    expect(link).toHaveAttribute('href', '/referral');
    await user.click(link);
    expect(await screen.findByText('referral page')).toBeInTheDocument();
  });
});
