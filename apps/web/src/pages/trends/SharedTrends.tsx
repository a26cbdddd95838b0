import { useId } from 'react';
import type { TrendSeries } from '@medfolio/contracts';
import { ChartSlot } from './ChartSlot';
import { SeriesTable } from './SeriesTable';

/**
 * The trends a share link includes, on the shared summary page: each chosen test's table (values,
 * dates, ranges, flags, the documents' names) and its chart, whose code loads only when a shared
 * summary carries trends.
 */
export function SharedTrends({ series }: { series: readonly TrendSeries[] }) {
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="mt-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6"
      data-testid="shared-trends"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Health trends
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        Results the patient chose to share, as their documents give them. Out-of-range values are marked ▲ high, ▼ low
        or ◆ abnormal.
      </p>
      <div className="mt-4 space-y-8">
        {series.map((one) => (
          <SharedSeries key={one.key} series={one} />
        ))}
      </div>
    </section>
  );
}

function SharedSeries({ series }: { series: TrendSeries }) {
  const tableId = useId();
  return (
    <article aria-labelledby={`${tableId}-h`}>
      <h3 id={`${tableId}-h`} className="font-semibold text-slate-900">
        {series.name}
      </h3>
      <div className="mt-2 grid gap-4 lg:grid-cols-2">
        <div className="min-w-0 print:hidden">
          <ChartSlot series={series} tableId={tableId} />
        </div>
        <div className="min-w-0">
          <SeriesTable series={series} id={tableId} />
        </div>
      </div>
    </article>
  );
}
