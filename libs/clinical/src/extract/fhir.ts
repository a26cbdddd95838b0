import type { ClinicalFact, Code, FactCategory, FactStatus, SectionKey } from '../model';
import {
  isoDate,
  isPast,
  PREFERRED_SYSTEMS,
  readableConceptName,
  readableLabName,
  shortQuote,
  systemFromUrl,
  withoutUndefined,
} from './codes';
import { emptyPart, UnreadableError, type ExtractContext, type PartialResult } from './types';

// FHIR JSON is untyped input: every field is read defensively through these helpers.
type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined;
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** Resource types read (others in a Bundle are passed over quietly). */
export const FHIR_RESOURCE_TYPES = new Set([
  'Bundle',
  'Composition',
  'Patient',
  'Condition',
  'MedicationStatement',
  'MedicationRequest',
  'Medication',
  'AllergyIntolerance',
  'Immunization',
  'Procedure',
  'Observation',
  'DiagnosticReport',
  'Encounter',
  'Practitioner',
  'Organization',
  'DocumentReference',
  'CarePlan',
  'Device',
  'DeviceUseStatement',
  'FamilyMemberHistory',
  'Flag',
  'ClinicalImpression',
  'List',
]);

/** IPS "absent or unknown" codes that state a section is empty. */
const IPS_ABSENT = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';
const NONE_KNOWN: Record<string, { section: SectionKey; text: string }> = {
  'no-known-allergies': { section: 'allergies', text: 'No known allergies' },
  'no-known-medication-allergies': { section: 'allergies', text: 'No known medication allergies' },
  'no-known-medications': { section: 'medications', text: 'No known medications' },
  'no-known-problems': { section: 'current_conditions', text: 'No known problems' },
  '716186003': { section: 'allergies', text: 'No known allergies' },
  '409137002': { section: 'allergies', text: 'No known drug allergies' },
  '428607008': { section: 'allergies', text: 'No known environmental allergies' },
  '429625007': { section: 'allergies', text: 'No known food allergies' },
};

/** True when a parsed JSON value looks like a FHIR resource (a known resourceType and an object body). */
export function isFhirResource(value: unknown): boolean {
  const o = obj(value);
  return (
    !!o &&
    typeof o.resourceType === 'string' &&
    FHIR_RESOURCE_TYPES.has(o.resourceType) &&
    (o.resourceType !== 'Bundle' || Array.isArray(o.entry ?? []))
  );
}

interface Reader {
  ctx: ExtractContext;
  part: PartialResult;
  /** Resources by fullUrl and by "Type/id", for medicationReference. */
  byRef: Map<string, Json>;
  documentDate?: string;
}

/** FHIR R4 JSON: a Bundle (document, collection, IPS) or one resource. */
export function extractFhir(ctx: ExtractContext, json: string): PartialResult {
  let root: unknown;
  try {
    root = JSON.parse(json);
  } catch {
    throw new UnreadableError('This JSON file is damaged and could not be read.');
  }
  if (!isFhirResource(root))
    throw new UnreadableError('This JSON file is not a health record that can be read (it is not FHIR).');
  const part = emptyPart();
  const resources: Json[] = [];
  const byRef = new Map<string, Json>();
  const top = root as Json;
  if (top.resourceType === 'Bundle') {
    for (const e of arr(top.entry)) {
      const entry = obj(e);
      const res = obj(entry?.resource);
      if (!res || typeof res.resourceType !== 'string') continue;
      resources.push(res);
      if (str(entry?.fullUrl)) byRef.set(entry?.fullUrl as string, res);
      if (str(res.id)) byRef.set(`${res.resourceType}/${res.id as string}`, res);
    }
  } else resources.push(top);
  const r: Reader = { ctx, part, byRef };
  const composition = resources.find((res) => res.resourceType === 'Composition');
  r.documentDate =
    isoDate(str(composition?.date)) ?? (top.resourceType === 'Bundle' ? isoDate(str(top.timestamp)) : undefined);
  if (r.documentDate) part.documentDate = r.documentDate;
  const sections = composition ? readComposition(r, composition) : [];
  // Resources that gave a fact or a none-known statement.
  const read = new Set<Json>();
  for (const res of resources) {
    const before = part.facts.length + part.noneKnown.length;
    try {
      readResource(r, res);
    } catch {
      ctx.logger.warn('fhir_resource_skipped', { resourceType: String(res.resourceType) });
    }
    if (part.facts.length + part.noneKnown.length > before) read.add(res);
  }
  // A section's narrative is the human-readable copy of its entries (IPS: generated from them). Once
  // every entry it references has been read as a coded fact, the narrative has nothing more to say, and
  // its table headers and labels ("Medication | Strength | Form", "Condition Name:") must not be read
  // as facts of their own.
  for (const { text, refs } of sections) {
    const targets = refs.map((ref) => byRef.get(ref));
    if (targets.length && targets.some((t) => t && read.has(t)) && targets.every((t) => t !== undefined))
      Object.assign(text, { coveredByFacts: true });
  }
  ctx.logger.info('fhir_read', { resources: resources.length, facts: part.facts.length });
  return part;
}

