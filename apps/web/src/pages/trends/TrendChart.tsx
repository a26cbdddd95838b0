import { useEffect, useId, useRef, useState } from 'react';
import { scaleLinear, scaleUtc } from '@visx/scale';
import { LinePath } from '@visx/shape';
import type { TrendFlag, TrendPoint, TrendSeries } from '@medfolio/contracts';
import {
  displayUnit,
  FLAG_MARK,
  FLAG_TEXT,
  formatNumber,
  formatPointDate,
  isOutOfRange,
  pointTime,
  rangeText,
  seriesTitle,
  withUnit,
} from './format';

/*
 * One series over time, drawn as SVG with visx (its scales and line; d3 underneath): the reference
 * band shaded, each value a mark, out-of-range values a different shape (▲ high, ▼ low, ◆ abnormal)
 * with its letter beside it, the y axis in the series' unit. Loaded on demand (React.lazy) by the
 * Trends page and a shared summary that carries trends, never with the rest of the app.
 * To a screen reader the chart is one image with a one-line description; the table beside it
 * holds every value.
 */

const HEIGHT = 240;
const MARGIN = { top: 28, right: 20, bottom: 34, left: 48 };
const DAY = 24 * 3600 * 1000;

interface Dated {
  point: TrendPoint;
  time: number;
}

/** The chart's width follows its container (a phone's width or a column of the page). */
function useWidth(fallback = 560) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.max(260, Math.round(element.getBoundingClientRect().width) || fallback));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [fallback]);
  return [ref, width] as const;
}

/** The shaded band: the newest point's reference range that gives a bound (ranges differ between labs). */
export function referenceBand(points: readonly Dated[]): { low: number | null; high: number | null } | null {
  for (let i = points.length - 1; i >= 0; i -= 1) {
    const range = points[i]?.point.range;
    if (range && (range.low !== null || range.high !== null)) return { low: range.low, high: range.high };
  }
  return null;
}

/** ▲ ▼ ◆ or ●, centred on (x, y). */
function Mark({ flag, x, y }: { flag: TrendFlag | null; x: number; y: number }) {
  const r = 5.5;
  if (flag === 'high')
    return (
      <path
        d={`M${x},${y - r - 1} L${x + r + 1},${y + r} L${x - r - 1},${y + r} Z`}
        className="fill-red-700 stroke-white"
        strokeWidth={1.5}
      />
    );
  if (flag === 'low')
    return (
      <path
        d={`M${x},${y + r + 1} L${x + r + 1},${y - r} L${x - r - 1},${y - r} Z`}
        className="fill-red-700 stroke-white"
        strokeWidth={1.5}
      />
    );
  if (flag === 'abnormal')
    return (
      <path
        d={`M${x},${y - r - 1} L${x + r + 1},${y} L${x},${y + r + 1} L${x - r - 1},${y} Z`}
        className="fill-red-700 stroke-white"
        strokeWidth={1.5}
      />
    );
  return <circle cx={x} cy={y} r={4.5} className="fill-brand-700 stroke-white" strokeWidth={1.5} />;
}

function tickFormat(span: number): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat(
    undefined,
    span > 3 * 365 * DAY ? { year: 'numeric', timeZone: 'UTC' } : { month: 'short', year: 'numeric', timeZone: 'UTC' },
  );
}

