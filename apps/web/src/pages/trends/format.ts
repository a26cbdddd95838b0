import type { TimelineEvent, TrendFlag, TrendPoint, TrendSeries, TrendSource } from '@medfolio/contracts';

/*
 * How trends read on screen: dates as partial as the source gave them, values in the series' unit,
 * reference ranges and flags in words (never colour alone). Shared by the chart, its table, the
 * timeline and the shared summary page; no chart code here, so the summary page stays small.
 */

const PARTIAL_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/** A point's date as a time (ms, UTC) for the chart's axis: "2015" is 1 Jan 2015, "2015-06" 1 June; null when undated or unreadable. */
export function pointTime(date: string | null): number | null {
  if (!date) return null;
  const partial = PARTIAL_DATE.exec(date);
  if (partial)
    return Date.UTC(Number(partial[1]), partial[2] ? Number(partial[2]) - 1 : 0, partial[3] ? Number(partial[3]) : 1);
  const time = Date.parse(date);
  return Number.isNaN(time) ? null : time;
}

/** "2015", "Jun 2015", "22 Jun 2015": as precise as the source, never more; "Date not given" when undated. */
export function formatPointDate(date: string | null, locale?: string): string {
  if (!date) return 'Date not given';
  const partial = PARTIAL_DATE.exec(date);
  if (partial && !partial[2]) return partial[1] ?? date;
  const time = pointTime(date);
  if (time === null) return date;
  // A bare date is a calendar day (UTC here so it never moves a day); a date with a time is shown in local time.
  const utc = Boolean(partial);
  const options: Intl.DateTimeFormatOptions =
    partial && !partial[3] ? { month: 'short', year: 'numeric' } : { day: 'numeric', month: 'short', year: 'numeric' };
  return new Intl.DateTimeFormat(locale, { ...options, ...(utc ? { timeZone: 'UTC' } : {}) }).format(new Date(time));
}

/** A machine-readable <time dateTime> for a point's date (the date part). */
export function isoDay(date: string | null): string | undefined {
  if (!date) return undefined;
  return PARTIAL_DATE.test(date) ? date : date.slice(0, 10);
}

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** 7.1, 160, 0.85: at most two decimals. */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

const UCUM_SHOWN: Record<string, string> = {
  'mm[Hg]': 'mmHg',
  '[lb_av]': 'lb',
  '[in_i]': 'in',
  '[degF]': '°F',
  Cel: '°C',
  '/min': 'per min',
  '{beats}/min': 'beats/min',
};
const POWERS: Record<string, string> = { '3': '³', '6': '⁶', '9': '⁹', '12': '¹²' };

/** A unit as a patient reads it: "mmHg" for UCUM's "mm[Hg]", "10⁹/L" for "10*9/L", "kg/m²", "µL". */
export function displayUnit(unit: string | null): string | null {
  if (!unit) return unit;
  const known = UCUM_SHOWN[unit];
  if (known) return known;
  return unit
    .replace(/10[*^](\d+)/g, (match, power: string) => (POWERS[power] ? `10${POWERS[power]}` : match))
    .replace(/\{([^}]*)\}/g, (_match, note: string) => note.replace(/_/g, ' '))
    .replace(/(^|[^A-Za-z])m2\b/g, '$1m²')
    .replace(/\bu(L|g|mol)\b/g, 'µ$1');
}

/** "7.1%", "160 mg/dL", "72 kg"; just the number when the series has no unit. */
export function withUnit(value: number, unit: string | null): string {
  const shown = displayUnit(unit);
  if (!shown) return formatNumber(value);
  return shown === '%' ? `${formatNumber(value)}%` : `${formatNumber(value)} ${shown}`;
}

