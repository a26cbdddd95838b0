// The pure part of health trends: observations of a record or of facts, the series as the API
// shows them, the plan's gate, the timeline and the CSV. No I/O here (unit-tested directly).
import {
  buildSeries,
  nameKey,
  observationsFromCcda,
  observationsFromFacts,
  observationsFromFhir,
  TEST_GROUPS,
  type ClinicalFact,
  type Observation,
  type ObservationSource,
  type Series,
} from '@medfolio/clinical';
import {
  TRENDS_CSV_COLUMNS,
  TRENDS_FULL_PLANS,
  type LockedSeries,
  type PlanId,
  type SummaryFact,
  type SummarySectionItem,
  type TimelineEvent,
  type TrendSeries,
  type TrendSource,
  type TrendsReply,
} from '@medfolio/contracts';

/**
 * A C-CDA or FHIR file's results and vital signs, cited to the document. A file that cannot be
 * parsed gives none (extraction reports it to the patient already).
 */
export function observationsOfRecord(record: { kind: 'ccda' | 'fhir'; text: string } | null, source: ObservationSource): Observation[] {
  if (!record) return [];
  try {
    return record.kind === 'ccda' ? observationsFromCcda(record.text, source) : observationsFromFhir(record.text, source);
  } catch {
    return [];
  }
}

/**
 * The observations of the engine's facts (before merging, so every dated value is kept), by the
 * document of each fact's first source; documents whose observations come from their own record
 * (`recordDocuments`) are left out, so a C-CDA's results are not counted twice.
 */
export function factObservationsByDocument(facts: readonly ClinicalFact[], recordDocuments: ReadonlySet<string>): Map<string, Observation[]> {
  const out = new Map<string, Observation[]>();
  for (const fact of facts) {
    if (fact.category !== 'result' && fact.category !== 'vital') continue;
    const documentId = fact.sources[0]?.documentId;
    if (!documentId || recordDocuments.has(documentId)) continue;
    const list = out.get(documentId) ?? [];
    list.push(...observationsFromFacts([fact]));
    out.set(documentId, list);
  }
  return out;
}

/** The patient's documents fetched from somewhere (connections): document id → where from and when it arrived. */
export type FetchedSources = ReadonlyMap<string, { source: string; uploadedAt: Date }>;

const FETCHED_DAY = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * "Springfield General Hospital via MyChart, fetched 27 Nov 2026"; a clinic's SMART Health Link or
 * Card was handed over rather than fetched: "SMART Health Link from Springfield Clinic, received 27 Nov 2026".
 */
export function fetchedFromText(entry: { source: string; uploadedAt: Date }): string {
  const verb = /^SMART Health (Link|Card)\b/.test(entry.source) ? 'received' : 'fetched';
  return `${entry.source}, ${verb} ${FETCHED_DAY.format(entry.uploadedAt)}`;
}

/** The source with `fetched_from` when its document was fetched from a hospital or clinic (unchanged otherwise). */
export function withFetchedFrom(source: TrendSource, fetched: FetchedSources | undefined): TrendSource {
  const entry = source.document_id ? fetched?.get(source.document_id) : undefined;
  return entry ? { ...source, fetched_from: fetchedFromText(entry) } : source;
}

function sourceOf(s: ObservationSource, fetched?: FetchedSources): TrendSource {
  return withFetchedFrom({ document_id: s.document_id ?? null, filename: s.filename ?? null, page: s.page ?? null }, fetched);
}

/**
 * A series as the API shows it (points without their per-point code; sources in the API's shape,
 * with where a fetched document came from when `fetched` names it).
 */
export function toTrendSeries(series: Series, fetched?: FetchedSources): TrendSeries {
  return {
    key: series.key,
    name: series.name,
    category: series.category,
    unit: series.unit,
    ucum: series.ucum,
    codes: series.codes.map((c) => ({ system: c.system, code: c.code, ...(c.display ? { display: c.display } : {}) })),
    points: series.points.map((p) => ({
      date: p.date,
      value: p.value,
      original: p.original,
      range: p.range,
      flag: p.flag,
      flag_from: p.flag_from,
      interpretation: p.interpretation,
      sources: p.sources.map((s) => sourceOf(s, fetched)),
    })),
  };
}

const KEY_MEASURES = new Set(TEST_GROUPS.map((g) => g.key));