export default function TrendChart({ series, tableId }: { series: TrendSeries; tableId?: string }) {
  const [ref, width] = useWidth();
  const titleId = useId();
  const dated: Dated[] = series.points
    .map((point) => ({ point, time: pointTime(point.date) }))
    .filter((d): d is Dated => d.time !== null)
    .sort((a, b) => a.time - b.time);
  const undated = series.points.length - dated.length;
  const out = dated.filter((d) => isOutOfRange(d.point.flag));
  const band = referenceBand(dated);

  const first = dated[0]?.time ?? Date.now();
  const last = dated.at(-1)?.time ?? first;
  // One date (or all on one day): a year around it, so the mark sits in the middle.
  const [start, end] = last - first < DAY ? [first - 182 * DAY, last + 182 * DAY] : [first, last];
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const margin = (end - start) * 0.04;
  const x = scaleUtc<number>({ domain: [new Date(start - margin), new Date(end + margin)], range: [0, innerWidth] });

  const values = dated.map((d) => d.point.value);
  if (band?.low != null) values.push(band.low);
  if (band?.high != null) values.push(band.high);
  const min = values.length ? Math.min(...values) : 0;
  const max = values.length ? Math.max(...values) : 1;
  // Room above and below the values; one value (or all equal) gets ±10 % around it, not a magnified sliver.
  const pad = max > min ? (max - min) * 0.15 : Math.abs(max) * 0.1 || 1;
  const y = scaleLinear<number>({
    domain: [min >= 0 ? Math.max(0, min - pad) : min - pad, max + pad],
    range: [innerHeight, 0],
    nice: true,
  });
  const [yBottom, yTop] = y.domain() as [number, number];

  const xTicks = x.ticks(Math.max(2, Math.min(6, Math.floor(innerWidth / 90))));
  const formatTick = tickFormat(end - start);
  const yTicks = y.ticks(5);
  const bandTop = band ? y(Math.min(band.high ?? yTop, yTop)) : 0;
  const bandBottom = band ? y(Math.max(band.low ?? yBottom, yBottom)) : 0;
  const range = rangeText(dated.at(-1)?.point.range ?? null, series.unit);

  const from = dated[0] ? formatPointDate(dated[0].point.date) : '';
  const to = dated.at(-1) ? formatPointDate(dated.at(-1)?.point.date ?? null) : '';
  const description =
    dated.length === 0
      ? `${seriesTitle(series)}: no dated values to draw; the table lists them.`
      : `${seriesTitle(series)}: ${dated.length} ${dated.length === 1 ? 'value' : 'values'}${from !== to ? ` from ${from} to ${to}` : ` on ${from}`}` +
        `, ${out.length ? `${out.length} out of range` : 'none out of range'}${band ? ', reference range shaded' : ''}. Every value is in the table.`;

  return (
    <figure className="m-0">
      <div ref={ref} className="w-full">
        <svg
          width={width}
          height={HEIGHT}
          role="img"
          aria-labelledby={titleId}
          aria-describedby={tableId}
          data-testid="trend-chart"
          className="block max-w-full overflow-visible font-sans"
        >
          <title id={titleId}>{description}</title>
          <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
            {band && bandBottom > bandTop && (
              <rect
                x={0}
                y={bandTop}
                width={innerWidth}
                height={bandBottom - bandTop}
                className="fill-brand-100"
                data-testid="reference-band"
              />
            )}
            {yTicks.map((tick) => (
              <g key={tick} transform={`translate(0,${y(tick)})`}>
                <line x1={0} x2={innerWidth} className="stroke-slate-200" />
                <text x={-8} dy="0.32em" textAnchor="end" className="fill-slate-700 text-[11px]">
                  {formatNumber(tick)}
                </text>
              </g>
            ))}
            <text x={-MARGIN.left + 4} y={-14} className="fill-slate-800 text-[11px] font-semibold">
              {displayUnit(series.unit) ?? 'Value'}
            </text>
            <line x1={0} x2={innerWidth} y1={innerHeight} y2={innerHeight} className="stroke-slate-400" />
            {xTicks.map((tick) => (
              <text
                key={tick.getTime()}
                x={x(tick)}
                y={innerHeight + 20}
                textAnchor="middle"
                className="fill-slate-700 text-[11px]"
              >
                {formatTick.format(tick)}
              </text>
            ))}
            {dated.length > 1 && (
              <LinePath
                data={dated}
                x={(d) => x(new Date(d.time))}
                y={(d) => y(d.point.value)}
                className="fill-none stroke-brand-700"
                strokeWidth={2}
              />
            )}
            {dated.map((d, index) => {
              const cx = x(new Date(d.time));
              const cy = y(d.point.value);
              const flag = d.point.flag;
              const label = `${formatPointDate(d.point.date)}: ${withUnit(d.point.value, series.unit)}${flag ? `, ${FLAG_TEXT[flag].toLowerCase()}` : ''}`;
              return (
                <g key={`${d.time}-${index}`} data-testid="trend-mark" data-flag={flag ?? 'none'}>
                  <title>{label}</title>
                  <Mark flag={flag} x={cx} y={cy} />
                  {isOutOfRange(flag) && (
                    <text
                      x={cx + 9}
                      y={flag === 'low' ? cy + 14 : cy - 8}
                      className="fill-red-800 text-[11px] font-bold"
                    >
                      {FLAG_MARK[flag].letter}
                    </text>
                  )}
                </g>
              );
            })}
          </g>
        </svg>
      </div>
      <figcaption className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700">
        {band && range && (
          <span>
            <span
              aria-hidden="true"
              className="mr-1 inline-block h-3 w-4 align-middle bg-brand-100 ring-1 ring-brand-600/30"
            />
            Reference range {range}
          </span>
        )}
        <span>
          <span aria-hidden="true" className="text-brand-700">
            ●
          </span>{' '}
          in range or not flagged
        </span>
        {(['high', 'low', 'abnormal'] as const)
          .filter((flag) => out.some((d) => d.point.flag === flag))
          .map((flag) => (
            <span key={flag}>
              <span aria-hidden="true" className="text-red-700">
                {FLAG_MARK[flag].symbol}
              </span>{' '}
              {FLAG_MARK[flag].letter} = {FLAG_TEXT[flag].toLowerCase()}
            </span>
          ))}
        {undated > 0 && (
          <span>{undated === 1 ? 'One value has' : `${undated} values have`} no date: only in the table.</span>
        )}
      </figcaption>
    </figure>
  );
}
