// Observations grouped into series, one per test: equivalent LOINC codes of the same test on one
// line, a readable name, one display unit (the most common, others converted with UCUM), points by
// date, the same value from two documents shown once citing both, and an out-of-range flag.
import { readableLabName } from '../extract/codes';
import type { Observation, ObservationCode, ObservationSource, ReferenceRange } from './observations';
import { convertUnit, MOLECULAR_WEIGHTS, toUcum } from './units';

export interface TestGroup {
  key: string;
  /** The name a patient reads. */
  name: string;
  /** LOINC codes of the same test (specimen, method or scale differing in ways a trend can ignore). */
  loinc: string[];
  /** For mass/molar conversion (mg/dL and mmol/L). */
  molecularWeight?: number;
  /**
   * Units that are not proportional to each other though UCUM can convert them (A1c's % of
   * haemoglobin and mmol/mol follow different reference methods): values are converted only
   * between units of the same code.
   */
  sameUnitOnly?: boolean;
  /** How the test is written where no code is given (results read from PDFs and text). */
  names?: RegExp;
}

/** Key measures first, in the order a trends page shows them. */
export const TEST_GROUPS: readonly TestGroup[] = [
  {
    key: 'hba1c',
    name: 'Hemoglobin A1c',
    loinc: ['4548-4', '17856-6', '4549-2', '59261-8'],
    sameUnitOnly: true,
    names: /^(hemoglobin|haemoglobin|hb|hgb)\s*a1c\b|^a1c$|^hba1c$/i,
  },
  {
    key: 'ldl',
    name: 'LDL cholesterol',
    loinc: ['13457-7', '18262-6', '2089-1'],
    molecularWeight: MOLECULAR_WEIGHTS.cholesterol,
    names: /^ldl\b|^(cholesterol in )?ldl|^low density lipoprotein/i,
  },
  {
    key: 'systolic',
    name: 'Blood pressure (systolic)',
    loinc: ['8480-6'],
    names: /^(systolic|sbp)\b|^bp systolic/i,
  },
  {
    key: 'diastolic',
    name: 'Blood pressure (diastolic)',
    loinc: ['8462-4'],
    names: /^(diastolic|dbp)\b|^bp diastolic/i,
  },
  { key: 'weight', name: 'Body weight', loinc: ['29463-7', '3141-9'], names: /^(body )?weight$|^wt$/i },
  { key: 'bmi', name: 'Body mass index (BMI)', loinc: ['39156-5'], names: /^bmi$|^body mass index/i },
  {
    key: 'egfr',
    name: 'eGFR (kidney function)',
    loinc: ['33914-3', '48642-3', '48643-1', '62238-1', '98979-8', '69405-9', '50044-7'],
    names: /^e?gfr\b|glomerular filtration/i,
  },
  {
    key: 'glucose',
    name: 'Glucose',
    loinc: ['2345-7', '2339-0', '41653-7', '1558-6', '2947-0'],
    molecularWeight: MOLECULAR_WEIGHTS.glucose,
    names: /^(blood |serum |plasma |fasting )?glucose\b/i,
  },
  { key: 'heart_rate', name: 'Heart rate', loinc: ['8867-4'], names: /^(heart rate|pulse|hr)$/i },
  {
    key: 'total_cholesterol',
    name: 'Total cholesterol',
    loinc: ['2093-3'],
    molecularWeight: MOLECULAR_WEIGHTS.cholesterol,
    names: /^(total )?cholesterol$|^cholesterol,? total/i,
  },
  {
    key: 'hdl',
    name: 'HDL cholesterol',
    loinc: ['2085-9'],
    molecularWeight: MOLECULAR_WEIGHTS.cholesterol,
    names: /^hdl\b|^high density lipoprotein/i,
  },
  {
    key: 'triglycerides',
    name: 'Triglycerides',
    loinc: ['2571-8'],
    molecularWeight: MOLECULAR_WEIGHTS.triglycerides,
    names: /^triglycerides?$/i,
  },
  {
    key: 'creatinine',
    name: 'Creatinine',
    loinc: ['2160-0', '38483-4'],
    molecularWeight: MOLECULAR_WEIGHTS.creatinine,
    names: /^(serum )?creatinine$/i,
  },
  { key: 'height', name: 'Body height', loinc: ['8302-2', '8306-3', '3137-7'], names: /^(body )?height$|^ht$/i },
  { key: 'temperature', name: 'Body temperature', loinc: ['8310-5', '8331-1'], names: /^(body )?temp(erature)?$/i },
  { key: 'respiratory_rate', name: 'Respiratory rate', loinc: ['9279-1'], names: /^(respiratory rate|rr|resp)$/i },
  {
    key: 'spo2',
    name: 'Oxygen saturation',
    loinc: ['59408-5', '2708-6', '2710-2'],
    names: /^(spo2|o2 sat|oxygen saturation)/i,
  },
  { key: 'hemoglobin', name: 'Hemoglobin', loinc: ['718-7'], names: /^(hemoglobin|haemoglobin|hgb|hb)$/i },
  { key: 'hematocrit', name: 'Hematocrit', loinc: ['4544-3', '20570-8'], names: /^(hematocrit|haematocrit|hct)$/i },
  {
    key: 'wbc',
    name: 'White blood cells',
    loinc: ['6690-2', '26464-8', '33765-9'],
    names: /^(wbc|white blood cell( count)?s?|leukocytes|leucocytes)$/i,
  },
  {
    key: 'rbc',
    name: 'Red blood cells',
    loinc: ['789-8', '26453-1'],
    names: /^(rbc|red blood cell( count)?s?|erythrocytes)$/i,
  },
  { key: 'platelets', name: 'Platelets', loinc: ['777-3', '26515-7'], names: /^(plt|platelets?( count)?)$/i },
];

