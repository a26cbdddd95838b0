import type { TrendPoint, TrendSeries, TrendSource } from '@medfolio/contracts';
import {
  displayUnit,
  FLAG_MARK,
  FLAG_TEXT,
  flagOrigin,
  formatPointDate,
  isOutOfRange,
  isoDay,
  newestFirst,
  rangeText,
  seriesTitle,
  sourceLabel,
  withUnit,
} from './format';

const linkButton = 'text-left font-medium text-brand-800 underline underline-offset-2 hover:text-brand-900';

/** The flag in words, with its mark; out-of-range values in bold red, and never by colour alone. */
export function FlagText({ point }: { point: TrendPoint }) {
  if (!point.flag) return <span className="text-slate-600">Not given</span>;
  const origin = flagOrigin(point);
  const out = isOutOfRange(point.flag);
  return (
    <span data-flag={point.flag}>
      <span className={out ? 'font-semibold text-red-800' : 'text-slate-800'}>
        <span aria-hidden="true">{FLAG_MARK[point.flag].symbol} </span>
        {FLAG_TEXT[point.flag]}
      </span>
      {origin && out && <span className="block text-xs text-slate-600">{origin}</span>}
    </span>
  );
}

/** A point's documents: each opens in the app's preview (with Download) when the page can open it. */
export function Sources({
  sources,
  onOpen,
}: {
  sources: readonly TrendSource[];
  onOpen?: ((source: TrendSource) => void) | undefined;
}) {
  if (!sources.length) return <span className="text-slate-600">Not given</span>;
  return (
    <ul className="space-y-0.5">
      {sources.map((source, index) => (
        <li key={`${source.document_id ?? source.filename ?? ''}-${source.page ?? 0}-${index}`}>
          {onOpen && source.document_id ? (
            <button type="button" className={linkButton} onClick={() => onOpen(source)}>
              <span className="sr-only">Open </span>
              {sourceLabel(source)}
            </button>
          ) : (
            <span className="text-slate-800">{sourceLabel(source)}</span>
          )}
          {source.fetched_from && <span className="block text-xs text-slate-600">from {source.fetched_from}</span>}
        </li>
      ))}
    </ul>
  );
}

/**
 * Every value of a series as a real table, beside its chart: what a screen reader reads (the chart
 * itself is one image to it). Caption: the test and its unit. Newest first, undated last.
 */
export function SeriesTable({
  series,
  onOpen,
  id,
}: {
  series: TrendSeries;
  onOpen?: (source: TrendSource) => void;
  id?: string;
}) {
  const cell = 'py-2 pr-2 align-top sm:pr-3';
  // relative: the scroll box also holds the table's screen-reader-only words (absolutely positioned),
  // which would otherwise widen the page on a phone.
  return (
    <div className="relative overflow-x-auto">
      <table id={id} className="w-full text-left text-[13px] sm:text-sm" data-testid="trend-table">
        <caption className="pb-2 text-left font-semibold text-slate-900">{seriesTitle(series)}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Date
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Value
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Reference range
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Flag
            </th>
            <th scope="col" className="py-2 font-semibold">
              Source
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {newestFirst(series.points).map((point, index) => {
            // Converted, or written in another unit: what the document itself says.
            const converted =
              point.original.value !== point.value ||
              (point.original.unit !== null && displayUnit(point.original.unit) !== displayUnit(series.unit));
            return (
              <tr
                key={`${point.date ?? 'undated'}-${index}`}
                className={isOutOfRange(point.flag) ? 'bg-red-50/60' : undefined}
              >
                <th scope="row" className={`${cell} font-normal text-slate-800`}>
                  {point.date ? (
                    <time dateTime={isoDay(point.date)}>{formatPointDate(point.date)}</time>
                  ) : (
                    formatPointDate(null)
                  )}
                </th>
                <td className={`${cell} font-medium text-slate-900 sm:whitespace-nowrap`}>
                  {withUnit(point.value, series.unit)}
                  {converted && (
                    <span className="block whitespace-normal text-xs font-normal text-slate-600">
                      reported as {withUnit(point.original.value, point.original.unit)}
                    </span>
                  )}
                </td>
                <td className={`${cell} text-slate-800`}>
                  {rangeText(point.range, series.unit) ?? <span className="text-slate-600">Not given</span>}
                </td>
                <td className={cell}>
                  <FlagText point={point} />
                </td>
                <td className="py-2 align-top [overflow-wrap:anywhere]">
                  <Sources sources={point.sources} onOpen={onOpen} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
