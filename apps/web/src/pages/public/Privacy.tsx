import { Link } from 'react-router';
import { LegalPage, LegalSection, linkClass } from './LegalPage';

/** /privacy: what Medfolio keeps, how it is protected, who sees it. Plain words, no claims we cannot back. */
export default function Privacy() {
  return (
    <LegalPage
      title="Privacy policy"
      intro={
        <>
          Medfolio is a medical record that you hold. Your health information belongs to you: we keep it so that you can
          use it, and for no other purpose. This page explains, in plain words, what we store, how we protect it and who
          can see it.
        </>
      }
    >
      <LegalSection title="What we store">
        <ul className="list-disc space-y-2 pl-6">
          <li>
            <strong>Your account:</strong> your name, e-mail address, mobile number, date of birth and, if you add one,
            a profile picture. Your password is never stored as such, only a one-way hash of it.
          </li>
          <li>
            <strong>Your documents:</strong> the files you upload (reports, images, Word documents, zip files) and their
            names and upload dates.
          </li>
          <li>
            <strong>Your summary:</strong> the text Medfolio reads from your documents and the summary built from it.
          </li>
          <li>
            <strong>Your access history:</strong> a record of every time your account or your records are accessed (see
            below).
          </li>
          <li>
            <strong>Your plan:</strong> which membership you have and its billing dates. Card payments are handled by
            our payment provider; we do not store your card number.
          </li>
          <li>
            <strong>Messages you send us</strong> through the contact form.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="How we protect it">
        <ul className="list-disc space-y-2 pl-6">
          <li>
            Medfolio is built to HIPAA-style safeguards. Your connection to Medfolio is encrypted, and your documents
            are encrypted where they are stored.
          </li>
          <li>Your documents open only from your own signed-in account; download links are signed and short-lived.</li>
          <li>
            Verification codes and password-reset links are single-use and expire, and repeated failed attempts are
            blocked for a while.
          </li>
          <li>
            You stay signed in through two cookies that only serve that purpose. We use no advertising or tracking
            cookies.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="An audit log of every access">
        <p>
          Every time your records are opened, downloaded, shared or changed, and every sign-in to your account, an entry
          is written to an audit log: what happened, when, and from where. The log is append-only and chained, so that
          an entry cannot be changed or removed without it showing.
        </p>
        <p>
          You can read your own access history at any time once signed in, under <strong>Access history</strong> in your
          account menu.
        </p>
      </LegalSection>

      <LegalSection title="Who can see your information">
        <ul className="list-disc space-y-2 pl-6">
          <li>
            <strong>You.</strong>
          </li>
          <li>
            <strong>The people you share it with.</strong> Anyone who has your summary link, or scans the QR code on
            your health card, can read your summary. Share it only with people you trust, such as your doctors.
          </li>
          <li>
            <strong>Service providers who help us run Medfolio</strong> (hosting, e-mail delivery, card payments and,
            where used, the service that builds summaries), only for that purpose and under contract.
          </li>
          <li>
            <strong>Authorities</strong>, only where the law requires it.
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="What we never do">
        <p>
          We do not sell your data. We do not share it with advertisers or data brokers, and we do not use your health
          information for advertising.
        </p>
      </LegalSection>

      <LegalSection title="Your choices">
        <ul className="list-disc space-y-2 pl-6">
          <li>You can delete any document at any time from your home screen.</li>
          <li>You can correct your name and phone number in your settings.</li>
          <li>
            To receive a copy of your data or to close your account, send us a message through the{' '}
            <Link to="/contact" className={linkClass}>
              contact page
            </Link>
            .
          </li>
        </ul>
      </LegalSection>

      <LegalSection title="Changes and questions">
        <p>
          If we change this policy in a way that matters, we will tell you by e-mail before the change applies.
          Questions are welcome on the{' '}
          <Link to="/contact" className={linkClass}>
            contact page
          </Link>
          .
        </p>
      </LegalSection>
    </LegalPage>
  );
}
