import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useDocumentsListQuery, useHistoryListQuery } from '../../api/api';
import { useShareLinksListQuery } from '../../api/sharing';
import { useConnectionsListQuery } from '../../api/connections';
import { serverMessage } from '../../api/errors';
import type { HistoryEntry } from '@medfolio/contracts';
import { Button } from '../../components/Button';
import { Notice } from '../../components/Notice';
import { PageLoading } from '../../components/PageLoading';
import { Spinner } from '../../components/Spinner';
import { useSession } from '../../session/use-session';
import { dayLabel, describeEntry, groupEntries, proxySentence, type HistoryGroup } from './history-groups';
import { useViewing } from '../../components/Viewing';

/** Entries per page: enough that repeated ones (every dashboard load lists documents) group well. */
export const HISTORY_PAGE_SIZE = 50;

const CAPTION = 'Who opened or changed your records, newest first';

const outcomes: Record<HistoryEntry['outcome'], { label: string; style: string }> = {
  success: { label: 'Success', style: 'bg-brand-50 text-brand-900 ring-brand-600' },
  failure: { label: 'Failed', style: 'bg-red-50 text-red-800 ring-red-700' },
  denied: { label: 'Denied', style: 'bg-amber-50 text-amber-900 ring-amber-700' },
};

/** An audit time in the reader's locale and time zone, with the exact instant for machines. */
export function When({ iso }: { iso: string }) {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
  return <time dateTime={iso}>{text}</time>;
}

