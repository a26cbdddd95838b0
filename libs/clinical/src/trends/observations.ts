// Lab results and vital signs as data: each with its code, value, unit, reference range and
// interpretation as the source gave them, its date and its document citation.
//
// Why the raw records are read again: the facts extraction keeps (ClinicalFact.details) carry the
// value, unit, a readable interpretation and the date, but not the reference range, not the
// interpretation's code, and a blood pressure's systolic and diastolic only joined ("120/80"). So
// C-CDA and FHIR are read here with extraction's own helpers (xml.ts: the safe parser and DOM walk;
// codes.ts: dates, code systems, readable lab names), and facts (results read from PDFs and text,
// where no raw structure exists) through `observationsFromFacts`.
import type { Element } from '@xmldom/xmldom';
import { isoDate, readableLabName, systemFromOid, systemFromUrl } from '../extract/codes';
import { attr, descendants, kid, kids, parseUntrustedXml, textOf, V3 } from '../extract/xml';

export interface ObservationCode {
  /** As in the model's Code.system: 'LOINC', 'SNOMED CT', or the system's OID/URL when unknown. */
  system: string;
  code: string;
  display?: string;
}

export interface ReferenceRange {
  low?: number;
  high?: number;
  /** The unit the range was given in, when it says. */
  unit?: string;
  /** The range as text when the source wrote it so ("<10", "4.0-5.6 %"). */
  text?: string;
}

export interface ObservationSource {
  document_id?: string;
  filename?: string;
  page?: number | null;
}

export interface Observation {
  code: ObservationCode | null;
  /** The test's name as the source gives it, made readable (a LOINC long name cut to its component). */
  name: string;
  category: 'result' | 'vital';
  /** The number, or null for a value that is not one (coded, text, an interval such as "> 500"). */
  value: number | null;
  /** The value as text when it is not a plain number. */
  text?: string;
  /** The unit as the source wrote it. */
  unit?: string;
  range?: ReferenceRange;
  /** The interpretation's code as given ('L', 'H', 'A', 'N', 'LX'...), or its text when the source gave no code. */
  interpretation?: string;
  /** ISO 8601, as partial as the source ("2008-03-19", "2015"). */
  date?: string;
  source: ObservationSource;
}

const RESULT_TEMPLATES = new Set(['2.16.840.1.113883.10.20.22.2.3', '2.16.840.1.113883.10.20.22.2.3.1']);
const VITAL_TEMPLATES = new Set(['2.16.840.1.113883.10.20.22.2.4', '2.16.840.1.113883.10.20.22.2.4.1']);

