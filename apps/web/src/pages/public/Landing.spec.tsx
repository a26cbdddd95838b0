import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render';
import Landing from './Landing';

const render = () =>
  renderPage(<Landing />, {
    routes: [
      { path: '/login', element: <p>login page</p> },
      { path: '/sign-up', element: <p>sign-up page</p> },
    ],
  });

const steps = [
  'Upload medical history reports',
  'AI-driven analysis of your data',
  'HIPAA-compliant cloud storage',
  'Add your card to your Apple Wallet',
  'Share info with your medical provider',
];

const tab = (i: number) => screen.getByRole('tab', { name: `Step ${i + 1}: ${steps[i]}` });
const panel = () => screen.getByRole('tabpanel');

describe('Landing page', () => {
  it('has the headline, Log In and Sign Up links and the explainer panel', () => {
    render();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/medical history, one tap away/i);
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/sign-up');
    expect(screen.getByRole('figure')).toHaveTextContent(/Medfolio at a glance/);
    // No images to download: the page is drawn with markup and inline SVG.
    expect(document.querySelectorAll('img')).toHaveLength(0);
  });

  it('shows the three trust badges and the three WHY? cards', () => {
    render();
    for (const badge of ['HIPAA Compliant', 'Consulted Doctors', '24/7 Access'])
      expect(screen.getByText(badge)).toBeInTheDocument();
    const why = screen.getByRole('heading', { level: 2, name: 'WHY?' }).closest('section') as HTMLElement;
    expect(
      within(why)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Accuracy Matters', 'Info Transfer Challenges', 'Stay in Control and Updated']);
    expect(within(why).getByText(/Doctors often lack your full medical history/)).toBeInTheDocument();
    expect(within(why).getByText(/do not follow you/)).toBeInTheDocument();
    expect(within(why).getByText(/You manage your own documentation/)).toBeInTheDocument();
  });

  it("lists the five 'How it works' steps, the first selected and explained", () => {
    render();
    expect(screen.getByRole('heading', { name: 'How it works' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab')).toHaveLength(5);
    expect(tab(0)).toHaveAttribute('aria-selected', 'true');
    expect(tab(0)).toHaveClass('bg-brand-700');
    expect(within(panel()).getByRole('heading', { name: steps[0] })).toBeInTheDocument();
    expect(panel()).toHaveTextContent('Step 1 of 5');
    expect(panel()).toHaveTextContent(/PDFs, images, Word documents or zip files/);
  });

  it('selects a step on click: it is highlighted and its explanation shown', async () => {
    const user = userEvent.setup();
    render();
    await user.click(tab(2));
    expect(tab(2)).toHaveAttribute('aria-selected', 'true');
    expect(tab(2)).toHaveClass('bg-brand-700');
    expect(tab(0)).toHaveAttribute('aria-selected', 'false');
    expect(tab(0)).not.toHaveClass('bg-brand-700');
    expect(panel()).toHaveAccessibleName(`Step 3: ${steps[2]}`);
    expect(within(panel()).getByRole('heading', { name: steps[2] })).toBeInTheDocument();
    expect(panel()).toHaveTextContent(/HIPAA-style safeguards/);
    expect(panel()).not.toHaveTextContent(/PDFs, images/);
  });

  it('moves between steps with the keyboard, one tab stop for the list', async () => {
    const user = userEvent.setup();
    render();
    expect(tab(0)).toHaveAttribute('tabindex', '0');
    expect(tab(1)).toHaveAttribute('tabindex', '-1');
    tab(0).focus();
    await user.keyboard('{ArrowDown}');
    expect(tab(1)).toHaveFocus();
    expect(tab(1)).toHaveAttribute('aria-selected', 'true');
    expect(tab(1)).toHaveAttribute('tabindex', '0');
    expect(panel()).toHaveTextContent(/summary of your conditions/);
    await user.keyboard('{End}');
    expect(tab(4)).toHaveFocus();
    expect(panel()).toHaveTextContent(/QR code or send the link/);
    await user.keyboard('{ArrowRight}');
    expect(tab(0)).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(tab(4)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Home}');
    expect(tab(0)).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(panel()).toHaveTextContent(/Apple Wallet/);
  });

  it('JOIN NOW leads to sign-up', async () => {
    const user = userEvent.setup();
    render();
    expect(screen.getByRole('link', { name: 'JOIN NOW' })).toHaveAttribute('href', '/sign-up');
    await user.click(screen.getByRole('link', { name: 'JOIN NOW' }));
    expect(await screen.findByText('sign-up page')).toBeInTheDocument();
  });

  it('Log In leads to the login page', async () => {
    const user = userEvent.setup();
    render();
    await user.click(screen.getByRole('link', { name: 'Log In' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
  });
});
