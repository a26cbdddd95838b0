import { Link } from 'react-router';
import { LegalPage, LegalSection, linkClass } from './LegalPage';

/** /terms: the terms of service in plain language. */
export default function Terms() {
  return (
    <LegalPage
      title="Terms of Service"
      intro={
        <>
          These terms are the agreement between you and Medfolio when you use the service. We have kept them short and in
          plain language. By creating an account you agree to them.
        </>
      }
    >
      <LegalSection title="What Medfolio is, and is not">
        <p>
          Medfolio keeps your medical documents in one place, builds a summary of them and helps you share that summary
          with the people who care for you.
        </p>
        <p>
          Medfolio is not a doctor, a hospital or an emergency service, and it does not give medical advice. Summaries
          are produced automatically and can be incomplete or wrong: always check them against your original documents,
          and talk to a health professional about any decision. In an emergency, call your local emergency number.
        </p>
      </LegalSection>

      <LegalSection title="Your account">
        <ul className="list-disc space-y-2 pl-6">
          <li>Give accurate details when you sign up, and keep your password to yourself.</li>
          <li>
            You are responsible for what happens in your account. If you think someone else has used it, change your
            password and tell us.
          </li>
          <li>You can check every access to your records in your access history.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Your documents">
        <ul className="list-disc space-y-2 pl-6">
          <li>
            Your documents stay yours. You give us permission to store and process them only to provide Medfolio to you.
          </li>
          <li>Upload only documents about you, or about someone you are allowed to manage records for.</li>
          <li>
            When you share your summary link or QR code, anyone who has it can read your summary. You decide who gets
            it.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Plans and payment">
        <ul className="list-disc space-y-2 pl-6">
          <li>
            The Free plan holds 2 documents. Paid plans hold more and are billed monthly or yearly, in US dollars,
            through our card payment provider; prices are on the{' '}
            <Link to="/membership" className={linkClass}>
              pricing page
            </Link>
            .
          </li>
          <li>
            A paid plan renews at the end of each billing period until you cancel it; cancelling stops the next renewal.
          </li>
          <li>Invite 3 or more friends who join and you earn one month free.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Fair use">
        <p>
          Do not use Medfolio to break the law, to upload someone else’s records without their permission, or to disrupt
          the service or other people’s use of it. We may suspend an account that does.
        </p>
      </LegalSection>

      <LegalSection title="Availability">
        <p>
          We aim to keep Medfolio available 24/7, but we cannot promise it will never be interrupted. Keep your original
          documents, or copies of them, somewhere else as well.
        </p>
      </LegalSection>

      <LegalSection title="Ending the agreement">
        <p>
          You can stop using Medfolio at any time. To close your account or to get a copy of your data, write to us
          through the{' '}
          <Link to="/contact" className={linkClass}>
            contact page
          </Link>
          . How we handle your information is described in our{' '}
          <Link to="/privacy" className={linkClass}>
            privacy policy
          </Link>
          .
        </p>
      </LegalSection>

      <LegalSection title="Changes to these terms">
        <p>If we change these terms in a way that matters, we will tell you by e-mail before the change applies.</p>
      </LegalSection>
    </LegalPage>
  );
}