/** A Composition section's narrative, as pushed to the texts, and the references of its entries. */
interface SectionText {
  text: PartialResult['texts'][number];
  refs: string[];
}

/** The Composition's section narratives as texts, each under its title as a heading ("## "). */
function readComposition(r: Reader, composition: Json): SectionText[] {
  const found: SectionText[] = [];
  const walk = (sections: unknown[]) => {
    for (const s of sections) {
      const section = obj(s);
      const div = str(obj(section?.text)?.div);
      const narrative = div ? xhtmlText(div) : '';
      const title = str(section?.title);
      if (narrative) {
        // The title is a heading by the document's structure, as in a printed record (see pdf-layout.ts).
        const text = {
          filename: r.ctx.filename,
          page: null,
          text: title ? `## ${title}\n${narrative}` : narrative,
          ocr: false,
        };
        r.part.texts.push(text);
        const refs = arr(section?.entry)
          .map((e) => str(obj(e)?.reference))
          .filter((ref): ref is string => !!ref);
        found.push({ text, refs });
      }
      walk(arr(section?.section));
    }
  };
  walk(arr(composition.section));
  return found;
}

/** Narrative XHTML to lines: block ends and table cells become breaks and " | ". */
function xhtmlText(div: string): string {
  return div
    .replace(/<\/t[dh]>\s*<t[dh][^>]*>/gi, ' | ')
    .replace(/<(br|\/p|\/tr|\/li|\/h\d|\/div)[^>]*>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** A CodeableConcept's best code and readable text. */
function concept(value: unknown): { code?: Code; text?: string; codes: string[] } {
  const cc = obj(value);
  const all = arr(cc?.coding)
    .map(obj)
    .filter((c): c is Json => !!c);
  const codings = all.filter((c) => !!str(c.code));
  const ranked = [...codings].sort((a, b) => rank(systemFromUrl(str(a.system))) - rank(systemFromUrl(str(b.system))));
  const best = ranked[0];
  const named = str(cc?.text) ?? [...ranked, ...all].map((c) => str(c.display)).find(Boolean);
  const display = named === undefined ? undefined : readableConceptName(named);
  const code: Code | undefined = best
    ? {
        system: systemFromUrl(str(best.system)),
        code: str(best.code) as string,
        ...(str(best.display) ? { display: str(best.display) } : {}),
      }
    : undefined;
  return { code, text: display, codes: codings.map((c) => `${str(c.system) ?? ''}|${str(c.code) ?? ''}`) };
}

function rank(system: string): number {
  const i = PREFERRED_SYSTEMS.indexOf(system);
  return i < 0 ? PREFERRED_SYSTEMS.length : i;
}

/** A stated "none known" in a coded concept (IPS absent-unknown or SNOMED CT), if any. */
function noneKnownOf(value: unknown): { section: SectionKey; text: string } | undefined {
  for (const c of arr(obj(value)?.coding)) {
    const coding = obj(c);
    const code = str(coding?.code) ?? '';
    const system = str(coding?.system);
    if ((system === IPS_ABSENT || system === 'http://snomed.info/sct' || !system) && NONE_KNOWN[code])
      return NONE_KNOWN[code];
  }
  return undefined;
}

function statusCode(value: unknown): string | undefined {
  return str(obj(arr(obj(value)?.coding)[0])?.code)?.toLowerCase();
}

function push(r: Reader, section: SectionKey, category: FactCategory, text: string, more: Partial<ClinicalFact>): void {
  r.part.facts.push(
    withoutUndefined({
      section,
      category,
      text,
      ...more,
      recorded: more.recorded ?? r.documentDate,
      sources: [{ documentId: r.ctx.documentId, filename: r.ctx.filename, page: null, quote: shortQuote(text) }],
    }),
  );
}

function noneKnown(r: Reader, found: { section: SectionKey; text: string }): void {
  r.part.noneKnown.push({
    ...found,
    sources: [{ documentId: r.ctx.documentId, filename: r.ctx.filename, page: null, quote: found.text }],
  });
}

function dateOf(res: Json, ...fields: string[]): string | undefined {
  for (const f of fields) {
    const v = res[f];
    const d = isoDate(str(v) ?? str(obj(v)?.start));
    if (d) return d;
  }
  return undefined;
}

function readResource(r: Reader, res: Json): void {
  switch (res.resourceType) {
    case 'Condition':
      return readCondition(r, res);
    case 'MedicationStatement':
    case 'MedicationRequest':
      return readMedication(r, res);
    case 'AllergyIntolerance':
      return readAllergy(r, res);
    case 'Immunization': {
      if (str(res.status) === 'not-done' || str(res.status) === 'entered-in-error') return;
      const { code, text } = concept(res.vaccineCode);
      const date = dateOf(res, 'occurrenceDateTime', 'occurrenceString');
      if (text ?? code)
        push(r, 'additional', 'immunization', text ?? code?.code ?? '', { code, onset: date, recorded: date });
      return;
    }
    case 'Procedure': {
      if (['not-done', 'entered-in-error', 'preparation'].includes(str(res.status) ?? '')) return;
      // "No known procedures" says nothing of past illnesses (nor of the other additional facts): not
      // a none-known statement of any section, and no procedure.
      if (arr(obj(res.code)?.coding).some((c) => str(obj(c)?.code) === 'no-known-procedures')) return;
      const none = noneKnownOf(res.code);
      if (none) return noneKnown(r, none);
      const { code, text } = concept(res.code);
      const date = dateOf(res, 'performedDateTime', 'performedPeriod', 'performedString');
      if (text ?? code)
        // A procedure is listed with the procedures (Additional Categories), never as a resolved condition.
        push(r, 'additional', 'procedure', text ?? code?.code ?? '', { code, onset: date, recorded: date });
      return;
    }
    case 'Observation':
      return readObservation(r, res);
  }
}

/**
 * What a Condition or an AllergyIntolerance states: its verification status and its concept. Nothing
 * when it is refuted or entered in error, or names nothing; nothing either when it says none is known,
 * which is kept as that statement.
 */
function statedConcept(r: Reader, res: Json): { verification?: string; code?: Code; text?: string } | undefined {
  const verification = statusCode(res.verificationStatus);
  if (verification === 'refuted' || verification === 'entered-in-error') return undefined;
  const none = noneKnownOf(res.code);
  if (none) {
    noneKnown(r, none);
    return undefined;
  }
  const { code, text } = concept(res.code);
  return text || code ? { verification, code, text } : undefined;
}

function readCondition(r: Reader, res: Json): void {
  const stated = statedConcept(r, res);
  if (!stated) return;
  const { verification, code, text } = stated;
  const clinical = statusCode(res.clinicalStatus);
  const end = dateOf(res, 'abatementDateTime', 'abatementPeriod', 'abatementString');
  let status: FactStatus = 'unknown';
  if (clinical === 'active' || clinical === 'recurrence' || clinical === 'relapse') status = 'active';
  else if (clinical === 'inactive' || clinical === 'remission' || clinical === 'resolved') status = 'resolved';
  else if (end) status = 'resolved';
  push(r, status === 'resolved' ? 'past_history' : 'current_conditions', 'condition', text ?? code?.code ?? '', {
    code,
    status,
    onset: dateOf(res, 'onsetDateTime', 'onsetPeriod', 'onsetString'),
    end,
    recorded: isoDate(str(res.recordedDate)),
    certainty: verification === 'provisional' || verification === 'differential' ? 'possible' : undefined,
  });
}

function readMedication(r: Reader, res: Json): void {
  const status = str(res.status);
  if (status === 'entered-in-error' || status === 'not-taken' || status === 'cancelled' || status === 'draft') return;
  // The drug: an inline concept, a referenced Medication (R4), or R5's CodeableReference.
  const reference = str(obj(res.medicationReference)?.reference) ?? str(obj(obj(res.medication)?.reference)?.reference);
  // "#id" points at a resource contained in this one (a Medication kept inside its statement).
  const medication = reference?.startsWith('#')
    ? arr(res.contained)
        .map(obj)
        .find((c) => c?.id === reference.slice(1))
    : reference
      ? r.byRef.get(reference)
      : undefined;
  const drug = res.medicationCodeableConcept ?? obj(res.medication)?.concept ?? medication?.code;
  const none = noneKnownOf(drug);
  if (none) return noneKnown(r, none);
  const { code, text } = concept(drug);
  const name = text ?? code?.code ?? str(obj(res.medicationReference)?.display);
  if (!name) return;
  const period = obj(res.effectivePeriod) ?? obj(obj(res.dispenseRequest)?.validityPeriod);
  const end = isoDate(str(period?.end));
  const dosage = obj(arr(res.dosage ?? res.dosageInstruction)[0]);
  const dose = obj(obj(arr(dosage?.doseAndRate)[0])?.doseQuantity);
  const details: ClinicalFact['details'] = {};
  if (str(dosage?.text)) details.frequency = str(dosage?.text);
  if (dose?.value !== undefined) details.dose = `${String(dose.value)} ${str(dose.unit) ?? ''}`.trim();
  const route = concept(dosage?.route).text;
  if (route) details.route = route;
  const stopped = status === 'completed' || status === 'stopped' || isPast(end);
  push(r, 'medications', 'medication', dosage && str(dosage.text) ? `${name}, ${str(dosage.text)}` : name, {
    code,
    status: stopped
      ? 'stopped'
      : status === 'active' || status === 'intended' || status === 'on-hold'
        ? 'active'
        : 'unknown',
    onset: isoDate(str(period?.start) ?? str(res.effectiveDateTime) ?? str(res.authoredOn)),
    end,
    details: Object.keys(details).length ? details : undefined,
  });
}

function readAllergy(r: Reader, res: Json): void {
  const stated = statedConcept(r, res);
  if (!stated) return;
  const { verification, code, text } = stated;
  const reactions = arr(res.reaction)
    .map(obj)
    .filter((x): x is Json => !!x);
  const manifestation = reactions
    .flatMap((x) => arr(x.manifestation).map((m) => concept(obj(m)?.concept ?? m).text))
    .filter(Boolean)
    .join(', ');
  const severity = reactions.map((x) => str(x.severity)).find(Boolean) ?? str(res.criticality);
  const details: ClinicalFact['details'] = {};
  if (manifestation) details.reaction = manifestation;
  if (severity) details.severity = severity;
  const clinical = statusCode(res.clinicalStatus);
  push(r, 'allergies', 'allergy', text ?? code?.code ?? '', {
    code,
    status: clinical === 'inactive' || clinical === 'resolved' ? 'resolved' : 'active',
    onset: dateOf(res, 'onsetDateTime', 'onsetPeriod', 'onsetString'),
    details: Object.keys(details).length ? details : undefined,
    certainty: verification === 'unconfirmed' ? 'possible' : undefined,
  });
}

function quantity(res: Json): { value?: string; unit?: string } {
  const q = obj(res.valueQuantity);
  if (q && q.value !== undefined) return { value: String(q.value), unit: str(q.unit) ?? str(q.code) };
  const v =
    str(res.valueString) ??
    concept(res.valueCodeableConcept).text ??
    (typeof res.valueBoolean === 'boolean' ? String(res.valueBoolean) : undefined) ??
    (typeof res.valueInteger === 'number' ? String(res.valueInteger) : undefined);
  return v ? { value: v } : {};
}

function readObservation(r: Reader, res: Json): void {
  if (['entered-in-error', 'cancelled', 'registered'].includes(str(res.status) ?? '')) return;
  const { code, text } = concept(res.code);
  // "CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN" -> "Carbon dioxide".
  const name = text ? readableLabName(text) : code?.code;
  if (!name) return;
  const categories = arr(res.category).flatMap((c) => arr(obj(c)?.coding).map((x) => str(obj(x)?.code)));
  const category: FactCategory = categories.includes('vital-signs') ? 'vital' : 'result';
  const date = dateOf(res, 'effectiveDateTime', 'effectivePeriod', 'issued');
  const own = quantity(res);
  const parts = arr(res.component)
    .map(obj)
    .filter((c): c is Json => !!c)
    .map((c) => ({ name: concept(c.code).text, ...quantity(c) }))
    .filter((c) => c.value);
  const details: ClinicalFact['details'] = {};
  let shown = name;
  if (own.value) {
    details.value = own.value;
    if (own.unit) details.unit = own.unit;
    shown = `${name}: ${own.value}${own.unit ? ' ' + own.unit : ''}`;
  } else if (parts.length) {
    details.value = parts.map((p) => p.value).join('/');
    if (parts[0].unit && parts.every((p) => p.unit === parts[0].unit)) details.unit = parts[0].unit;
    shown = `${name}: ${parts.map((p) => `${p.name ?? ''} ${p.value}${p.unit ? ' ' + p.unit : ''}`.trim()).join(', ')}`;
  }
  const interpretation = concept(arr(res.interpretation)[0]).text ?? concept(arr(res.interpretation)[0]).code?.code;
  if (interpretation) details.interpretation = interpretation;
  push(r, 'additional', category, shown, {
    code,
    onset: date,
    recorded: date ?? r.documentDate,
    details: Object.keys(details).length ? details : undefined,
  });
}