const BY_LOINC = new Map(TEST_GROUPS.flatMap((g) => g.loinc.map((code) => [code, g] as const)));

export type Flag = 'low' | 'high' | 'abnormal' | 'normal';

export interface SeriesPoint {
  date: string | null;
  /** In the series' unit (converted when the source used another). */
  value: number;
  /** As the source gave it. */
  original: { value: number; unit: string | null };
  /** In the series' unit where it could be converted, and as the source wrote it. */
  range: { low: number | null; high: number | null; text: string | null } | null;
  flag: Flag | null;
  /** 'source': the record's interpretation; 'range': computed here from the reference range. */
  flag_from: 'source' | 'range' | null;
  /** The interpretation as the source gave it ('H', 'LX'...). */
  interpretation: string | null;
  code: ObservationCode | null;
  sources: ObservationSource[];
}

export interface Series {
  /** The test group's key, or "LOINC:<code>", "<system>:<code>", "name:<name>" for tests outside the table. */
  key: string;
  name: string;
  category: 'result' | 'vital';
  /** The display unit: the most common one, as written by the sources (null when none gave one). */
  unit: string | null;
  /** The display unit's UCUM code (for labels and FHIR Quantities), null when it is not UCUM. */
  ucum: string | null;
  /** Every code the points came with. */
  codes: ObservationCode[];
  /** Sorted by date (undated points last). */
  points: SeriesPoint[];
}

/** HL7 ObservationInterpretation codes (and texts) to a flag. */
function flagOf(interpretation: string): Flag | null {
  const code = interpretation.trim();
  if (/^(L|LL|LU|LX|<|low|critical low|below .*)$/i.test(code)) return 'low';
  if (/^(H|HH|HU|HX|>|high|critical high|above .*)$/i.test(code)) return 'high';
  if (/^(A|AA|abnormal|critical abnormal|POS|DET)$/i.test(code)) return 'abnormal';
  if (/^(N|normal|NEG|ND)$/i.test(code)) return 'normal';
  return null;
}

function groupOf(o: Observation): { key: string; group?: TestGroup } {
  if (o.code?.system === 'LOINC') {
    const group = BY_LOINC.get(o.code.code);
    return group ? { key: group.key, group } : { key: `LOINC:${o.code.code}` };
  }
  const byName = TEST_GROUPS.find((g) => g.names?.test(o.name.trim()));
  if (byName) return { key: byName.key, group: byName };
  if (o.code) return { key: `${o.code.system}:${o.code.code}` };
  return { key: `name:${o.name.toLowerCase().replace(/\s+/g, ' ').trim()}` };
}

/** Rounded for display after a conversion: 4 significant digits, at most 2 decimals for values over 1. */
function tidy(value: number): number {
  if (value === 0) return 0;
  const digits = Math.abs(value) >= 1 ? 2 : Math.max(2, 3 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 6)));
}

interface Draft {
  o: Observation & { value: number };
  group?: TestGroup;
}

/**
 * Series of the numeric observations (text values such as "Negative" or "> 500" are left out: they
 * have no place on an axis). Within a test, a value whose unit cannot be converted to the display unit
 * starts a series of its own with the same name and its unit.
 */
export function buildSeries(observations: readonly Observation[]): Series[] {
  const groups = new Map<string, Draft[]>();
  for (const o of observations) {
    if (o.value === null || !Number.isFinite(o.value)) continue;
    const { key, group } = groupOf(o);
    const list = groups.get(key) ?? [];
    list.push({ o: o as Observation & { value: number }, group });
    groups.set(key, list);
  }
  const out: Series[] = [];
  for (const [key, drafts] of groups) {
    const group = drafts[0]?.group;
    let rest = drafts;
    let part = 0;
    while (rest.length) {
      const unit = commonUnit(rest);
      const here: { draft: Draft; value: number }[] = [];
      const left: Draft[] = [];
      for (const d of rest) {
        const convert = converter(d.o.unit ?? null, unit, group);
        const value = convert(d.o.value);
        if (value === null) left.push(d);
        else here.push({ draft: d, value });
      }
      if (!here.length) break; // cannot happen: the common unit converts to itself
      out.push(makeSeries(part ? `${key}~${unit ?? ''}` : key, group, unit, here));
      rest = left;
      part++;
    }
  }
  const order = new Map(TEST_GROUPS.map((g, i) => [g.key, i] as const));
  return out.sort(
    (a, b) =>
      (order.get(a.key.split('~')[0] ?? '') ?? TEST_GROUPS.length) -
        (order.get(b.key.split('~')[0] ?? '') ?? TEST_GROUPS.length) ||
      b.points.length - a.points.length ||
      a.name.localeCompare(b.name),
  );
}

