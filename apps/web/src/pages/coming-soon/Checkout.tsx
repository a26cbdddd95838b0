import { ComingSoon } from './ComingSoon';

/** /checkout?price_id=… (Choose a plan, Get Started) until billing lands. */
export default function CheckoutComingSoon() {
  return (
    <ComingSoon
      title="Paid plans"
      links={[
        { to: '/membership', label: 'Back to plans' },
        { to: '/contact', label: 'Contact us' },
      ]}
    >
      <p>Plans cannot be bought online yet: paying by card is coming with billing.</p>
      <p>
        Until then every account is on the Free plan (2 documents). If you need more now, write to us and we will help.
      </p>
    </ComingSoon>
  );
}