/** Whether the plan sees every series and the timeline ("Advanced analytics"). */
export function fullAccess(plan: PlanId): boolean {
  return TRENDS_FULL_PLANS.includes(plan);
}

/**
 * The plan's gate. Full: everything. Preview: the first key measure series with points (else the
 * first series), the others as names and point counts, no timeline.
 */
export function gate(series: TrendSeries[], timeline: TimelineEvent[], full: boolean, now: Date): TrendsReply {
  const generated_at = now.toISOString();
  if (full) return { access: 'full', series, locked: [], timeline, generated_at };
  const shown = series.find((s) => KEY_MEASURES.has(s.key.split('~')[0] ?? '') && s.points.length > 0) ?? series.find((s) => s.points.length > 0);
  const locked: LockedSeries[] = series.filter((s) => s !== shown).map((s) => ({ key: s.key, name: s.name, points: s.points.length }));
  return { access: 'preview', series: shown ? [shown] : [], locked, timeline: [], generated_at };
}

// ---- timeline ------------------------------------------------------------------------------------

const FACT_KINDS: Partial<Record<SummaryFact['category'], TimelineEvent['kind']>> = {
  condition: 'condition',
  medication: 'medication',
  procedure: 'procedure',
  allergy: 'allergy',
};

function factSources(fact: { sources: { document_id: string; filename: string; page: number | null }[] }): TrendSource[] {
  return fact.sources.map((s) => ({ document_id: s.document_id, filename: s.filename, page: s.page }));
}

function medicationDetail(details: Record<string, string> | null | undefined): string | null {
  if (!details) return null;
  const parts = [details['dose'], details['route'], details['frequency']].filter((p): p is string => !!p && p.trim() !== '');
  return parts.length ? parts.join(', ') : null;
}

/** A document the summary read, for its visit on the timeline and the date of its undated facts. */
export interface TimelineDocument {
  documentId: string;
  filename: string;
  documentDate: string | null;
}

/**
 * The timeline, newest first (undated last): conditions diagnosed and resolved, medicines started
 * and stopped (and changed, from `changes`), procedures, allergies recorded, and a visit for each
 * dated document. From the summary's facts as the owner sees them (hidden ones left out), each
 * event citing its documents. A fact without its own date takes its document's, as `recorded`.
 */
export function buildTimeline(sections: readonly SummarySectionItem[], documents: readonly TimelineDocument[], changes: readonly TimelineEvent[] = []): TimelineEvent[] {
  const dateOf = new Map(documents.map((d) => [d.documentId, d.documentDate] as const));
  const events: TimelineEvent[] = [];
  const seen = new Set<string>();
  for (const fact of sections.flatMap((s) => s.facts)) {
    const kind = FACT_KINDS[fact.category];
    if (!kind || fact.hidden || seen.has(fact.id)) continue;
    seen.add(fact.id);
    const sources = factSources(fact);
    const detail = kind === 'medication' ? medicationDetail(fact.details) : kind === 'allergy' ? (fact.details?.['reaction'] ?? null) : null;
    const start: TimelineEvent['change'] = kind === 'condition' ? 'diagnosed' : kind === 'medication' ? 'started' : 'recorded';
    const end: TimelineEvent['change'] | null = kind === 'condition' ? 'resolved' : kind === 'medication' ? 'stopped' : null;
    if (fact.onset) events.push({ date: fact.onset, kind, change: start, title: fact.text, detail, sources });
    if (end && fact.end) events.push({ date: fact.end, kind, change: end, title: fact.text, detail, sources });
    else if (end && !fact.end && (fact.status === 'resolved' || fact.status === 'stopped') && fact.onset === null)
      events.push({ date: documentDate(fact, dateOf), kind, change: end, title: fact.text, detail, sources });
    if (!fact.onset && !fact.end && !(end && (fact.status === 'resolved' || fact.status === 'stopped')))
      events.push({ date: documentDate(fact, dateOf), kind, change: 'recorded', title: fact.text, detail, sources });
  }
  events.push(...changes);
  for (const d of documents) {
    if (!d.documentDate) continue;
    events.push({ date: d.documentDate, kind: 'visit', change: 'recorded', title: 'Visit', detail: d.filename || null, sources: [{ document_id: d.documentId, filename: d.filename || null, page: null }] });
  }
  return events.sort((a, b) => (a.date === b.date ? 0 : a.date === null ? 1 : b.date === null ? -1 : a.date < b.date ? 1 : -1));
}