/**
 * The unit most points use (compared as UCUM where they are UCUM). On a tie, the unit of the earliest
 * dated point (where the patient's history of that test starts), then the unit's own order: never
 * the order the observations happened to be read in, so the axis does not change between two reads.
 */
function commonUnit(drafts: Draft[]): string | null {
  const counts = new Map<string, { unit: string | null; n: number; earliest: string }>();
  for (const d of drafts) {
    const unit = d.o.unit ?? null;
    const id = unit === null ? '' : (toUcum(unit) ?? unit);
    const seen = counts.get(id) ?? { unit, n: 0, earliest: '\uffff' };
    seen.n++;
    if (d.o.date && d.o.date < seen.earliest) seen.earliest = d.o.date;
    counts.set(id, seen);
  }
  const better = (a: { unit: string | null; n: number; earliest: string }, b: { unit: string | null; n: number; earliest: string }) =>
    a.n !== b.n ? a.n > b.n : a.earliest !== b.earliest ? a.earliest < b.earliest : (a.unit ?? '') < (b.unit ?? '');
  let best: { unit: string | null; n: number; earliest: string } | undefined;
  for (const c of counts.values()) if (!best || better(c, best)) best = c;
  return best?.unit ?? null;
}

/** A function converting from `from` to `to`, or giving null when they do not convert. */
function converter(from: string | null, to: string | null, group?: TestGroup): (v: number) => number | null {
  const same = from === to || (from !== null && to !== null && toUcum(from) !== null && toUcum(from) === toUcum(to));
  if (same) return (v) => v;
  if (from === null || to === null || group?.sameUnitOnly) return () => null;
  return (v) => {
    const converted = convertUnit(v, from, to, { molecularWeight: group?.molecularWeight });
    return converted === null ? null : tidy(converted);
  };
}

function pointRange(range: ReferenceRange | undefined, unit: string | null, own: string | null, group?: TestGroup) {
  if (!range) return null;
  const convert = converter(range.unit ?? own, unit, group);
  const low = range.low === undefined ? null : convert(range.low);
  const high = range.high === undefined ? null : convert(range.high);
  if (low === null && high === null && !range.text) return null;
  return { low, high, text: range.text ?? null };
}

function makeSeries(
  key: string,
  group: TestGroup | undefined,
  unit: string | null,
  items: { draft: Draft; value: number }[],
): Series {
  const first = items[0]?.draft.o as Observation;
  const name = group?.name ?? readableName(items.map((i) => i.draft.o.name));
  const points = new Map<string, SeriesPoint>();
  const codes = new Map<string, ObservationCode>();
  for (const { draft, value } of items) {
    const o = draft.o;
    if (o.code) codes.set(`${o.code.system}|${o.code.code}`, o.code);
    const range = pointRange(o.range, unit, o.unit ?? null, group);
    const given = o.interpretation ? flagOf(o.interpretation) : null;
    let flag: Flag | null = given;
    let flagFrom: SeriesPoint['flag_from'] = given ? 'source' : null;
    if (!given && range && (range.low !== null || range.high !== null)) {
      flag =
        range.low !== null && value < range.low ? 'low' : range.high !== null && value > range.high ? 'high' : 'normal';
      flagFrom = 'range';
    }
    // The same test, day and value from two documents is one result: one point, both citations.
    const id = `${o.date ?? ''}|${value}`;
    const seen = points.get(id);
    if (seen) {
      if (!seen.sources.some((s) => sameSource(s, o.source))) seen.sources.push(o.source);
      if (!seen.range && range) seen.range = range;
      if (seen.flag_from !== 'source' && flagFrom === 'source') {
        seen.flag = flag;
        seen.flag_from = flagFrom;
        seen.interpretation = o.interpretation ?? null;
      }
      continue;
    }
    points.set(id, {
      date: o.date ?? null,
      value,
      original: { value: o.value as number, unit: o.unit ?? null },
      range,
      flag,
      flag_from: flagFrom,
      interpretation: o.interpretation ?? null,
      code: o.code,
      sources: [o.source],
    });
  }
  return {
    key,
    name,
    category: first.category,
    unit,
    ucum: toUcum(unit),
    codes: [...codes.values()],
    points: [...points.values()].sort((a, b) =>
      a.date === b.date ? 0 : a.date === null ? 1 : b.date === null ? -1 : a.date < b.date ? -1 : 1,
    ),
  };
}

/** The name most points give, LOINC long names cut to their component. */
function readableName(names: string[]): string {
  const counts = new Map<string, number>();
  for (const n of names) {
    const name = readableLabName(n);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

function sameSource(a: ObservationSource, b: ObservationSource): boolean {
  return a.document_id === b.document_id && a.filename === b.filename && (a.page ?? null) === (b.page ?? null);
}
