import { screen } from '@testing-library/react';
import { renderPage } from '../../../test/render';
import { LinkedMessage } from './LinkedMessage';

describe('LinkedMessage', () => {
  it("renders the app's known paths in a server message as links, keeping the rest as text", () => {
    renderPage(<LinkedMessage text="Your Free plan allows 2 documents. The Basic plan allows 5 documents: see /membership." />);
    const link = screen.getByRole('link', { name: 'plans and pricing' });
    expect(link).toHaveAttribute('href', '/membership');
    expect(link.parentElement).toHaveTextContent('Your Free plan allows 2 documents. The Basic plan allows 5 documents: see plans and pricing.');
  });

  it('leaves other paths, look-alikes and plain messages as text', () => {
    renderPage(<LinkedMessage text="See /membership-old, /membership/x or https://evil.example/ and /login." />);
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(screen.getByText('See /membership-old, /membership/x or https://evil.example/ and /login.')).toBeInTheDocument();
  });
});