/** The reference range in words: "70–99 mg/dL", "up to 100 mg/dL", "60 mg/dL or more", the source's text, or null. */
export function rangeText(range: TrendPoint['range'], unit: string | null): string | null {
  if (!range) return null;
  const { low, high, text } = range;
  if (low !== null && high !== null) return `${formatNumber(low)}–${withUnit(high, unit)}`;
  if (high !== null) return `up to ${withUnit(high, unit)}`;
  if (low !== null) return `${withUnit(low, unit)} or more`;
  return text || null;
}

/** Out of range: above, below, or marked abnormal by the source. */
export function isOutOfRange(flag: TrendFlag | null): flag is 'low' | 'high' | 'abnormal' {
  return flag === 'low' || flag === 'high' || flag === 'abnormal';
}

/** The flag in words: what a screen reader and the table say. */
export const FLAG_TEXT: Record<TrendFlag, string> = {
  high: 'High',
  low: 'Low',
  abnormal: 'Abnormal',
  normal: 'In range',
};

/** The chart's mark for each flag: a shape and a letter, so out-of-range never rests on colour alone. */
export const FLAG_MARK: Record<TrendFlag, { symbol: string; letter: string }> = {
  high: { symbol: '▲', letter: 'H' },
  low: { symbol: '▼', letter: 'L' },
  abnormal: { symbol: '◆', letter: 'A' },
  normal: { symbol: '●', letter: '' },
};

/** Where the flag comes from, in words. */
export function flagOrigin(point: Pick<TrendPoint, 'flag_from' | 'interpretation'>): string | null {
  if (point.flag_from === 'source')
    return point.interpretation ? `as the record says (${point.interpretation})` : 'as the record says';
  if (point.flag_from === 'range') return 'outside the range';
  return null;
}

/** "labs.pdf, page 2"; "a document" when the source has no name (a shared page's sources). */
export function sourceLabel(source: TrendSource): string {
  const name = source.filename || 'a document';
  return source.page ? `${name}, page ${source.page}` : name;
}

/** "LDL cholesterol (mg/dL)": the table's caption and the chart's name. */
export function seriesTitle(series: Pick<TrendSeries, 'name' | 'unit'>): string {
  return series.unit ? `${series.name} (${displayUnit(series.unit)})` : series.name;
}

/** The newest dated point (the last one the source dated), or the last point. */
export function latestPoint(series: TrendSeries): TrendPoint | undefined {
  let latest: TrendPoint | undefined;
  let latestTime = -Infinity;
  for (const point of series.points) {
    const time = pointTime(point.date);
    if (time !== null && time >= latestTime) {
      latest = point;
      latestTime = time;
    }
  }
  return latest ?? series.points.at(-1);
}

/** The table's rows: newest first, undated last. */
export function newestFirst(points: readonly TrendPoint[]): TrendPoint[] {
  return points
    .map((point, index) => ({ point, index, time: pointTime(point.date) }))
    .sort((a, b) =>
      a.time === null
        ? b.time === null
          ? a.index - b.index
          : 1
        : b.time === null
          ? -1
          : b.time - a.time || b.index - a.index,
    )
    .map(({ point }) => point);
}

/** An in-page anchor for a series ("trend-hba1c"). */
export function seriesAnchor(key: string): string {
  return `trend-${key
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}`;
}

export const KIND_LABEL: Record<TimelineEvent['kind'], string> = {
  condition: 'Condition',
  medication: 'Medicine',
  procedure: 'Procedure',
  visit: 'Visit',
  allergy: 'Allergy',
};

export const KIND_PLURAL: Record<TimelineEvent['kind'], string> = {
  condition: 'Conditions',
  medication: 'Medicines',
  procedure: 'Procedures',
  visit: 'Visits',
  allergy: 'Allergies',
};

export const CHANGE_LABEL: Record<TimelineEvent['change'], string> = {
  started: 'Started',
  changed: 'Changed',
  stopped: 'Stopped',
  diagnosed: 'Diagnosed',
  resolved: 'Resolved',
  recorded: 'Recorded',
};
