import { Link } from 'react-router';
import { StrokeIcon } from '../../components/StrokeIcon';
import { useSession } from '../../session/use-session';

/** Where 'Start Referring' leads: the referral page, through the login page for visitors. */
const REFERRAL_PATH = '/referral';
const REFERRAL_LOGIN_PATH = '/login?next=/referral';

const features = [
  {
    title: 'Upload any format',
    text: 'PDFs, images, Word docs and zip files: add reports as you receive them, one at a time or many at once.',
    icon: <path d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />,
  },
  {
    title: 'Organize securely',
    text: 'Your documents are kept in one place, stored encrypted, with a log of every access you can read yourself.',
    icon: <path d="M6 11V8a6 6 0 0 1 12 0v3M5 11h14v10H5zm7 4v2" />,
  },
  {
    title: 'Easy viewing',
    text: 'Find any file in seconds with search, preview it in the browser and download it whenever you need it.',
    icon: <path d="M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zm10 3a3 3 0 1 0 0-6 3 3 0 0 0 0 6z" />,
  },
  {
    title: 'Share with doctors',
    text: 'Give your doctor your summary through a QR code, a link or the health card in your phone’s wallet.',
    icon: (
      <path d="M16 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm10 7a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l4.8 2.9m0-8.8-4.8 2.9" />
    ),
  },
];

/** /about: what Medfolio is, how sharing with doctors works, its features and the referral programme. */
export default function About() {
  const { authenticated } = useSession();
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:py-16">
      <section aria-labelledby="about-heading" className="max-w-3xl">
        <h1 id="about-heading" className="text-3xl font-bold text-slate-900 sm:text-4xl">
          About Medfolio
        </h1>
        <p className="mt-4 text-lg text-slate-700">
          Medfolio is a medical record that you hold yourself. You upload the reports, results and letters you receive
          from every clinic and hospital; Medfolio keeps them together, builds a clear summary of your medical history
          and keeps it with you, on any device.
        </p>
        <p className="mt-3 text-lg text-slate-700">
          No more hunting for old results or retelling your history from memory at every appointment: it is all in one
          place, and you decide who sees it.
        </p>
      </section>

      <section
        aria-labelledby="sharing-heading"
        className="mt-12 grid items-center gap-8 rounded-2xl bg-brand-50 p-6 ring-1 ring-brand-100 sm:p-10 md:grid-cols-2"
      >
        <div>
          <h2 id="sharing-heading" className="text-2xl font-bold text-slate-900">
            Sharing with your doctors
          </h2>
          <p className="mt-3 text-slate-700">
            Seeing a new specialist, visiting an emergency room or travelling? Show the QR code on your health card, or
            send the link to your summary. Your doctor sees your conditions, past surgeries, medications and allergies
            in seconds, without installing anything.
          </p>
          <p className="mt-3 text-slate-700">
            Your summary is a starting point for the conversation, not a diagnosis: your original documents stay
            available for the details.
          </p>
        </div>
        <ol className="space-y-3">
          {[
            'Open your health card or summary',
            'Show the QR code or send the link',
            'Your doctor reads your summary',
          ].map((text, i) => (
            <li key={text} className="flex items-center gap-3 rounded-xl bg-white p-4 shadow-sm">
              <span
                aria-hidden="true"
                className="flex h-8 w-8 flex-none items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
              >
                {i + 1}
              </span>
              <span className="font-medium text-slate-800">{text}</span>
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="features-heading" className="mt-12">
        <h2 id="features-heading" className="text-2xl font-bold text-slate-900">
          Features
        </h2>
        <ul className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((feature) => (
            <li key={feature.title} className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
              <span className="flex h-11 w-11 items-center justify-center rounded-full bg-brand-100 text-brand-800">
                <StrokeIcon>{feature.icon}</StrokeIcon>
              </span>
              <h3 className="mt-4 text-lg font-bold text-slate-900">{feature.title}</h3>
              <p className="mt-2 text-slate-700">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-labelledby="referral-heading"
        className="mt-12 flex flex-col items-start gap-4 rounded-2xl bg-brand-900 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-10"
      >
        <div>
          <h2 id="referral-heading" className="text-2xl font-bold">
            Invite friends, earn a free month
          </h2>
          <p className="mt-2 text-brand-50">Refer 3 or more friends to Medfolio and get one month free.</p>
        </div>
        <Link
          to={authenticated ? REFERRAL_PATH : REFERRAL_LOGIN_PATH}
          className="inline-flex min-h-11 flex-none items-center rounded-lg bg-white px-5 py-2 font-semibold text-brand-900 hover:bg-brand-50"
        >
          Start Referring
        </Link>
      </section>
    </div>
  );
}
