import { lazy, Suspense } from 'react';
import type { TrendSeries } from '@medfolio/contracts';

/** The chart's code (visx, d3's scales) is its own chunk: fetched when a page first shows a chart. */
const TrendChart = lazy(() => import('./TrendChart'));

/** A series' chart, loaded on demand; meanwhile a placeholder of the same height (the page does not jump). */
export function ChartSlot({ series, tableId }: { series: TrendSeries; tableId?: string }) {
  return (
    <Suspense
      fallback={
        <div
          className="flex h-[260px] items-center justify-center rounded-lg bg-slate-50 text-sm text-slate-600"
          role="status"
        >
          Loading the chart…
        </div>
      }
    >
      <TrendChart series={series} {...(tableId ? { tableId } : {})} />
    </Suspense>
  );
}
