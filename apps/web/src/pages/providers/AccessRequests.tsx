import { useState } from 'react';
import { Link } from 'react-router';
import { useProvidersAccessQuery, useProvidersDecideMutation, useProvidersRevokeMutation } from '../../api/api';
import { errorMessage } from '../../api/errors';
import type { GrantItem, ProviderSummary } from '@medfolio/contracts';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';

type Duration = 'day' | 'week' | 'month';
const DURATIONS: { value: Duration; label: string }[] = [
  { value: 'day', label: 'A day' },
  { value: 'week', label: 'A week' },
  { value: 'month', label: 'A month' },
];

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/**
 * How the patient is shown a provider: the name when an operator verified who
 * they are; otherwise "claims to be Dr X (NPI ...); not verified" (the registry is public, so a name
 * and a number prove nothing).
 */
export function providerLabel(provider: Pick<ProviderSummary, 'display_name' | 'verification'>): string {
  return provider.verification === 'verified' ? provider.display_name : `claims to be ${provider.display_name}; not verified`;
}

function Who({ provider }: { provider: ProviderSummary }) {
  const details = [provider.credential, provider.specialty, provider.state].filter(Boolean).join(' · ');
  const verified = provider.verification === 'verified';
  return (
    <>
      <p className="font-semibold text-slate-900">
        <span>{verified ? provider.display_name : `Someone who ${providerLabel(provider)}`}</span>
        {verified && <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">Verified</span>}
      </p>
      {details && <p className="text-sm text-slate-700">{details}</p>}
      {!verified && (
        <p className="mt-1 text-sm text-amber-900">
          We have not confirmed who this is: the name and number are public. Approve only if you expect this doctor.
        </p>
      )}
    </>
  );
}

function grantState(grant: GrantItem): string {
  if (grant.active) return `Until ${formatDate(grant.expires_at)}`;
  if (grant.revoked_at) return `Revoked ${formatDate(grant.revoked_at)}`;
  return `Ended ${formatDate(grant.expires_at)}`;
}

/**
 * /providers/access: the patient's side of provider access. Requests from verified
 * doctors (approve for a day, a week or a month, or decline), the doctors who can see the documents
 * now (revoke at once), and past access. Every look a doctor takes is in the access history.
 */
export default function AccessRequests() {
  const { data, isLoading, isError, refetch } = useProvidersAccessQuery();
  const [decide, deciding] = useProvidersDecideMutation();
  const [revoke, revoking] = useProvidersRevokeMutation();
  const [durations, setDurations] = useState<Record<string, Duration>>({});
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const busy = deciding.isLoading || revoking.isLoading;

  async function run(call: () => Promise<unknown>, done: string) {
    setNotice(null);
    try {
      await call();
      setNotice({ tone: 'success', text: done });
    } catch (failure) {
      setNotice({ tone: 'error', text: errorMessage(failure) });
    }
  }

  if (isLoading) return <PageLoading label="Loading requests…" />;
  const active = data?.grants.filter((g) => g.active) ?? [];
  const past = data?.grants.filter((g) => !g.active) ?? [];
  const card = 'rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200';
  return (
    <div className="mx-auto max-w-3xl space-y-8 px-4 py-8 sm:py-12">
      <div>
        <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Doctors and your documents</h1>
        <p className="mt-2 text-slate-700">
          Doctors can ask to see the documents behind the summary you shared; each request says whether we verified who
          they are. They see them read-only, for as long as you choose, and every look is in your{' '}
          <Link to="/history" className="font-semibold text-brand-800 underline underline-offset-2">
            access history
          </Link>
          .
        </p>
      </div>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {isError && (
        <div className="space-y-3">
          <Notice tone="error">Your requests could not be loaded.</Notice>
          <Button variant="secondary" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      )}

      <section aria-labelledby="requests">
        <h2 id="requests" className="text-xl font-bold text-slate-900">
          Requests
        </h2>
        {data && data.requests.length === 0 && <p className="mt-2 text-slate-700">No requests waiting.</p>}
        <ul className="mt-3 space-y-3">
          {data?.requests.map((request) => {
            const duration = durations[request.id] ?? 'week';
            const name = request.provider.display_name;
            return (
              <li key={request.id} className={card}>
                <Who provider={request.provider} />
                <p className="mt-1 text-sm text-slate-700">
                  Asked {formatDate(request.created_at)} from your link &lsquo;{request.link_label}&rsquo;.
                </p>
                <fieldset className="mt-3">
                  <legend className="text-sm font-medium text-slate-800">Let {name} see your documents for</legend>
                  <div className="mt-1 flex flex-wrap gap-4">
                    {DURATIONS.map((option) => (
                      <label key={option.value} className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-900">
                        <input
                          type="radio"
                          name={`duration-${request.id}`}
                          value={option.value}
                          checked={duration === option.value}
                          onChange={() => setDurations((all) => ({ ...all, [request.id]: option.value }))}
                        />
                        {option.label}
                      </label>
                    ))}
                  </div>
                </fieldset>
                <div className="mt-3 flex flex-wrap gap-2">
                  <Button
                    disabled={busy}
                    onClick={() =>
                      void run(
                        () => decide({ requestId: request.id, body: { decision: 'approve', duration } }).unwrap(),
                        `${name} can see your documents now.`,
                      )
                    }
                  >
                    Approve
                  </Button>
                  <Button
                    variant="secondary"
                    disabled={busy}
                    onClick={() => void run(() => decide({ requestId: request.id, body: { decision: 'decline' } }).unwrap(), `You declined ${name}'s request.`)}
                  >
                    Decline
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="with-access">
        <h2 id="with-access" className="text-xl font-bold text-slate-900">
          Doctors with access
        </h2>
        {data && active.length === 0 && <p className="mt-2 text-slate-700">No doctor can see your documents.</p>}
        <ul className="mt-3 space-y-3">
          {active.map((grant) => (
            <li key={grant.id} className={`${card} flex flex-wrap items-center justify-between gap-3`}>
              <div>
                <Who provider={grant.provider} />
                <p className="text-sm text-slate-700">
                  {grantState(grant)}
                  {grant.source === 'share-link' && ' · through a link that lets verified doctors see your documents'}
                </p>
              </div>
              <Button
                variant="secondary"
                disabled={busy}
                aria-label={`Revoke ${grant.provider.display_name}`}
                onClick={() => void run(() => revoke({ grantId: grant.id }).unwrap(), `${grant.provider.display_name} can no longer see your documents.`)}
              >
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      </section>

      {past.length > 0 && (
        <section aria-labelledby="past">
          <h2 id="past" className="text-xl font-bold text-slate-900">
            Past access
          </h2>
          <ul className="mt-3 space-y-2">
            {past.map((grant) => (
              <li key={grant.id} className="text-sm text-slate-800">
                {providerLabel(grant.provider)}: {grantState(grant)}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
