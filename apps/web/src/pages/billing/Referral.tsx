import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useBillingInviteMutation, useBillingReferralQuery } from '../../api/api';
import { errorMessage } from '../../api/errors';
import { Button } from '../../components/Button';
import { TextField } from '../../components/fields';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { inviteSchema, type InviteForm } from '../../forms/schemas';
import { formatUsd } from '../public/plans';

/** Friends counted per free month (spec section 9: 3 or more earn one month). */
export const PER_MONTH = 3;

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl bg-slate-50 p-4 text-center ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
    </div>
  );
}

/**
 * /referral: the user's link (read-only, Copy Link), Send Invite (an e-mail through notifications),
 * the counts (invited, joined, counted) and the months earned. The programme gives free months, not
 * money (docs/guide/billing.md), so its card says so: 'See my free months' shows the months and credit
 * earned and where they go (the next invoices, or a month of Basic on Free).
 */
export default function Referral() {
  const { data, isLoading, isError, refetch } = useBillingReferralQuery();
  const [invite, { isLoading: sending }] = useBillingInviteMutation();
  const [copied, setCopied] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [rewards, setRewards] = useState(false);
  const linkId = useId();
  const { register, handleSubmit, formState, reset } = useForm<InviteForm>({ resolver: zodResolver(inviteSchema), mode: 'onTouched', defaultValues: { email: '' } });

  if (isLoading) return <PageLoading label="Loading your referrals…" />;
  if (isError || !data) {
    return (
      <div className="mx-auto max-w-3xl space-y-4 px-4 py-8">
        <h1 className="text-2xl font-bold text-slate-900">Refer a friend</h1>
        <Notice tone="error">Your referral link could not be loaded.</Notice>
        <Button variant="secondary" onClick={() => void refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(data.link);
      setCopied('Link copied.');
    } catch {
      setCopied('Copying is not allowed here: select the link and copy it.');
    }
  };

  const onInvite = handleSubmit(async (form) => {
    setSent(null);
    setFailure(null);
    try {
      const reply = await invite({ body: form }).unwrap();
      setSent(reply.message);
      reset({ email: '' });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });

  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Refer a friend</h1>
      <p className="mt-2 text-slate-700">
        Every {PER_MONTH} friends who sign up with your link and verify their e-mail earn you one free month: a credit on your next invoice, or a
        month of Basic on the Free plan.
      </p>

      <section aria-labelledby="invite" className="mt-6 space-y-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="invite" className="text-lg font-bold text-slate-900">
          Invite by e-mail
        </h2>
        <form onSubmit={onInvite} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex-1">
            <TextField label="Friend's email" type="email" autoComplete="off" error={formState.errors.email?.message} {...register('email')} />
          </div>
          <Button type="submit" loading={sending} className="sm:mt-7">
            Send Invite
          </Button>
        </form>
        {sent && <Notice>{sent}</Notice>}
        {failure && <Notice tone="error">{failure}</Notice>}

        <div>
          <label htmlFor={linkId} className="block text-sm font-medium text-slate-800">
            Your referral link
          </label>
          <div className="mt-1 flex flex-col gap-2 sm:flex-row">
            <input id={linkId} readOnly value={data.link} onFocus={(e) => e.currentTarget.select()} className="min-h-11 flex-1 rounded-lg border border-slate-300 bg-slate-50 px-3 text-slate-900" />
            <Button variant="secondary" onClick={() => void copy()}>
              Copy Link
            </Button>
          </div>
          <p className="mt-1 text-sm text-slate-700" aria-live="polite">
            {copied}
          </p>
        </div>
      </section>

      <section aria-labelledby="progress" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id="progress" className="text-lg font-bold text-slate-900">
          Your friends
        </h2>
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
          <Stat label="Invited" value={data.invited} />
          <Stat label="Joined" value={data.joined} />
          <Stat label="Counted" value={data.counted} />
          <Stat label="Months earned" value={data.months_earned} />
        </dl>
        <p className="mt-3 text-sm text-slate-700">
          {data.towards_next} of {PER_MONTH} counted towards your next free month.
        </p>
      </section>

      <section aria-labelledby="earn" className="mt-6 rounded-2xl bg-brand-900 p-6 text-white">
        <h2 id="earn" className="text-lg font-bold">
          Earn free months!
        </h2>
        <p className="mt-1 text-brand-50">Every {PER_MONTH} friends who join earn you a free month of Medfolio.</p>
        <Button variant="secondary" className="mt-4" onClick={() => setRewards((open) => !open)} aria-expanded={rewards}>
          See my free months
        </Button>
        {rewards && (
          <p className="mt-3 rounded-lg bg-white/10 p-3 text-sm" role="status">
            You have earned {data.months_earned} free {data.months_earned === 1 ? 'month' : 'months'}
            {data.credit_cents > 0 ? `, ${formatUsd(data.credit_cents / 100)} of credit` : ''}. On a paid plan, the
            credit is applied to your next invoices automatically; on the Free plan, each month earned is a month of Basic.
          </p>
        )}
      </section>
    </div>
  );
}
