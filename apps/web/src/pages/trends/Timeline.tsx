import { useId, useState } from 'react';
import type { TimelineEvent, TrendSource } from '@medfolio/contracts';
import { CHANGE_LABEL, formatPointDate, isoDay, KIND_LABEL, KIND_PLURAL } from './format';
import { Sources } from './SeriesTable';

type Filter = 'all' | TimelineEvent['kind'];

const KIND_STYLE: Record<TimelineEvent['kind'], string> = {
  condition: 'bg-amber-50 text-amber-900 ring-amber-700',
  medication: 'bg-brand-50 text-brand-900 ring-brand-600',
  procedure: 'bg-sky-50 text-sky-900 ring-sky-700',
  visit: 'bg-slate-100 text-slate-800 ring-slate-500',
  allergy: 'bg-red-50 text-red-800 ring-red-700',
};

/**
 * Conditions, medicines (started, changed, stopped), procedures, visits and allergies, newest first
 * (the server's order), each citing its documents; a choice narrows it to one kind.
 */
export function Timeline({
  events,
  onOpen,
}: {
  events: readonly TimelineEvent[];
  onOpen?: (source: TrendSource) => void;
}) {
  const [filter, setFilter] = useState<Filter>('all');
  const filterId = useId();
  const kinds = (Object.keys(KIND_LABEL) as TimelineEvent['kind'][]).filter((kind) =>
    events.some((e) => e.kind === kind),
  );
  const shown = filter === 'all' ? events : events.filter((e) => e.kind === filter);
  if (events.length === 0)
    return (
      <p className="text-slate-700">
        Nothing dated in your records yet: conditions, medicines, procedures and visits appear here as documents name
        them.
      </p>
    );
  return (
    <div>
      {kinds.length > 1 && (
        <div className="mb-4 flex items-center gap-2">
          <label htmlFor={filterId} className="text-sm font-medium text-slate-800">
            Show
          </label>
          <select
            id={filterId}
            value={filter}
            onChange={(e) => setFilter(e.target.value as Filter)}
            className="rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900"
          >
            <option value="all">Everything ({events.length})</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_PLURAL[kind]} ({events.filter((e) => e.kind === kind).length})
              </option>
            ))}
          </select>
        </div>
      )}
      <ol className="relative space-y-4 border-l-2 border-slate-200 pl-5" data-testid="timeline">
        {shown.map((event, index) => (
          <li key={`${event.date ?? 'undated'}-${event.kind}-${event.title}-${index}`} className="relative">
            <span
              aria-hidden="true"
              className="absolute -left-[1.72rem] top-1.5 h-3 w-3 rounded-full border-2 border-white bg-slate-400"
            />
            <p className="text-sm text-slate-700">
              {event.date ? (
                <time dateTime={isoDay(event.date)}>{formatPointDate(event.date)}</time>
              ) : (
                formatPointDate(null)
              )}
              <span
                className={`ml-2 inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${KIND_STYLE[event.kind]}`}
              >
                {KIND_LABEL[event.kind]}
              </span>
            </p>
            <p className="mt-0.5 font-medium text-slate-900">
              {CHANGE_LABEL[event.change]}: {event.title}
            </p>
            {event.detail && <p className="text-sm text-slate-700">{event.detail}</p>}
            <div className="mt-1 text-sm">
              <span className="sr-only">Sources: </span>
              <Sources sources={event.sources} onOpen={onOpen} />
            </div>
          </li>
        ))}
      </ol>
    </div>
  );
}
