import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { StrokeIcon } from '../../components/StrokeIcon';

/*
 * The landing page is the first thing most visitors load, and it is bundled with the app's entry
 * (not a lazy chunk): plain markup, inline SVG, no images, no imports beyond the router's Link and
 * the shared inline icon.
 */

const primaryLink =
  'inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-5 py-2 font-semibold text-white hover:bg-brand-800';
const secondaryLink =
  'inline-flex min-h-11 items-center justify-center rounded-lg border border-brand-700 bg-white px-5 py-2 font-semibold text-brand-800 hover:bg-brand-50';

/** In place of the original's placeholder video: an illustrated explainer of what Medfolio does. */
function ExplainerPanel() {
  return (
    <figure className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <svg viewBox="0 0 480 220" className="h-auto w-full" aria-hidden="true">
        <rect width="480" height="220" rx="16" fill="#f0fdfa" />
        {/* Your records: a stack of documents */}
        <g transform="translate(40 46)">
          <rect x="14" y="-8" width="80" height="104" rx="8" fill="#ccfbf1" />
          <rect width="80" height="104" rx="8" fill="#fff" stroke="#0f766e" strokeWidth="3" />
          <path d="M16 24h48M16 40h48M16 56h32M16 72h40" stroke="#94a3b8" strokeWidth="5" strokeLinecap="round" />
        </g>
        <path
          d="M150 98h36m-10-10 10 10-10 10"
          stroke="#0f766e"
          strokeWidth="4"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        {/* Your summary: a phone showing the health card */}
        <g transform="translate(196 22)">
          <rect width="92" height="164" rx="14" fill="#134e4a" />
          <rect x="8" y="14" width="76" height="136" rx="6" fill="#fff" />
          <rect x="14" y="22" width="64" height="38" rx="5" fill="#0f766e" />
          <path d="M38 30h6v8h8v6h-8v8h-6v-8h-8v-6h8z" fill="#fff" />
          <path d="M20 74h52M20 86h40M20 98h46" stroke="#94a3b8" strokeWidth="5" strokeLinecap="round" />
          <g fill="#134e4a">
            <rect x="30" y="110" width="10" height="10" />
            <rect x="52" y="110" width="10" height="10" />
            <rect x="30" y="130" width="10" height="10" />
            <rect x="42" y="122" width="8" height="8" />
            <rect x="54" y="132" width="8" height="8" />
          </g>
        </g>
        <path
          d="M298 98h36m-10-10 10 10-10 10"
          stroke="#0f766e"
          strokeWidth="4"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        {/* Your doctor */}
        <g transform="translate(350 40)">
          <circle cx="45" cy="30" r="24" fill="#ccfbf1" stroke="#0f766e" strokeWidth="3" />
          <path d="M5 120c0-30 18-50 40-50s40 20 40 50z" fill="#fff" stroke="#0f766e" strokeWidth="3" />
          <path d="M32 74v22a13 13 0 0 0 26 0V74" stroke="#134e4a" strokeWidth="3" fill="none" />
          <circle cx="58" cy="104" r="5" fill="#134e4a" />
        </g>
        <g fill="#134e4a" fontFamily="system-ui, sans-serif" fontSize="15" fontWeight="600" textAnchor="middle">
          <text x="80" y="180">
            Your records
          </text>
          <text x="242" y="206">
            Your summary
          </text>
          <text x="395" y="180">
            Your doctor
          </text>
        </g>
      </svg>
      <figcaption className="mt-4 text-slate-700">
        <span className="font-semibold text-slate-900">Medfolio at a glance:</span> upload your reports, get one clear
        summary on your phone, and share it with any doctor through a QR code or a link.
      </figcaption>
    </figure>
  );
}

