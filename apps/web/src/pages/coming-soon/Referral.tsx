import { ComingSoon } from './ComingSoon';

/** /referral (About's Start Referring) until the referral programme lands. */
export default function ReferralComingSoon() {
  return (
    <ComingSoon
      title="Refer a friend"
      links={[
        { to: '/', label: 'Back to your documents' },
        { to: '/about', label: 'About Medfolio' },
      ]}
    >
      <p>
        Soon you will get a personal link to invite friends and family to Medfolio: refer 3 or more and get one month free.
      </p>
      <p>The referral programme is not open yet.</p>
    </ComingSoon>
  );
}
