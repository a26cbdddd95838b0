import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearTokens, storeTokens } from '../../session/tokens';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import Referral from './Referral';

afterEach(() => clearTokens());

const referral = {
  code: 'ABCD2345',
  link: 'https://localhost/sign-up?ref=ABCD2345',
  invited: 4,
  joined: 3,
  counted: 3,
  months_earned: 1,
  towards_next: 0,
  credit_cents: 800,
};

describe('Referral page', () => {
  it('promises what the programme gives, free months, and never money or a cash-out', async () => {
    fakeServer({ 'GET /api/referral/': () => ({ body: referral }) });
    storeTokens({ access: 'access-1', refresh: 'refresh-1' });
    const user = userEvent.setup();
    renderPage(<Referral />, { path: '/referral' });

    expect(await screen.findByRole('heading', { level: 2, name: 'Earn free months!' })).toBeInTheDocument();
    expect(document.body).not.toHaveTextContent(/money|cash/i);
    const rewards = screen.getByRole('button', { name: 'See my free months' });
    expect(rewards).toHaveAttribute('aria-expanded', 'false');
    await user.click(rewards);
    expect(rewards).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('status')).toHaveTextContent(
      'You have earned 1 free month, $8 of credit. On a paid plan, the credit is applied to your next invoices automatically; on the Free plan, each month earned is a month of Basic.',
    );
    expect(document.body).not.toHaveTextContent(/money|cash/i);
  });
});