const badges = [
  {
    title: 'HIPAA Compliant',
    text: 'Built to HIPAA-style safeguards: encrypted storage and a log of every access.',
    icon: <path d="M12 3 4 6v6c0 4.5 3.4 8.3 8 9 4.6-.7 8-4.5 8-9V6zm-3 9 2 2 4-4" />,
  },
  {
    title: 'Consulted Doctors',
    text: 'Shaped with feedback from practising doctors.',
    icon: <path d="M6 3v6a4 4 0 0 0 8 0V3M10 13v2a5 5 0 0 0 10 0v-2m0 0a2 2 0 1 0 0-4 2 2 0 0 0 0 4z" />,
  },
  {
    title: '24/7 Access',
    text: 'Your records on any device, whenever you need them.',
    icon: <path d="M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-13v4l3 2" />,
  },
];

const STEPS = [
  {
    title: 'Upload medical history reports',
    text: 'Add lab results, scans, discharge letters and prescriptions as PDFs, images, Word documents or zip files, from your phone or your computer.',
  },
  {
    title: 'AI-driven analysis of your data',
    text: 'Medfolio reads your documents and builds a summary of your conditions, past surgeries, medications and allergies. It is a summary, not a diagnosis: your original documents stay one tap away.',
  },
  {
    title: 'HIPAA-compliant cloud storage',
    text: 'Your files are stored encrypted, built to HIPAA-style safeguards, and every access to them is recorded in an access history you can read yourself.',
  },
  {
    title: 'Add your card to your Apple Wallet',
    text: 'Generate a digital health card for Apple Wallet, so the link to your summary and its QR code are always in your pocket.',
  },
  {
    title: 'Share info with your medical provider',
    text: 'Show the QR code or send the link: your doctor sees your summary in seconds, with nothing to install.',
  },
];

/**
 * 'How it works': the five steps as a vertical tablist. The selected step is highlighted and its
 * explanation shown; arrow keys, Home and End move between steps (one tab stop for the list).
 */
