import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useBillingCancelMutation, useBillingMembershipQuery } from '../../api/api';
import { errorMessage } from '../../api/errors';
import type { MembershipView } from '@medfolio/contracts';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { useSession } from '../../session/use-session';
import {
  checkoutPath,
  DEFAULT_BILLING_MODE,
  FREE_PLAN,
  formatUsd,
  PERIOD_LABEL,
  PLANS,
  type BillingMode,
  type Plan,
} from './plans';

function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" className="mt-0.5 h-5 w-5 flex-none text-brand-700" aria-hidden="true">
      <path fill="currentColor" d="M8.1 13.6 4.5 10l-1.4 1.4 5 5 9-9-1.4-1.4z" />
    </svg>
  );
}

function Features({ items }: { items: readonly string[] }) {
  return (
    <ul className="mt-6 space-y-2 text-sm text-slate-700">
      {items.map((feature) => (
        <li key={feature} className="flex gap-2">
          <CheckIcon />
          <span>{feature}</span>
        </li>
      ))}
    </ul>
  );
}

/** Monthly / Yearly: two native radio buttons drawn as a segmented control (arrow keys move between them). */
function BillingToggle({ mode, onChange }: { mode: BillingMode; onChange: (mode: BillingMode) => void }) {
  const name = useId();
  const option = (value: BillingMode, label: string, note?: string) => (
    <label className="relative cursor-pointer">
      <input
        type="radio"
        name={name}
        value={value}
        checked={mode === value}
        onChange={() => onChange(value)}
        className="peer sr-only"
      />
      <span className="block rounded-full px-5 py-2 text-sm font-semibold text-slate-700 peer-checked:bg-brand-700 peer-checked:text-white peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600">
        {label}
        {note && <span className="ml-1 font-normal">{note}</span>}
      </span>
    </label>
  );
  return (
    <fieldset className="mx-auto mt-8 w-fit">
      <legend className="sr-only">Billing period</legend>
      <div className="flex rounded-full bg-white p-1 shadow-sm ring-1 ring-slate-300">
        {option('monthly', 'Monthly')}
        {option('yearly', 'Yearly', '(2 months free)')}
      </div>
    </fieldset>
  );
}

/** Plans in order of size (the server's ids). */
const RANK: Record<string, number> = { free: 0, basic: 1, standard: 2, plus: 3, pro: 4 };

function CurrentBadge() {
  return (
    <p className="flex min-h-11 items-center justify-center rounded-lg bg-slate-100 px-4 py-2 text-sm font-semibold text-slate-700">
      Current Plan
    </p>
  );
}

export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(new Date(iso));
}

/** The signed-in user's paid plan: when it renews or ends, and the way to cancel it. */
function CurrentPlanActions({ membership }: { membership: MembershipView }) {
  const [cancel, { isLoading, error }] = useBillingCancelMutation();
  const [confirming, setConfirming] = useState(false);
  if (membership.status === 'none') return null;
  const end = membership.current_period_end ? formatDate(membership.current_period_end) : null;
  return (
    <div className="mt-3 space-y-2 text-sm text-slate-700">
      {membership.cancel_at_period_end ? (
        <p>Ends{end ? ` on ${end}` : ' at the end of the period'}; choose it again to keep it.</p>
      ) : (
        <>
          {end && <p>Renews on {end}.</p>}
          {confirming ? (
            <div className="space-y-2">
              <p>Your plan stays until the end of the period, then you are on Free (2 documents).</p>
              <div className="flex gap-2">
                <Button variant="secondary" onClick={() => setConfirming(false)}>
                  Keep plan
                </Button>
                <Button loading={isLoading} onClick={() => void cancel().unwrap().then(() => setConfirming(false), () => undefined)}>
                  Cancel at period end
                </Button>
              </div>
            </div>
          ) : (
            <Button variant="secondary" onClick={() => setConfirming(true)}>
              Cancel plan
            </Button>
          )}
        </>
      )}
      {error && <Notice tone="error">{errorMessage(error)}</Notice>}
    </div>
  );
}