function Outcome({ outcome }: { outcome: HistoryEntry['outcome'] }) {
  const known = outcomes[outcome] as (typeof outcomes)[keyof typeof outcomes] | undefined;
  return (
    <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${known?.style ?? 'bg-slate-100 text-slate-800 ring-slate-400'}`}>
      {known?.label ?? outcome}
    </span>
  );
}

const from = (entry: HistoryEntry) => entry.from || 'Unknown';

/** What happened, naming the document, and for a failure or refusal why. */
function What({ entry, names, labels, count, expanded, onToggle }: { entry: HistoryEntry; names: ReadonlyMap<string, string> | undefined; labels?: ReadonlyMap<string, string> | undefined; count?: number; expanded?: boolean; onToggle?: () => void }) {
  // Done by a guardian or caregiver: "Ana (caregiver) uploaded lab-results.pdf for Leo".
  const { record } = useViewing();
  const { user } = useSession();
  const whose = record?.first_name ?? user?.first_name ?? 'you';
  return (
    <>
      <span className="break-words">{proxySentence(entry, names, whose, labels) ?? describeEntry(entry, names, labels)}</span>
      {count !== undefined && count > 1 && (
        <>
          {' '}
          <span className="font-semibold">×{count}</span> {dayLabel(entry.when)}{' '}
          <button
            type="button"
            aria-expanded={expanded}
            onClick={onToggle}
            className="ml-1 inline-flex min-h-11 items-center rounded-md px-2 text-sm font-semibold text-brand-800 underline underline-offset-4 hover:bg-brand-50 md:min-h-0 md:py-1"
          >
            {expanded ? 'Hide each' : 'Show each'}
            <span className="sr-only"> of these {count} entries</span>
          </button>
        </>
      )}
      {entry.reason && <span className="mt-1 block text-sm text-slate-700">{entry.reason}</span>}
    </>
  );
}

const heading = 'text-2xl font-bold text-slate-900 sm:text-3xl';

/** Signed out: what the access history is, and the way to see one's own. */
function SignedOutHistory() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:py-12">
      <h1 className={heading}>Access history</h1>
      <div className="mt-4 space-y-4 text-slate-700">
        <p>
          Medfolio keeps a record of every time your health information is opened or changed: when it happened, who did it, what
          they did, whether it worked, and where the request came from.
        </p>
        <p>Only you can see your own access history, so you always know who has looked at your records.</p>
      </div>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <Link
          to="/login?next=/history"
          className="inline-flex min-h-11 items-center justify-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          Log in to see your access history
        </Link>
        <Link
          to="/sign-up"
          className="inline-flex min-h-11 items-center justify-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-100"
        >
          Create an account
        </Link>
      </div>
    </div>
  );
}

/** The page number from ?page= (1 when absent or not a positive whole number). */
function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** Signed in: GET /api/history/, one page at a time; the page is in the URL (?page=n). */
function SignedInHistory() {
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get('page'));
  const { data, error, isLoading, isFetching, refetch } = useHistoryListQuery({ page, page_size: HISTORY_PAGE_SIZE });
  const results = useRef<HTMLDivElement>(null);
  const moved = useRef(false);

  // After Previous/Next, focus goes to the top of the new page (the button pressed may now be disabled).
  useEffect(() => {
    if (moved.current && !isFetching && data?.page === page) {
      moved.current = false;
      results.current?.focus();
    }
  }, [isFetching, data, page]);

  const goTo = (target: number) => {
    moved.current = true;
    setParams(target === 1 ? {} : { page: String(target) });
  };

  // The audit log keeps only document ids; their names come from the patient's own list.
  const { data: documents } = useDocumentsListQuery();
  const names = useMemo(() => (documents ? new Map(documents.map((d) => [d.id, d.filename])) : undefined), [documents]);
  // Share links too: "Your summary was viewed through 'For Dr Lee'".
  const { data: links } = useShareLinksListQuery();
  // And hospital connections ("Fetched records from Springfield General Hospital"), asked only when the page has one.
  const hasConnections = (data?.results ?? []).some((e) => e.entity_type === 'connection');
  const { data: connections } = useConnectionsListQuery(undefined, { skip: !hasConnections });
  const labels = useMemo(
    () => (links ? new Map([...links.map((l): [string, string] => [l.id, l.label]), ...(connections ?? []).map((c): [string, string] => [c.id, c.name])]) : undefined),
    [links, connections],
  );
  const groups = useMemo(() => groupEntries(data?.results ?? []), [data]);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = (group: HistoryGroup) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(group.id)) next.add(group.id);
      return next;
    });

  if (isLoading) return <PageLoading label="Loading your access history…" />;

  const body = (() => {
    if (!data) {
      return (
        <div className="space-y-4">
          <Notice tone="error">
            Your access history could not be loaded.{serverMessage(error) ? ` ${serverMessage(error)}` : ''}
          </Notice>
          <Button variant="secondary" onClick={() => void refetch()}>
            Try again
          </Button>
        </div>
      );
    }
    if (data.total === 0) return <p className="rounded-2xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">No access recorded yet.</p>;

    const pages = Math.max(1, Math.ceil(data.total / (data.page_size || HISTORY_PAGE_SIZE)));
    return (
      <>
        {data.results.length === 0 ? (
          <p className="rounded-2xl bg-white p-6 text-slate-700 ring-1 ring-slate-200">
            There are no entries on this page.{' '}
            <Link to="/history" className="font-semibold text-brand-800 underline underline-offset-4">
              Go to the first page
            </Link>
          </p>
        ) : (
          <>
            {/* Medium screens and up: a table. */}
            <div className="hidden overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200 md:block">
              <table className="w-full text-left text-sm">
                <caption className="px-4 py-3 text-left text-sm text-slate-600">{CAPTION}</caption>
                <thead className="border-y border-slate-200 bg-slate-50 text-slate-700">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">When</th>
                    <th scope="col" className="px-4 py-3 font-semibold">Who</th>
                    <th scope="col" className="px-4 py-3 font-semibold">What</th>
                    <th scope="col" className="px-4 py-3 font-semibold">Outcome</th>
                    <th scope="col" className="px-4 py-3 font-semibold">From</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 text-slate-900">
                  {groups.map((group) => {
                    const first = group.first;
                    const open = expanded.has(group.id);
                    const rows = open && group.entries.length > 1 ? group.entries : [];
                    return (
                      <Fragment key={group.id}>
                        <tr>
                          <td className="whitespace-nowrap px-4 py-3"><When iso={first.when} /></td>
                          <td className="break-all px-4 py-3">{first.who}</td>
                          <td className="px-4 py-3">
                            <What entry={first} names={names} labels={labels} count={group.entries.length} expanded={open} onToggle={() => toggle(group)} />
                          </td>
                          <td className="px-4 py-3"><Outcome outcome={first.outcome} /></td>
                          <td className="break-all px-4 py-3">{from(first)}</td>
                        </tr>
                        {rows.map((entry) => (
                          <tr key={entry.id} className="bg-slate-50">
                            <td className="whitespace-nowrap py-2 pl-8 pr-4"><When iso={entry.when} /></td>
                            <td className="break-all px-4 py-2">{entry.who}</td>
                            <td className="px-4 py-2"><What entry={entry} names={names} labels={labels} /></td>
                            <td className="px-4 py-2"><Outcome outcome={entry.outcome} /></td>
                            <td className="break-all px-4 py-2">{from(entry)}</td>
                          </tr>
                        ))}
                      </Fragment>
                    );
                  })}
                </tbody>
              </table>
            </div>
            {/* Small screens: one card per entry. */}
            <ul aria-label={CAPTION} className="space-y-3 md:hidden">
              {groups.map((group) => {
                const first = group.first;
                const open = expanded.has(group.id);
                return (
                  <li key={group.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                    <div className="flex items-start justify-between gap-3">
                      <p className="font-semibold text-slate-900">
                        <What entry={first} names={names} labels={labels} count={group.entries.length} expanded={open} onToggle={() => toggle(group)} />
                      </p>
                      <Outcome outcome={first.outcome} />
                    </div>
                    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                      <dt className="text-slate-600">When</dt>
                      <dd className="text-slate-900"><When iso={first.when} /></dd>
                      <dt className="text-slate-600">Who</dt>
                      <dd className="break-all text-slate-900">{first.who}</dd>
                      <dt className="text-slate-600">From</dt>
                      <dd className="break-all text-slate-900">{from(first)}</dd>
                    </dl>
                    {open && group.entries.length > 1 && (
                      <ul aria-label="Each of these entries" className="mt-3 space-y-1 border-t border-slate-200 pt-3 text-sm text-slate-800">
                        {group.entries.map((entry) => (
                          <li key={entry.id}>
                            <When iso={entry.when} /> · {entry.who} · {from(entry)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                );
              })}
            </ul>
          </>
        )}
        <nav aria-label="Access history pages" className="mt-6 flex flex-col items-center gap-3 sm:flex-row sm:justify-between">
          <p className="text-sm text-slate-700" aria-live="polite">
            Page {data.page} of {pages} · {data.total} {data.total === 1 ? 'entry' : 'entries'}
          </p>
          <div className="flex gap-3">
            <Button variant="secondary" disabled={page <= 1 || isFetching} onClick={() => goTo(Math.min(page - 1, pages))}>
              Previous
            </Button>
            <Button variant="secondary" disabled={page >= pages || isFetching} onClick={() => goTo(page + 1)}>
              Next
            </Button>
          </div>
        </nav>
      </>
    );
  })();

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-12">
      <div className="flex items-center gap-3">
        <h1 className={heading}>Access history</h1>
        {isFetching && <Spinner className="h-5 w-5 text-slate-600" />}
      </div>
      <p className="mt-2 text-slate-600">Every time your records were opened or changed, by you or anyone else.</p>
      <div ref={results} tabIndex={-1} aria-busy={isFetching || undefined} className="mt-6 outline-none">
        {body}
      </div>
    </div>
  );
}

/** /history, in both states: the signed-in patient's access log, or what it is and how to see it. */
export default function History() {
  const { authenticated } = useSession();
  return authenticated ? <SignedInHistory /> : <SignedOutHistory />;
}