function documentDate(fact: SummaryFact, dateOf: ReadonlyMap<string, string | null>): string | null {
  for (const s of fact.sources) {
    const date = dateOf.get(s.document_id);
    if (date) return date;
  }
  return null;
}

/**
 * Medicines whose dose, route or frequency changed between documents (the engine's facts before
 * merging, which keeps one fact per medicine): a 'changed' event at the later record's date, saying
 * from what to what.
 */
export function medicationChanges(facts: readonly ClinicalFact[]): TimelineEvent[] {
  const byMedicine = new Map<string, ClinicalFact[]>();
  for (const fact of facts) {
    if (fact.category !== 'medication') continue;
    const key = nameKey(fact);
    if (!key) continue;
    byMedicine.set(key, [...(byMedicine.get(key) ?? []), fact]);
  }
  const out: TimelineEvent[] = [];
  for (const list of byMedicine.values()) {
    const dated = list
      .map((f) => ({ f, date: f.onset ?? f.recorded ?? null, detail: medicationDetail(f.details ?? null) }))
      .filter((x): x is { f: ClinicalFact; date: string; detail: string } => x.date !== null && x.detail !== null)
      .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    for (const [i, after] of dated.entries()) {
      const before = dated[i - 1];
      if (!before || before.detail.toLowerCase() === after.detail.toLowerCase() || before.date === after.date) continue;
      out.push({
        date: after.date,
        kind: 'medication',
        change: 'changed',
        title: after.f.text,
        detail: `${before.detail} → ${after.detail}`,
        sources: [...before.f.sources, ...after.f.sources].map((s) => ({ document_id: s.documentId, filename: s.filename, page: s.page })),
      });
    }
  }
  return out;
}

// ---- CSV -----------------------------------------------------------------------------------------

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote, CR or LF (quotes doubled). A
 * text that a spreadsheet would read as a formula (starting with = + - @, or a tab or CR) is
 * prefixed with ' (OWASP's CSV injection advice); numbers are written as numbers.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'number' ? String(value) : value;
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(',');
}

function sameSource(a: ObservationSource, b: ObservationSource): boolean {
  return (a.document_id ?? null) === (b.document_id ?? null) && (a.filename ?? null) === (b.filename ?? null) && (a.page ?? null) === (b.page ?? null);
}

/** The series an observation landed in, and its value in that series' unit (null when it has none). */
function placeOf(o: Observation, series: readonly Series[]): { value: number; unit: string | null; flag: string | null } | null {
  if (o.value === null) return null;
  const own = buildSeries([o])[0];
  if (!own) return null;
  const base = own.key.split('~')[0];
  const candidates = series.filter((s) => s.key === base || s.key.startsWith(`${base}~`));
  let fallback: { value: number; unit: string | null; flag: string | null } | null = null;
  for (const s of candidates) {
    for (const p of s.points) {
      if (p.date !== (o.date ?? null) || !p.sources.some((src) => sameSource(src, o.source))) continue;
      if (p.original.value === o.value && p.original.unit === (o.unit ?? null)) return { value: p.value, unit: s.unit, flag: p.flag };
      fallback ??= { value: p.value, unit: s.unit, flag: p.flag };
    }
  }
  return fallback;
}

/**
 * Every observation (numeric or not) as CSV, one row each, as each document gave it, with its value
 * in its series' unit. Header row first; CRLF line ends.
 */
export function trendsCsv(observations: readonly Observation[]): { content: string; rows: number } {
  const series = buildSeries(observations);
  const lines = [csvRow(TRENDS_CSV_COLUMNS)];
  const sorted = [...observations].sort((a, b) => (a.date ?? '\uffff').localeCompare(b.date ?? '\uffff') || a.name.localeCompare(b.name));
  for (const o of sorted) {
    const placed = placeOf(o, series);
    lines.push(
      csvRow([
        o.date ?? null,
        o.name,
        o.value ?? o.text ?? null,
        o.unit ?? null,
        placed?.value ?? null,
        placed?.unit ?? null,
        o.range?.low ?? null,
        o.range?.high ?? null,
        placed?.flag ?? null,
        o.interpretation ?? null,
        o.code?.system ?? null,
        o.code?.code ?? null,
        o.source.filename ?? null,
        o.source.document_id ?? null,
        o.source.page ?? null,
      ]),
    );
  }
  return { content: lines.join('\r\n') + '\r\n', rows: lines.length - 1 };
}