function PlanCard({ plan, mode, membership }: { plan: Plan; mode: BillingMode; membership?: MembershipView | undefined }) {
  const isCurrent = membership?.plan === plan.tier && (membership.mode === mode || membership.status === 'none');
  const label = !membership || membership.plan === 'free' ? plan.cta : membership.plan === plan.tier ? `Switch to ${mode}` : RANK[plan.tier]! > RANK[membership.plan]! ? `Upgrade to ${plan.name}` : `Downgrade to ${plan.name}`;
  return (
    <li
      className={`relative flex flex-col rounded-2xl bg-white p-6 shadow-sm ${plan.popular ? 'ring-2 ring-brand-700' : 'ring-1 ring-slate-200'}`}
    >
      <h2 className="text-xl font-bold text-slate-900">{plan.name}</h2>
      {plan.popular && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 whitespace-nowrap rounded-full bg-brand-700 px-3 py-1 text-xs font-bold tracking-wide text-white">
          Most Popular
        </p>
      )}
      <p className="mt-1 text-sm text-slate-600 sm:min-h-10">{plan.tagline}</p>
      <p className="mt-4 text-slate-900">
        <span className="text-4xl font-bold">{formatUsd(plan.price[mode])}</span>
        <span className="text-slate-600">{PERIOD_LABEL[mode]}</span>
      </p>
      <Features items={plan.features} />
      <div className="mt-auto pt-6">
        {isCurrent ? (
          <>
            <CurrentBadge />
            {membership && <CurrentPlanActions membership={membership} />}
          </>
        ) : (
        <Link
          to={checkoutPath(plan.priceId[mode])}
          className={`flex min-h-11 w-full items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold ${
            plan.popular
              ? 'bg-brand-700 text-white hover:bg-brand-800'
              : 'border border-brand-700 text-brand-800 hover:bg-brand-50'
          }`}
        >
          {label}
        </Link>
        )}
      </div>
    </li>
  );
}

function FreeCard({ current }: { current: boolean }) {
  return (
    <li className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-xl font-bold text-slate-900">{FREE_PLAN.name}</h2>
      <p className="mt-1 text-sm text-slate-600 sm:min-h-10">{FREE_PLAN.tagline}</p>
      <p className="mt-4 text-slate-900">
        <span className="text-4xl font-bold">{formatUsd(FREE_PLAN.price)}</span>
        <span className="text-slate-600">/lifetime</span>
      </p>
      <Features items={FREE_PLAN.features} />
      <div className="mt-auto pt-6">{current ? <CurrentBadge /> : <p className="min-h-11 text-center text-sm text-slate-600">Your account returns here if a paid plan ends.</p>}</div>
    </li>
  );
}

/** /membership: the plans, a Monthly/Yearly toggle (default yearly) and a way to ask for something else. */
export default function Membership() {
  const [mode, setMode] = useState<BillingMode>(DEFAULT_BILLING_MODE);
  const { authenticated } = useSession();
  // Signed out: the Free plan is everyone's (and the page is prerendered). Signed in: the real one.
  const { data: membership } = useBillingMembershipQuery(undefined, { skip: !authenticated });
  const currentPlan = membership?.plan ?? 'free';
  return (
    <div className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
      <div className="mx-auto max-w-2xl text-center">
        <h1 className="text-3xl font-bold text-slate-900 sm:text-4xl">Choose your plan</h1>
        <p className="mt-3 text-slate-700">
          Keep every record in one place. Start free, upgrade when you need room for more documents.
        </p>
      </div>
      <BillingToggle mode={mode} onChange={setMode} />
      <p className="sr-only" aria-live="polite">
        Showing {mode} prices.
      </p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        <FreeCard current={currentPlan === 'free'} />
        {PLANS.map((plan) => (
          <PlanCard key={plan.tier} plan={plan} mode={mode} membership={membership} />
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-slate-600">Prices in US dollars, plus 8% sales tax.</p>
      {membership?.status === 'past_due' && (
        <Notice tone="error">Your last payment did not go through. Your plan stays{membership.grace_until ? ` until ${formatDate(membership.grace_until)}` : ''} while it is tried again.</Notice>
      )}
      {membership?.granted_until && <p className="mt-2 text-center text-sm text-slate-700">Referral reward: Basic until {formatDate(membership.granted_until)}.</p>}
      <section
        aria-labelledby="custom-solution"
        className="mt-12 flex flex-col items-center gap-4 rounded-2xl bg-brand-900 px-6 py-8 text-center text-white sm:flex-row sm:justify-between sm:text-left"
      >
        <div>
          <h2 id="custom-solution" className="text-xl font-bold">
            Need a custom solution?
          </h2>
          <p className="mt-1 text-brand-50">
            Clinics, care teams and larger families: tell us what you need and we will find a plan that fits.
          </p>
        </div>
        <Link
          to="/contact"
          className="flex min-h-11 flex-none items-center rounded-lg bg-white px-5 py-2 text-sm font-semibold text-brand-900 hover:bg-brand-50"
        >
          Contact Sales
        </Link>
      </section>
    </div>
  );
}
