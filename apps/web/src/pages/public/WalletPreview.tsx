import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { useWalletPassViewQuery, useWalletSettingsMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import type { PassView } from '@medfolio/contracts';
import { QrCode } from '../../components/SiteQrCode';
import { StrokeIcon } from '../../components/StrokeIcon';
import { useSession } from '../../session/use-session';

/** The sample card's summary link: on a patient's own card, the QR code opens their summary. */
const SAMPLE_SUMMARY_PATH = '/summary/sample';

function sampleSummaryUrl(): string {
  return typeof window === 'undefined' ? SAMPLE_SUMMARY_PATH : `${window.location.origin}${SAMPLE_SUMMARY_PATH}`;
}

/** The Medfolio mark in the corner of the card (a white tile with the cross). */
function CardMark() {
  return (
    <svg viewBox="0 0 32 32" className="h-7 w-7" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#fff" />
      <path d="M13 7h6v6h6v6h-6v6h-6v-6H7v-6h6z" fill="#0f766e" />
    </svg>
  );
}

function CardFront({ name }: { name: string }) {
  return (
    <div className="flex h-full flex-col justify-between rounded-2xl bg-linear-to-br from-brand-700 to-brand-900 p-5 text-white shadow-lg">
      <div className="flex items-center justify-between">
        <span className="flex items-center gap-2 font-bold">
          <CardMark />
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

/** The front of the patient's own pass, drawn from the fields the signed pass carries (GET /api/wallet/pass/). */
function PassFront({ pass }: { pass: PassView }) {
  const [header] = pass.header_fields;
  return (
    <div
      className="flex h-full flex-col justify-between rounded-2xl p-5 shadow-lg"
      style={{ backgroundColor: pass.background_color, color: pass.foreground_color }}
      data-testid="pass-front"
    >
      <div className="flex items-center justify-between">
        <span className="flex items-center gap-2 font-bold">
          <CardMark />
          {pass.brand}
        </span>
        {header && (
          <span className="text-right text-sm">
            <span className="block text-xs uppercase tracking-wider" style={{ color: pass.label_color }}>
              {header.label}
            </span>
            {header.value}
          </span>
        )}
      </div>
      {[...pass.primary_fields, ...pass.secondary_fields].map((field) => (
        <div key={field.key}>
          <p className="text-xs uppercase tracking-wider" style={{ color: pass.label_color }}>
            {field.label}
          </p>
          <p className={field.key === 'holder' ? 'text-xl font-semibold' : 'text-sm'}>{field.value}</p>
        </div>
      ))}
    </div>
  );
}

function PassBack({ pass }: { pass: PassView }) {
  return (
    <div className="h-full rounded-2xl bg-white p-5 text-slate-900 shadow-lg ring-1 ring-slate-200" data-testid="card-back">
      <dl className="grid gap-y-2 text-sm">
        {pass.back_fields.map((field) => (
          <div key={field.key}>
            <dt className="text-xs font-semibold uppercase tracking-wider text-brand-800">{field.label}</dt>
            <dd className="break-words">{field.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The patient's choice: the first name on the pass or not (devices holding the pass are updated). */
function NameSetting({ pass }: { pass: PassView }) {
  const [update, { isLoading, error }] = useWalletSettingsMutation();
  const id = useId();
  return (
    <div className="mt-4">
      <label htmlFor={id} className="flex items-center gap-2 text-sm text-slate-800">
        <input id={id} type="checkbox" className="h-5 w-5" checked={pass.show_name} disabled={isLoading} onChange={(event) => void update({ body: { show_name: event.target.checked } })} />
        Show my first name on the card
      </label>
      {error && (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {errorMessage(error, 'The setting could not be saved. Please try again.')}
        </p>
      )}
    </div>
  );
}

/**
 * The back of the sample card: the same kind of fields as the real pass's back (apps/wallet's pass
 * design), which says what the card does and holds no health data; the summary is only behind the QR.
 */
function CardBack() {
  // The page is prerendered without a window: the address is filled in after hydration, so the
  // server's HTML and the first client render are the same text (a mismatch is React error #418).
  const [site, setSite] = useState('');
  useEffect(() => setSite(window.location.origin), []);
  const rows: [string, string][] = [
    ['About this card', 'Scanning the QR code opens the summary you confirmed in Medfolio, for as long as the card’s link is active. The card itself holds no medical information.'],
    ['How to revoke', 'Sign in, open Share links and revoke the link named ‘Wallet card’. Its QR code stops working at once.'],
    ['Website', site],
  ];
  return (
    <div className="h-full rounded-2xl bg-white p-5 text-slate-900 shadow-lg ring-1 ring-slate-200" data-testid="card-back">
      <p className="text-xs font-semibold uppercase tracking-wider text-slate-600">Sample card: the back of your own card reads the same</p>
      <dl className="mt-2 grid gap-y-2 text-sm">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt className="text-xs font-semibold uppercase tracking-wider text-brand-800">{term}</dt>
            <dd className="break-words">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * /wallet-preview: what the digital health card in a phone's wallet looks like. 'View' turns the
 * card over to its back (what the card is for and how to revoke it; never health data); the hidden side is inert, so only the visible one is read.
 */
export default function WalletPreview() {
  const { authenticated, user } = useSession();
  const [flipped, setFlipped] = useState(false);
  const cardId = useId();
  const name = user?.first_name || 'Patient';
  // Signed in: the patient's own pass, as the phone will show it; otherwise the sample card.
  const { data: pass, error: passError } = useWalletPassViewQuery(undefined, { skip: !authenticated });
  const url = pass?.qr_url ?? sampleSummaryUrl();
  // Signed in, the link opens the patient's own summary (what their card's QR code leads to), not the sample.
  const summaryPath = user ? `/summary/${encodeURIComponent(user.id)}` : SAMPLE_SUMMARY_PATH;

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:py-16">
      <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Hello, {name}!</h1>
      <p className="mt-2 text-lg text-slate-700">This is how your Medfolio health card looks in your phone’s wallet.</p>

      <div className="mt-8 grid items-start gap-8 md:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)]">
        <section aria-labelledby={`${cardId}-title`}>
          <h2 id={`${cardId}-title`} className="sr-only">
            Health card preview
          </h2>
          {/* The card keeps its shape; its back, longer than a narrow card is tall, is in the flow while shown, so the card grows to hold it all. */}
          <div id={cardId} className="grid aspect-[1.586] w-full [perspective:1200px]">
            <div
              className={`relative grid w-full transition-transform duration-500 [transform-style:preserve-3d] motion-reduce:transition-none ${flipped ? '[transform:rotateY(180deg)]' : ''}`}
            >
              <div className="absolute inset-0 [backface-visibility:hidden]" aria-hidden={flipped} inert={flipped}>
                {pass ? <PassFront pass={pass} /> : <CardFront name={name} />}
              </div>
              <div
                className={`${flipped ? 'relative' : 'absolute inset-0'} [backface-visibility:hidden] [transform:rotateY(180deg)]`}
                aria-hidden={!flipped}
                inert={!flipped}
              >
                {pass ? <PassBack pass={pass} /> : <CardBack />}
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
              {flipped ? (pass ? 'Showing the back of your card.' : 'Showing the back of the sample card.') : 'Showing the front of the card.'}
            </p>
          </div>
          {pass && <NameSetting pass={pass} />}
          {authenticated && passError && (
            <p role="alert" className="mt-3 text-sm font-medium text-red-700">
              {errorMessage(passError, 'Your card could not be loaded; the sample is shown.')}
            </p>
          )}
        </section>

        <section
          aria-labelledby={`${cardId}-qr`}
          className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200"
        >
          <h2 id={`${cardId}-qr`} className="text-lg font-bold text-slate-900">
            Scan to view the summary
          </h2>
          <div className="mt-4 flex justify-center">
            <QrCode value={url} size={160} label={pass ? "QR code of your card's summary link" : 'Sample QR code of a patient summary link'} />
          </div>
          <p className="mt-3 text-sm text-slate-600">
            {pass ? "Your card's own link: revoking it stops this code and retires the card (you then issue a new one from your dashboard)." : 'A sample: on your own card, this code opens your summary.'}
          </p>
          <a
            href={summaryPath}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-4 inline-flex min-h-11 items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
          >
            <StrokeIcon className="h-5 w-5">
              <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
            </StrokeIcon>
            {user ? 'Open my summary' : 'Open sample summary'}
            <span className="sr-only"> (opens in a new tab)</span>
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
