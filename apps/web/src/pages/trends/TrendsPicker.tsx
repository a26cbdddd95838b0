import { useId } from 'react';
import { errorMessage } from '../../api/errors';
import { useLazyTrendsGetQuery } from '../../api/trends';
import { Button } from '../../components/Button';

/**
 * Which health trends a share link includes (series keys of GET /api/trends/). The patient's series
 * are loaded only when asked for (each read is audited), not every time the share panel opens.
 */
export function TrendsPicker({
  selected,
  onChange,
  disabled,
}: {
  selected: readonly string[];
  onChange: (keys: string[]) => void;
  disabled?: boolean;
}) {
  const [load, { data, error, isFetching, isUninitialized }] = useLazyTrendsGetQuery();
  const hintId = useId();
  const toggle = (key: string, on: boolean) =>
    onChange(on ? [...selected.filter((k) => k !== key), key] : selected.filter((k) => k !== key));
  return (
    <fieldset className="space-y-2" aria-describedby={hintId}>
      <legend className="text-sm font-medium text-slate-800">Health trends to include</legend>
      <p id={hintId} className="text-xs text-slate-600">
        The tests you tick appear on the shared page and its PDF: values, dates, reference ranges and flags, never your
        documents.
      </p>
      {isUninitialized ? (
        <Button variant="secondary" disabled={disabled} onClick={() => void load()}>
          Choose trends{selected.length ? ` (${selected.length} chosen)` : ''}
        </Button>
      ) : isFetching && !data ? (
        <p role="status" className="text-sm text-slate-700">
          Loading your trends…
        </p>
      ) : error ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {errorMessage(error, 'Your trends could not be loaded. Please try again.')}
        </p>
      ) : data && data.series.length === 0 ? (
        <p className="text-sm text-slate-700">No results or vital signs in your documents yet.</p>
      ) : (
        <div className="grid gap-x-4 sm:grid-cols-2">
          {data?.series.map((series) => (
            <label key={series.key} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
              <input
                type="checkbox"
                className="h-4 w-4"
                checked={selected.includes(series.key)}
                disabled={disabled}
                onChange={(e) => toggle(series.key, e.target.checked)}
              />
              {series.name}
              <span className="text-slate-600">
                ({series.points.length} {series.points.length === 1 ? 'value' : 'values'})
              </span>
            </label>
          ))}
          {data?.access === 'preview' && data.locked.length > 0 && (
            <p className="text-xs text-slate-600 sm:col-span-2">
              Your other {data.locked.length} tests can be shared with the Plus and Family plans.
            </p>
          )}
        </div>
      )}
    </fieldset>
  );
}