/** A plain decimal number ("13.2", "-1", ".5"), else null. */
export function numberOf(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = value?.trim();
  if (!text || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

function without<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// ---- C-CDA ---------------------------------------------------------------------------------------

function sectionCategory(section: Element): 'result' | 'vital' | null {
  const code = attr(kid(section, 'code'), 'code');
  if (code === '30954-2') return 'result';
  if (code === '8716-3') return 'vital';
  for (const t of kids(section, 'templateId')) {
    const root = attr(t, 'root') ?? '';
    if (RESULT_TEMPLATES.has(root)) return 'result';
    if (VITAL_TEMPLATES.has(root)) return 'vital';
  }
  return null;
}

/** The observation's code: its own when LOINC, else a LOINC translation, else its own. */
function ccdaCode(el: Element | undefined): ObservationCode | null {
  if (!el) return null;
  const candidates = [el, ...kids(el, 'translation')].filter((c) => attr(c, 'code') && !attr(c, 'nullFlavor'));
  const best = candidates.find((c) => systemFromOid(attr(c, 'codeSystem')) === 'LOINC') ?? candidates[0];
  if (!best) return null;
  return without({
    system: systemFromOid(attr(best, 'codeSystem')),
    code: attr(best, 'code') as string,
    display: attr(best, 'displayName') ?? attr(el, 'displayName'),
  });
}

function ccdaDate(el: Element | undefined): string | undefined {
  const time = kid(el, 'effectiveTime');
  return isoDate(attr(time, 'value') ?? attr(kid(time, 'low'), 'value') ?? attr(kid(time, 'center'), 'value'));
}

function ccdaRange(obs: Element): ReferenceRange | undefined {
  const range = kids(obs, 'referenceRange')
    .map((r) => kid(r, 'observationRange'))
    .find(Boolean);
  if (!range) return undefined;
  const value = kid(range, 'value');
  const low = kid(value, 'low');
  const high = kid(value, 'high');
  const out: ReferenceRange = without({
    low: numberOf(attr(low, 'value')) ?? undefined,
    high: numberOf(attr(high, 'value')) ?? undefined,
    unit: attr(low, 'unit') ?? attr(high, 'unit'),
    text: textOf(kid(range, 'text')) || undefined,
  });
  return Object.keys(out).length ? out : undefined;
}

/**
 * Results and vital signs of a C-CDA document (Results and Vital Signs sections, organizers or
 * observations). Throws extraction's UnreadableError on XML that is not safe or not well-formed.
 */
export function observationsFromCcda(xml: string, source: ObservationSource = {}): Observation[] {
  const root = parseUntrustedXml(xml).documentElement;
  if (!root || root.localName !== 'ClinicalDocument' || root.namespaceURI !== V3) return [];
  const out: Observation[] = [];
  for (const section of descendants(root, 'section')) {
    const category = sectionCategory(section);
    if (!category || attr(section, 'nullFlavor')) continue;
    for (const entry of kids(section, 'entry')) {
      const top = kids(entry)[0];
      if (!top) continue;
      const observations =
        top.localName === 'organizer' ? kids(top, 'component').flatMap((c) => kids(c, 'observation')) : [top];
      for (const obs of observations) {
        if (obs.localName !== 'observation' || attr(obs, 'negationInd') === 'true') continue;
        if (attr(obs, 'moodCode') && attr(obs, 'moodCode') !== 'EVN') continue;
        const read = ccdaObservation(obs, category, ccdaDate(top), source);
        if (read) out.push(read);
      }
    }
  }
  return out;
}

function ccdaObservation(
  obs: Element,
  category: 'result' | 'vital',
  organizerDate: string | undefined,
  source: ObservationSource,
): Observation | null {
  const codeEl = kid(obs, 'code');
  const code = ccdaCode(codeEl);
  const named = attr(codeEl, 'displayName') ?? code?.display ?? textOf(kid(codeEl, 'originalText'));
  const name = named ? readableLabName(named) : code?.code;
  if (!name) return null;
  const valueEl = kids(obs, 'value')[0];
  let value: number | null = null;
  let text: string | undefined;
  let unit: string | undefined;
  if (attr(valueEl, 'value') !== undefined) {
    value = numberOf(attr(valueEl, 'value'));
    if (value === null) text = attr(valueEl, 'value');
    unit = attr(valueEl, 'unit');
  } else if (kid(valueEl, 'low') || kid(valueEl, 'high')) {
    const [low, high] = [kid(valueEl, 'low'), kid(valueEl, 'high')];
    const [from, to] = [attr(low, 'value'), attr(high, 'value')];
    const open = (end: Element | undefined) => attr(end, 'inclusive') === 'false';
    if (from || to)
      text =
        from && to ? `${from}-${to}` : from ? `${open(low) ? '>' : '>='} ${from}` : `${open(high) ? '<' : '<='} ${to}`;
    unit = attr(low, 'unit') ?? attr(high, 'unit');
  } else if (valueEl) {
    text = attr(valueEl, 'displayName') ?? (textOf(valueEl) || attr(valueEl, 'code'));
  }
  if (value === null && !text) return null;
  if (unit === '1') unit = undefined;
  const interpretationEl = kid(obs, 'interpretationCode');
  const interpretation = attr(interpretationEl, 'code') ?? attr(interpretationEl, 'displayName');
  return without({
    code,
    name,
    category,
    value,
    text,
    unit,
    range: ccdaRange(obs),
    interpretation,
    date: ccdaDate(obs) ?? organizerDate,
    source,
  });
}

// ---- FHIR ----------------------------------------------------------------------------------------

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

function fhirCode(concept: unknown): { code: ObservationCode | null; name?: string } {
  const cc = obj(concept);
  const codings = arr(cc?.coding)
    .map(obj)
    .filter((c): c is Json => !!str(c?.code));
  const best = codings.find((c) => systemFromUrl(str(c.system)) === 'LOINC') ?? codings[0];
  const code = best
    ? without({ system: systemFromUrl(str(best.system)), code: str(best.code) as string, display: str(best.display) })
    : null;
  const named = str(cc?.text) ?? codings.map((c) => str(c.display)).find(Boolean);
  return { code, name: named ? readableLabName(named) : code?.code };
}

function fhirRange(value: unknown): ReferenceRange | undefined {
  const range = obj(arr(value)[0]);
  if (!range) return undefined;
  const low = obj(range.low);
  const high = obj(range.high);
  const out: ReferenceRange = without({
    low: numberOf(low?.value as number | string | undefined) ?? undefined,
    high: numberOf(high?.value as number | string | undefined) ?? undefined,
    unit: str(low?.unit) ?? str(high?.unit) ?? str(low?.code) ?? str(high?.code),
    text: str(range.text),
  });
  return Object.keys(out).length ? out : undefined;
}

function fhirValue(res: Json): { value: number | null; text?: string; unit?: string } {
  const q = obj(res.valueQuantity);
  if (q && q.value !== undefined) {
    const value = numberOf(q.value as number | string);
    const comparator = str(q.comparator);
    const unit = str(q.unit) ?? str(q.code);
    if (value !== null && !comparator) return { value, unit };
    return { value: null, text: `${comparator ?? ''} ${String(q.value)}`.trim(), unit };
  }
  if (typeof res.valueInteger === 'number') return { value: res.valueInteger };
  const text =
    str(res.valueString) ??
    str(obj(res.valueCodeableConcept)?.text) ??
    arr(obj(res.valueCodeableConcept)?.coding)
      .map((c) => str(obj(c)?.display) ?? str(obj(c)?.code))
      .find(Boolean) ??
    (typeof res.valueBoolean === 'boolean' ? String(res.valueBoolean) : undefined);
  return { value: null, text };
}

function fhirInterpretation(value: unknown): string | undefined {
  const concept = obj(arr(value)[0]);
  return (
    arr(concept?.coding)
      .map((c) => str(obj(c)?.code))
      .find(Boolean) ?? str(concept?.text)
  );
}

/**
 * Observations of a FHIR R4 resource or Bundle (parsed JSON or its text): value, unit, reference
 * range, interpretation and effective date; a component with its own code (a blood pressure's
 * systolic and diastolic) is an observation of its own. A resource that is not an Observation gives none.
 */
export function observationsFromFhir(input: string | unknown, source: ObservationSource = {}): Observation[] {
  const root = obj(typeof input === 'string' ? (JSON.parse(input) as unknown) : input);
  if (!root) return [];
  const resources =
    root.resourceType === 'Bundle'
      ? arr(root.entry)
          .map((e) => obj(obj(e)?.resource))
          .filter((r): r is Json => !!r)
      : [root];
  const out: Observation[] = [];
  for (const res of resources) {
    if (res.resourceType !== 'Observation') continue;
    if (['entered-in-error', 'cancelled', 'registered'].includes(str(res.status) ?? '')) continue;
    const categories = arr(res.category).flatMap((c) => arr(obj(c)?.coding).map((x) => str(obj(x)?.code)));
    const category = categories.includes('vital-signs') ? 'vital' : 'result';
    const date = isoDate(str(res.effectiveDateTime) ?? str(obj(res.effectivePeriod)?.start) ?? str(res.issued));
    const interpretation = fhirInterpretation(res.interpretation);
    const { code, name } = fhirCode(res.code);
    const own = fhirValue(res);
    if (name && (own.value !== null || own.text))
      out.push(
        without({
          code,
          name,
          category,
          ...own,
          range: fhirRange(res.referenceRange),
          interpretation,
          date,
          source,
        }),
      );
    for (const c of arr(res.component).map(obj)) {
      if (!c) continue;
      const part = fhirCode(c.code);
      const value = fhirValue(c);
      if (!part.name || (value.value === null && !value.text)) continue;
      out.push(
        without({
          code: part.code,
          name: part.name,
          category,
          ...value,
          range: fhirRange(c.referenceRange),
          interpretation: fhirInterpretation(c.interpretation) ?? interpretation,
          date,
          source,
        }),
      );
    }
  }
  return out;
}

// ---- facts ---------------------------------------------------------------------------------------

/** A result or vital sign fact as extraction and the engines make it (ClinicalFact) or the API serves it (SummaryFact). */
export interface ObservationFact {
  category: string;
  text: string;
  code?: ObservationCode | null;
  details?: Partial<Record<string, string>> | null;
  onset?: string | null;
  recorded?: string;
  sources: { documentId?: string; document_id?: string; filename?: string; page?: number | null }[];
}

/** Interpretation texts the extractors and engines write, back to HL7's codes. */
const INTERPRETATION_CODES: Record<string, string> = {
  normal: 'N',
  abnormal: 'A',
  'critical abnormal': 'AA',
  high: 'H',
  'critical high': 'HH',
  low: 'L',
  'critical low': 'LL',
  'above the measurable range': '>',
  'below the measurable range': '<',
  'above high normal': 'H',
  'below low normal': 'L',
};

/** A blood pressure panel's LOINC codes, and its parts'. */
const BP_PANEL = new Set(['85354-9', '55284-4', '35094-2']);

/**
 * Observations of result and vital facts (the ones read from PDFs and text have no raw structure to
 * read again): value, unit and interpretation from `details`, the date from `onset` (else `recorded`),
 * the first source as the citation. Facts carry no reference range. "120/80" of a blood pressure
 * becomes a systolic (8480-6) and a diastolic (8462-4) observation.
 */
export function observationsFromFacts(facts: readonly ObservationFact[]): Observation[] {
  const out: Observation[] = [];
  for (const fact of facts) {
    if (fact.category !== 'result' && fact.category !== 'vital') continue;
    const raw = fact.details?.value?.trim();
    if (!raw) continue;
    const first = fact.sources[0];
    const source: ObservationSource = without({
      document_id: first?.document_id ?? first?.documentId,
      filename: first?.filename,
      page: first?.page ?? undefined,
    });
    const name = readableLabName(fact.text.split(':')[0]?.trim() || fact.text);
    const told = fact.details?.interpretation?.trim();
    const interpretation = told ? (INTERPRETATION_CODES[told.toLowerCase()] ?? told) : undefined;
    const date = isoDate(fact.onset ?? fact.recorded);
    const unit = fact.details?.unit?.trim() || undefined;
    const code = fact.code ?? null;
    const bp = /^(\d{2,3})\s*\/\s*(\d{2,3})$/.exec(raw);
    if (bp && ((code && BP_PANEL.has(code.code)) || /blood pressure|^bp\b/i.test(name))) {
      for (const [loinc, label, v] of [
        ['8480-6', 'Systolic blood pressure', bp[1]],
        ['8462-4', 'Diastolic blood pressure', bp[2]],
      ] as const)
        out.push(
          without({
            code: { system: 'LOINC', code: loinc },
            name: label,
            category: fact.category,
            value: Number(v),
            unit: unit ?? 'mm[Hg]',
            interpretation,
            date,
            source,
          }),
        );
      continue;
    }
    const value = numberOf(raw);
    out.push(
      without({
        code,
        name,
        category: fact.category,
        value,
        text: value === null ? raw : undefined,
        unit,
        interpretation,
        date,
        source,
      }),
    );
  }
  return out;
}
