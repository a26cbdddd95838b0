import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { linkClass } from './LegalPage';

const questions: { question: string; answer: ReactNode }[] = [
  {
    question: 'What is Medfolio?',
    answer: (
      <p>
        A medical record you hold yourself. You upload the reports and results you receive, Medfolio keeps them together
        and builds a summary of your medical history that you can share with any doctor.
      </p>
    ),
  },
  {
    question: 'Which files can I upload?',
    answer: (
      <p>
        PDF documents, images (JPG and PNG), Word documents (DOC and DOCX) and zip files. You can select several files
        at once.
      </p>
    ),
  },
  {
    question: 'How is my information protected?',
    answer: (
      <p>
        Medfolio is built to HIPAA-style safeguards: your connection is encrypted, your documents are stored encrypted,
        and every access to your records is written to an audit log. We never sell your data. Read the details in our{' '}
        <Link to="/privacy" className={linkClass}>
          privacy policy
        </Link>
        .
      </p>
    ),
  },
  {
    question: 'Can I see who has looked at my records?',
    answer: (
      <p>
        Yes. Once signed in, open <strong>Access history</strong> in your account menu: it lists each time your records
        were viewed, downloaded or changed, with the date and where it came from.
      </p>
    ),
  },
  {
    question: 'Who can see my summary?',
    answer: (
      <p>
        You, and anyone you give your summary link or QR code to. Share them with your doctors and the people you trust;
        anyone who has the link can read the summary.
      </p>
    ),
  },
  {
    question: 'Does the summary replace my doctor’s advice?',
    answer: (
      <p>
        No. The summary is produced automatically from your documents and can miss or misread something. It helps your
        doctor get the picture quickly; your original documents remain the reference, and medical decisions belong with
        a health professional.
      </p>
    ),
  },
  {
    question: 'How do I add my health card to Apple Wallet?',
    answer: (
      <p>
        Sign in, choose <strong>Generate Apple Wallet Pass</strong> on your home screen and open the pass on your
        iPhone. See what the card looks like on the{' '}
        <Link to="/wallet-preview" className={linkClass}>
          card preview
        </Link>
        .
      </p>
    ),
  },
  {
    question: 'What does it cost?',
    answer: (
      <p>
        The Free plan holds 2 documents. Paid plans start at $8 a month, and paying yearly costs the price of 10 months.
        Invite 3 or more friends and you earn a month free. See every plan on the{' '}
        <Link to="/membership" className={linkClass}>
          pricing page
        </Link>
        .
      </p>
    ),
  },
];

/** /faq: questions as native disclosures (<details>/<summary>): keyboard and screen-reader support come from the browser. */
export default function Faq() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Frequently asked questions</h1>
      <p className="mt-4 text-lg text-slate-700">
        Can’t find your answer here?{' '}
        <Link to="/contact" className={linkClass}>
          Contact us
        </Link>
        .
      </p>
      <div className="mt-8 space-y-3">
        {questions.map(({ question, answer }) => (
          <details key={question} className="group rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
            <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-4 rounded-xl px-5 py-4 font-semibold text-slate-900 [&::-webkit-details-marker]:hidden">
              <span>{question}</span>
              <svg
                viewBox="0 0 20 20"
                className="h-5 w-5 flex-none text-brand-800 transition-transform group-open:rotate-180"
                aria-hidden="true"
              >
                <path d="M5 7l5 6 5-6z" fill="currentColor" />
              </svg>
            </summary>
            <div className="px-5 pb-5 text-slate-700">{answer}</div>
          </details>
        ))}
      </div>
    </div>
  );
}
