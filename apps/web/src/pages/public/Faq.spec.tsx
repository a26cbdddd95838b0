import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render';
import Faq from './Faq';
import Privacy from './Privacy';
import Terms from './Terms';

describe('FAQ page', () => {
  it('lists 6 to 8 questions as closed disclosures that open on click', async () => {
    const user = userEvent.setup();
    renderPage(<Faq />, { path: '/faq' });
    const details = document.querySelectorAll('details');
    expect(details.length).toBeGreaterThanOrEqual(6);
    expect(details.length).toBeLessThanOrEqual(8);
    for (const item of details) expect(item).not.toHaveAttribute('open');
    await user.click(screen.getByText('Which files can I upload?'));
    expect(screen.getByText('Which files can I upload?').closest('details')).toHaveAttribute('open');
  });
});

describe('Privacy and terms pages', () => {
  it('make no certification claim', () => {
    for (const page of [<Privacy key="p" />, <Terms key="t" />, <Faq key="f" />]) {
      const { unmount, container } = renderPage(page);
      expect(container.textContent).not.toMatch(/certified|HIPAA compliant/i);
      unmount();
    }
  });

  it('say the data is never sold and every access is logged', () => {
    renderPage(<Privacy />, { path: '/privacy' });
    expect(screen.getByRole('heading', { level: 1, name: 'Privacy policy' })).toBeInTheDocument();
    expect(screen.getByText(/We do not sell your data/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'An audit log of every access' })).toBeInTheDocument();
  });
});
