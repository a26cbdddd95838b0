import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../test/render';
import Membership from './Membership';
import { ADVANCED_ANALYTICS, PRIORITY_SUPPORT } from './plans';

const render = () =>
  renderPage(<Membership />, {
    path: '/membership',
    routes: [
      { path: '/checkout', element: <p>checkout page</p> },
      { path: '/contact', element: <p>contact page</p> },
    ],
  });

/** The card (list item) headed by a plan's name. */
const card = (name: string) => {
  const item = screen.getByRole('heading', { level: 2, name }).closest('li');
  if (!item) throw new Error(`no card for ${name}`);
  return within(item);
};

const paid = [
  { name: 'Basic', link: 'Choose Basic', monthly: '$8', yearly: '$80', id: 'basic', documents: 'Up to 5 documents' },
  {
    name: 'Standard',
    link: 'Choose Standard',
    monthly: '$12',
    yearly: '$120',
    id: 'standard',
    documents: 'Up to 12 documents',
  },
  { name: 'Plus', link: 'Get Started', monthly: '$24', yearly: '$240', id: 'plus', documents: 'Up to 25 documents' },
  { name: 'Family', link: 'Choose Family', monthly: '$49', yearly: '$490', id: 'pro', documents: '25+ documents' },
];

describe('Membership page', () => {
  it('starts on yearly prices, each card linking to checkout with its yearly price id', () => {
    render();
    expect(screen.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Monthly' })).not.toBeChecked();
    for (const plan of paid) {
      const c = card(plan.name);
      expect(c.getByText(plan.yearly)).toBeInTheDocument();
      expect(c.getByText('/year')).toBeInTheDocument();
      expect(c.queryByText('/month')).not.toBeInTheDocument();
      expect(c.getByRole('link', { name: plan.link })).toHaveAttribute(
        'href',
        `/checkout?price_id=price_${plan.id}_yearly`,
      );
    }
  });

  it('switches every card to monthly prices and monthly price ids, and back', async () => {
    const user = userEvent.setup();
    render();
    await user.click(screen.getByRole('radio', { name: 'Monthly' }));
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    for (const plan of paid) {
      const c = card(plan.name);
      expect(c.getByText(plan.monthly)).toBeInTheDocument();
      expect(c.getByText('/month')).toBeInTheDocument();
      expect(c.queryByText(plan.yearly)).not.toBeInTheDocument();
      expect(c.getByRole('link', { name: plan.link })).toHaveAttribute(
        'href',
        `/checkout?price_id=price_${plan.id}_monthly`,
      );
    }
    await user.click(screen.getByRole('radio', { name: /Yearly/ }));
    expect(card('Basic').getByText('$80')).toBeInTheDocument();
  });

  it('moves between Monthly and Yearly with the arrow keys', async () => {
    const user = userEvent.setup();
    render();
    screen.getByRole('radio', { name: /Yearly/ }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Monthly' })).toBeChecked();
    expect(card('Standard').getByText('$12')).toBeInTheDocument();
  });

  it('marks Free as the current plan ($0 lifetime, 2 documents only) with no checkout link', () => {
    render();
    const free = card('Free');
    expect(free.getByText('Current Plan')).toBeInTheDocument();
    expect(free.getByText('$0')).toBeInTheDocument();
    expect(free.getByText('/lifetime')).toBeInTheDocument();
    expect(free.getByText('2 documents only')).toBeInTheDocument();
    // What Free users do get: the summary, its QR code and the wallet card.
    expect(free.getByText('AI-driven summary of your records')).toBeInTheDocument();
    expect(free.getByText('QR code and wallet card sharing')).toBeInTheDocument();
    expect(free.queryByRole('link')).not.toBeInTheDocument();
  });

  it('marks Plus as Most Popular, and lists documents and extras per plan', () => {
    render();
    expect(card('Plus').getByText('Most Popular')).toBeInTheDocument();
    expect(screen.getAllByText('Most Popular')).toHaveLength(1);
    for (const plan of paid) expect(card(plan.name).getByText(plan.documents)).toBeInTheDocument();
    expect(card('Plus').getByText(PRIORITY_SUPPORT)).toBeInTheDocument();
    expect(card('Plus').getByText(ADVANCED_ANALYTICS)).toBeInTheDocument();
    expect(card('Family').getByText(ADVANCED_ANALYTICS)).toBeInTheDocument();
    expect(card('Plus').queryByText(/^Team collaboration/)).not.toBeInTheDocument();
    expect(card('Family').getByText(/^Team collaboration: records for your children, caregivers invited to view or manage$/)).toBeInTheDocument();
    expect(card('Family').getByText(/^Admin controls: see who has access/)).toBeInTheDocument();
    expect(card('Standard').queryByText(PRIORITY_SUPPORT)).not.toBeInTheDocument();
    expect(card('Standard').queryByText(ADVANCED_ANALYTICS)).not.toBeInTheDocument();
  });

  it('goes to checkout from a card', async () => {
    const user = userEvent.setup();
    const { router } = render();
    await user.click(card('Plus').getByRole('link', { name: 'Get Started' }));
    expect(await screen.findByText('checkout page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?price_id=price_plus_yearly');
  });

  it("sends 'Contact Sales' to the contact page", async () => {
    const user = userEvent.setup();
    render();
    expect(screen.getByRole('heading', { name: 'Need a custom solution?' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Contact Sales' }));
    expect(await screen.findByText('contact page')).toBeInTheDocument();
  });
});
