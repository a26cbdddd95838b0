import { useId, useState } from 'react';
import { Link } from 'react-router';
import { QrCode } from '../../components/SiteQrCode';
import { useSession } from '../../session/use-session';

/** The sample card's summary link: on a patient's own card, the QR code opens their summary. */
const SAMPLE_SUMMARY_PATH = '/summary/sample';

function sampleSummaryUrl(): string {
  return typeof window === 'undefined' ? SAMPLE_SUMMARY_PATH : `${window.location.origin}${SAMPLE_SUMMARY_PATH}`;
}

function CardFront({ name }: { name: string }) {
  return (
    <div className="flex h-full flex-col justify-between rounded-2xl bg-linear-to-br from-brand-700 to-brand-900 p-5 text-white shadow-lg">
      <div className="flex items-center justify-between">
        <span className="flex items-center gap-2 font-bold">
          <svg viewBox="0 0 32 32" className="h-7 w-7" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="#fff" />
            <path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#0f766e" />
          </svg>
          Medfolio
        </span>
        <span className="text-sm text-brand-50">Digital Health Card</span>
      </div>
      <svg viewBox="0 0 120 24" className="h-6 w-32 opacity-60" aria-hidden="true">
        <path d="M0 12h30l6-10 8 20 8-16 5 6h63" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinejoin="round" />
      </svg>
      <div>
        <p className="text-xs uppercase tracking-wider text-brand-50">Card holder</p>
        <p className="text-xl font-semibold">{name}</p>
      </div>
    </div>
  );
}

function CardBack({ name }: { name: string }) {
  const rows: [string, string][] = [
    ['Name', name],
    ['Blood type', 'O+'],
    ['Allergies', 'Penicillin'],
    ['Conditions', 'Asthma (mild)'],
    ['Emergency contact', '+1 555 0100'],
  ];
  return (
    <div className="h-full rounded-2xl bg-white p-5 text-slate-900 shadow-lg ring-1 ring-slate-200">
      <p className="text-xs font-semibold uppercase tracking-wider text-brand-800">
        Sample summary: your card shows your own
      </p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([term, value]) => (
          <div key={term} className="contents">
            <dt className="text-slate-600">{term}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * /wallet-preview: what the digital health card in a phone's wallet looks like. 'View' turns the
 * card over to its (sample) summary side; the hidden side is inert, so only the visible one is read.
 */
export default function WalletPreview() {
  const { authenticated, user } = useSession();
  const [flipped, setFlipped] = useState(false);
  const cardId = useId();
  const name = user?.first_name || 'Patient';
  const url = sampleSummaryUrl();

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Hello, {name}!</h1>
      <p className="mt-2 text-lg text-slate-700">This is how your Medfolio health card looks in your phone’s wallet.</p>

      <div className="mt-8 grid items-start gap-8 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)]">
        <section aria-labelledby={`${cardId}-title`}>
          <h2 id={`${cardId}-title`} className="sr-only">
            Health card preview
          </h2>
          <div id={cardId} className="aspect-[1.586] w-full [perspective:1200px]">
            <div
              className={`relative h-full w-full transition-transform duration-500 [transform-style:preserve-3d] motion-reduce:transition-none ${flipped ? '[transform:rotateY(180deg)]' : ''}`}
            >
              <div className="absolute inset-0 [backface-visibility:hidden]" aria-hidden={flipped} inert={flipped}>
                <CardFront name={name} />
              </div>
              <div
                className="absolute inset-0 [backface-visibility:hidden] [transform:rotateY(180deg)]"
                aria-hidden={!flipped}
                inert={!flipped}
              >
                <CardBack name={name} />
              </div>
            </div>
          </div>
          <div className="mt-4 flex items-center gap-3">
            <button
              type="button"
              aria-pressed={flipped}
              aria-controls={cardId}
              onClick={() => setFlipped((v) => !v)}
              className="inline-flex min-h-11 items-center rounded-lg bg-brand-700 px-5 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            >
              View
            </button>
            <p className="text-sm text-slate-600">
              {flipped ? 'Showing the summary side of the card.' : 'Showing the front of the card.'}
            </p>
          </div>
        </section>

        <section
          aria-labelledby={`${cardId}-qr`}
          className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200"
        >
          <h2 id={`${cardId}-qr`} className="text-lg font-bold text-slate-900">
            Scan to view the summary
          </h2>
          <div className="mt-4 flex justify-center">
            <QrCode value={url} size={160} label="Sample QR code of a patient summary link" />
          </div>
          <p className="mt-3 text-sm text-slate-600">A sample: on your own card, this code opens your summary.</p>
          <a
            href={SAMPLE_SUMMARY_PATH}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-4 inline-flex min-h-11 items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
          >
            <svg
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
              aria-hidden="true"
            >
              <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
            </svg>
            Open sample summary<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </section>
      </div>

      {!authenticated && (
        <p className="mt-10 text-center text-slate-700">
          Already have an account?{' '}
          <Link to="/login" className="font-semibold text-brand-800 underline underline-offset-4">
            Login
          </Link>
        </p>
      )}
    </div>
  );
}