function HowItWorks() {
  const [selected, setSelected] = useState(0);
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const base = useId();
  const tabId = (i: number) => `${base}-step-${i}`;
  const panelId = `${base}-panel`;

  const select = (i: number) => {
    const next = (i + STEPS.length) % STEPS.length;
    setSelected(next);
    tabs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = {
      ArrowDown: selected + 1,
      ArrowRight: selected + 1,
      ArrowUp: selected - 1,
      ArrowLeft: selected - 1,
      Home: 0,
      End: STEPS.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(target);
  };

  const step = STEPS[selected] ?? STEPS[0];
  return (
    <section aria-labelledby={`${base}-heading`} className="mx-auto max-w-6xl px-4 py-14">
      <h2 id={`${base}-heading`} className="text-center text-3xl font-bold text-slate-900">
        How it works
      </h2>
      <div className="mt-8 grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        <div
          role="tablist"
          aria-orientation="vertical"
          aria-label="Steps"
          className="flex flex-col gap-2"
          onKeyDown={onKeyDown}
        >
          {STEPS.map((s, i) => {
            const active = i === selected;
            return (
              <button
                key={s.title}
                ref={(el) => {
                  tabs.current[i] = el;
                }}
                id={tabId(i)}
                type="button"
                role="tab"
                aria-selected={active}
                aria-controls={panelId}
                tabIndex={active ? 0 : -1}
                onClick={() => setSelected(i)}
                className={`flex min-h-11 items-center gap-3 rounded-xl px-4 py-3 text-left font-semibold ${
                  active
                    ? 'bg-brand-700 text-white shadow-sm'
                    : 'bg-white text-slate-800 ring-1 ring-slate-200 hover:bg-brand-50'
                }`}
              >
                <span
                  aria-hidden="true"
                  className={`flex h-8 w-8 flex-none items-center justify-center rounded-full text-sm font-bold ${active ? 'bg-white text-brand-800' : 'bg-brand-100 text-brand-900'}`}
                >
                  {i + 1}
                </span>
                <span>
                  <span className="sr-only">Step {i + 1}: </span>
                  {s.title}
                </span>
              </button>
            );
          })}
        </div>
        <div
          id={panelId}
          role="tabpanel"
          aria-labelledby={tabId(selected)}
          tabIndex={0}
          className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8"
        >
          <p className="text-sm font-semibold tracking-wide text-brand-800">
            Step {selected + 1} of {STEPS.length}
          </p>
          <h3 className="mt-2 text-2xl font-bold text-slate-900">{step.title}</h3>
          <p className="mt-3 text-lg text-slate-700">{step.text}</p>
        </div>
      </div>
    </section>
  );
}

const reasons = [
  {
    title: 'Accuracy Matters',
    text: 'Doctors often lack your full medical history. Bringing it with you helps them get the details right.',
    icon: <path d="M9 12l2 2 4-4M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z" />,
  },
  {
    title: 'Info Transfer Challenges',
    text: 'Your records do not follow you when you see a new doctor. With Medfolio, they travel with you.',
    icon: <path d="M7 7h13m0 0-4-4m4 4-4 4M17 17H4m0 0 4-4m-4 4 4 4" />,
  },
  {
    title: 'Stay in Control and Updated',
    text: 'You manage your own documentation, with an updated summary and analysis after each visit.',
    icon: <path d="M4 21v-7M4 10V3M12 21v-9M12 8V3M20 21v-5M20 12V3M1 14h6M9 8h6M17 16h6" />,
  },
];

/** "/" for signed-out visitors. */
export default function Landing() {
  return (
    <>
      <section className="bg-linear-to-b from-brand-50 to-slate-50">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-12 sm:py-16 lg:grid-cols-2">
          <div>
            <h1 className="text-4xl font-bold leading-tight tracking-tight text-slate-900 sm:text-5xl">
              Your medical history, one tap away.
            </h1>
            <p className="mt-4 text-lg text-slate-700">
              Keep every report in one secure place, get a clear summary of your health, and share it with any doctor
              from your phone.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/sign-up" className={primaryLink}>
                Sign Up
              </Link>
              <Link to="/login" className={secondaryLink}>
                Log In
              </Link>
            </div>
          </div>
          <ExplainerPanel />
        </div>
      </section>

      <section aria-label="Why you can trust Medfolio" className="border-y border-slate-200 bg-white">
        <ul className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:grid-cols-3">
          {badges.map((badge) => (
            <li key={badge.title} className="flex items-start gap-3">
              <span className="flex h-11 w-11 flex-none items-center justify-center rounded-full bg-brand-100 text-brand-800">
                <StrokeIcon>{badge.icon}</StrokeIcon>
              </span>
              <span>
                <span className="block font-bold text-slate-900">{badge.title}</span>
                <span className="block text-sm text-slate-600">{badge.text}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>

      <HowItWorks />

      <section aria-labelledby="why-heading" className="bg-white">
        <div className="mx-auto max-w-6xl px-4 py-14">
          <h2 id="why-heading" className="text-center text-3xl font-bold text-slate-900">
            WHY?
          </h2>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {reasons.map((reason) => (
              <li key={reason.title} className="rounded-2xl bg-slate-50 p-6 ring-1 ring-slate-200">
                <span className="flex h-11 w-11 items-center justify-center rounded-full bg-brand-700 text-white">
                  <StrokeIcon>{reason.icon}</StrokeIcon>
                </span>
                <h3 className="mt-4 text-xl font-bold text-slate-900">{reason.title}</h3>
                <p className="mt-2 text-slate-700">{reason.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="join-heading" className="bg-brand-900">
        <div className="mx-auto flex max-w-6xl flex-col items-center gap-5 px-4 py-14 text-center">
          <h2 id="join-heading" className="text-3xl font-bold text-white">
            Your health story, in your hands.
          </h2>
          <p className="max-w-2xl text-lg text-brand-50">
            Create your free account and add your first documents in minutes.
          </p>
          <Link
            to="/sign-up"
            className="inline-flex min-h-11 items-center rounded-lg bg-white px-6 py-2 font-bold tracking-wide text-brand-900 hover:bg-brand-50"
          >
            JOIN NOW
          </Link>
        </div>
      </section>
    </>
  );
}
