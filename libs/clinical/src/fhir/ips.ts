// The summary as a FHIR R4 International Patient Summary (IPS) document Bundle: what a doctor's
// system reads (GET /api/summary/fhir/, the SMART Health Link's file, a provider's API). Pure: the
// summary in, a Bundle out. Hidden facts never leave (a share shows neither them nor their count).
import { randomUUID } from 'node:crypto';
import type {
  AllergyIntolerance,
  Annotation,
  Bundle,
  BundleEntry,
  CodeableConcept,
  Coding,
  Composition,
  CompositionSection,
  Condition,
  Device,
  Extension,
  Immunization,
  MedicationStatement,
  Observation,
  Patient,
  Procedure,
  Quantity,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import type { SummaryFact, SummaryItem, SummarySectionItem, TrendPoint, TrendSeries } from '@medfolio/contracts';
import { UCUM_SYSTEM, ucumCode } from './ucum';

export const LOINC = 'http://loinc.org';
export const SNOMED = 'http://snomed.info/sct';
/** The IPS's own codes for "none known" and "no information" (absent-unknown-uv-ips). */
export const IPS_ABSENT_UNKNOWN = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';
const LIST_EMPTY_REASON = 'http://terminology.hl7.org/CodeSystem/list-empty-reason';
const DATA_ABSENT_REASON = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';

/** The IPS Composition type: "Patient summary Document". */
export const IPS_DOCUMENT_CODE = '60591-5';

/** IPS section codes (LOINC), by the section the IPS names. */
export const IPS_SECTIONS = {
  problems: { code: '11450-4', display: 'Problem list - Reported', title: 'Active Problems' },
  medications: { code: '10160-0', display: 'History of Medication use Narrative', title: 'Medication Summary' },
  allergies: {
    code: '48765-2',
    display: 'Allergies and adverse reactions Document',
    title: 'Allergies and Intolerances',
  },
  pastIllness: { code: '11348-0', display: 'History of Past illness Narrative', title: 'History of Past Illness' },
  immunizations: { code: '11369-6', display: 'History of Immunization Narrative', title: 'Immunizations' },
  procedures: { code: '47519-4', display: 'History of Procedures Document', title: 'History of Procedures' },
  results: { code: '30954-2', display: 'Relevant diagnostic tests/laboratory data Narrative', title: 'Results' },
  vitalSigns: { code: '8716-3', display: 'Vital signs', title: 'Vital Signs' },
  careTeam: { code: '85847-2', display: 'Patient Care team information', title: 'Care Team' },
  notes: { code: '51848-0', display: 'Evaluation note', title: 'Other Notes' },
} as const;
export type IpsSectionName = keyof typeof IPS_SECTIONS;

/** The three sections every IPS has, in this order, facts or not. */
export const IPS_REQUIRED_SECTIONS: readonly IpsSectionName[] = ['problems', 'medications', 'allergies'];

/** The model's code system names (libs/clinical extract/codes.ts) as FHIR system URLs. */
const SYSTEM_URLS: Record<string, string> = {
  RxNorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  'SNOMED CT': SNOMED,
  'ICD-10-CM': 'http://hl7.org/fhir/sid/icd-10-cm',
  'ICD-10': 'http://hl7.org/fhir/sid/icd-10',
  'ICD-9-CM': 'http://hl7.org/fhir/sid/icd-9-cm',
  LOINC,
  CVX: 'http://hl7.org/fhir/sid/cvx',
  NDC: 'http://hl7.org/fhir/sid/ndc',
  CPT: 'http://www.ama-assn.org/go/cpt',
  UNII: 'http://fdasis.nlm.nih.gov',
};

/**
 * Who the summary is about. With a name, Patient.name has it (given, family and text) and the IPS
 * Patient profile's ips-pat-1 holds; with a birth date, Patient.birthDate has it. An anonymous
 * summary (the patient's choice, or no name known) is what the IPS allows for a withheld name: one
 * HumanName of use "anonymous" with the text "Anonymous" (ips-pat-1 needs a given, family or text),
 * birthDate absent with data-absent-reason "masked" (chosen) or "unknown" (not known), and no
 * identifier.
 */
export interface IpsPatient {
  /** The patient's id in Medfolio (becomes Patient.identifier; never the share id). Left out of shares. */
  id?: string | null;
  /** Given name(s); several are split on spaces into Patient.name.given. */
  given?: string | null;
  family?: string | null;
  /** ISO date (YYYY, YYYY-MM or YYYY-MM-DD). */
  birthDate?: string | null;
  /** The patient chose an anonymous summary: name, birth date and id are left out even if given. */
  anonymous?: boolean;
}

/** The text of the name an anonymous summary carries (HumanName.use "anonymous"). */
export const ANONYMOUS_NAME = 'Anonymous';

export interface IpsOptions {
  /** Stamped on the Bundle and the Composition (ISO 8601 with a zone); default: now. */
  now?: Date;
  /** Base of Patient.identifier.system (e.g. PUBLIC_BASE_URL); default: an urn of this app. */
  identifierSystem?: string;
  /** The fullUrl maker (tests pass a deterministic one); default: urn:uuid with a random UUID. */
  newId?: () => string;
}

const absent = (code: 'unknown' | 'not-applicable' | 'masked' = 'unknown'): { extension: Extension[] } => ({
  extension: [{ url: DATA_ABSENT_REASON, valueCode: code }],
});

const PARTIAL_DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

/** A model date as a FHIR date(Time): the date part only (a time would need a zone the source rarely gives). */
export function fhirDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  if (PARTIAL_DATE.test(value)) return value;
  const datePart = value.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}T/.test(value) && PARTIAL_DATE.test(datePart) ? datePart : undefined;
}

function escapeXhtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Narrative: the lines as an XHTML list (or one paragraph), as FHIR's Narrative.div wants. */
function narrative(lines: string[]): { status: 'generated'; div: string } {
  const body =
    lines.length === 1
      ? `<p>${escapeXhtml(lines[0] ?? '')}</p>`
      : `<ul>${lines.map((line) => `<li>${escapeXhtml(line)}</li>`).join('')}</ul>`;
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>` };
}

/** A fact's code as a CodeableConcept: the coding where its system is known, the text always. */
export function conceptOfFact(fact: Pick<SummaryFact, 'text' | 'code'>, text = fact.text): CodeableConcept {
  const concept: CodeableConcept = { text };
  const code = fact.code;
  if (code && code.code.trim()) {
    const system =
      SYSTEM_URLS[code.system] ??
      (/^https?:\/\//.test(code.system)
        ? code.system
        : /^[0-2](\.(0|[1-9]\d*))+$/.test(code.system)
          ? `urn:oid:${code.system}`
          : undefined);
    if (system) {
      const coding: Coding = { system, code: code.code.trim() };
      if (code.display) coding.display = code.display;
      concept.coding = [coding];
    }
  }
  return concept;
}

function absentConcept(code: string, display: string): CodeableConcept {
  return { coding: [{ system: IPS_ABSENT_UNKNOWN, code, display }], text: display };
}

function sectionCode(name: IpsSectionName): CodeableConcept {
  const s = IPS_SECTIONS[name];
  return { coding: [{ system: LOINC, code: s.code, display: s.display }] };
}

/** What a fact says in one line of narrative: its text, its dates and its details. */
function factLine(fact: SummaryFact): string {
  const parts = [fact.text];
  if (fact.status && fact.status !== 'unknown') parts.push(`(${fact.status})`);
  if (fact.certainty === 'possible') parts.push('(possible)');
  const since = fact.onset
    ? fact.end
      ? `${fact.onset} to ${fact.end}`
      : `since ${fact.onset}`
    : fact.end
      ? `until ${fact.end}`
      : null;
  if (since) parts.push(`— ${since}`);
  const details = fact.details
    ? Object.entries(fact.details).filter(([key, v]) => v && key !== 'value' && key !== 'unit')
    : [];
  if (fact.category === 'allergy' || fact.category === 'medication') {
    const text = details.map(([key, v]) => `${key}: ${v}`).join(', ');
    if (text) parts.push(`(${text})`);
  }
  return parts.join(' ');
}

/**
 * A resource read from a document fetched from a hospital or received from a clinic's link says so in
 * a note ("Source: Springfield General Hospital via MyChart, fetched 27 Nov 2026"), so the clinician
 * reading the IPS sees where the fact came from; facts from the patient's own uploads get none.
 */
function cited<T extends { note?: Annotation[] }>(resource: T, fact: SummaryFact): T {
  const from = [...new Set(fact.sources.map((source) => source.fetched_from).filter((text): text is string => Boolean(text)))];
  if (from.length === 0) return resource;
  return { ...resource, note: [...(resource.note ?? []), { text: `Source: ${from.join('; ')}` }] };
}

interface Built {
  entries: BundleEntry[];
  sections: CompositionSection[];
}

/**
 * The summary as an IPS document Bundle. The Composition (LOINC 60591-5) has the three required
 * sections (problems 11450-4, medications 10160-0, allergies 48765-2) always, and the others where
 * the summary has something (past illness, immunizations, procedures, results, vital signs, care
 * team, notes). A section a source says is empty carries the IPS's "no known ..." entry (required
 * sections) or emptyReason nilknown; a section nothing was found for carries emptyReason
 * "unavailable" and says "Not recorded".
 */
export function summaryToIpsBundle(summary: SummaryItem, patient: IpsPatient, options: IpsOptions = {}): Bundle {
  const now = options.now ?? new Date();
  const newId = options.newId ?? ((): string => `urn:uuid:${randomUUID()}`);
  const timestamp = now.toISOString();
  const patientUrl = newId();
  const deviceUrl = newId();
  const subject: Reference<Patient> = { reference: patientUrl };

  const patientResource = ipsPatient(patient, options);

  // The software that read the records and built the summary; the patient confirmed it.
  const device: Device = {
    resourceType: 'Device',
    deviceName: [{ name: 'Medfolio summary', type: 'user-friendly-name' }],
  };

  const built: Built = { entries: [], sections: [] };
  const add = (resource: Resource): Reference => {
    const fullUrl = newId();
    built.entries.push({ fullUrl, resource });
    return { reference: fullUrl };
  };

  const shown = (section: SummarySectionItem | undefined): SummaryFact[] =>
    (section?.facts ?? []).filter((f) => !f.hidden);
  const byKey = new Map(summary.sections.map((s) => [s.key, s]));
  const additional = shown(byKey.get('additional'));

  // Problems (required): the current conditions.
  requiredSection(
    built,
    'problems',
    byKey.get('current_conditions'),
    (fact) => add(cited(condition(fact, subject, 'current'), fact)),
    () =>
      add({
        resourceType: 'Condition',
        clinicalStatus: clinical('active'),
        code: absentConcept('no-known-problems', 'No known problems'),
        subject,
      } satisfies Condition),
  );
  // Medications (required).
  requiredSection(
    built,
    'medications',
    byKey.get('medications'),
    (fact) => add(cited(medicationStatement(fact, subject), fact)),
    () =>
      add({
        resourceType: 'MedicationStatement',
        status: 'active',
        medicationCodeableConcept: absentConcept('no-known-medications', 'No known medications'),
        subject,
        ...({ _effectiveDateTime: absent('not-applicable') } as object),
      } satisfies MedicationStatement),
  );
  // Allergies (required).
  requiredSection(
    built,
    'allergies',
    byKey.get('allergies'),
    (fact) => add(cited(allergy(fact, patientUrl), fact)),
    () =>
      add({
        resourceType: 'AllergyIntolerance',
        clinicalStatus: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }],
        },
        verificationStatus: {
          coding: [
            { system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', code: 'confirmed' },
          ],
        },
        code: absentConcept('no-known-allergies', 'No known allergies'),
        patient: subject,
      } satisfies AllergyIntolerance),
  );

  // Past illness: shown when the summary has past history (facts, or a source saying there is none).
  const past = byKey.get('past_history');
  // Procedures are Procedure resources wherever a summary holds them (summaries built before
  // procedures moved to Additional Categories have them in past history): never past illnesses.
  const pastFacts = shown(past).filter((f) => f.category !== 'procedure');
  const procedures = [...shown(past), ...additional].filter((f) => f.category === 'procedure');
  if (pastFacts.length > 0) {
    optionalSection(built, 'pastIllness', pastFacts, (fact) => add(cited(condition(fact, subject, 'past'), fact)));
  } else if (past?.state === 'none_known') {
    built.sections.push({
      title: IPS_SECTIONS.pastIllness.title,
      code: sectionCode('pastIllness'),
      text: narrative([past.none_known?.text ? `None known (${past.none_known.text})` : 'None known']),
      emptyReason: { coding: [{ system: LIST_EMPTY_REASON, code: 'nilknown', display: 'Nil Known' }] },
    });
  }

  const of = (category: SummaryFact['category']): SummaryFact[] => additional.filter((f) => f.category === category);
  optionalSection(built, 'immunizations', of('immunization'), (fact) => add(cited(immunization(fact, subject), fact)));
  optionalSection(built, 'procedures', procedures, (fact) => add(cited(procedure(fact, subject), fact)));
  // Health trends: the latest value of each series (with its range and flag) stands for the test; a
  // fact of the same code is then left out (it is one of the series' points).
  const series = (summary.trends ?? []).filter((t) => t.points.length > 0);
  const trendCodes = new Set(series.flatMap((t) => t.codes.map((c) => `${c.system}|${c.code}`)));
  const notInTrends = (fact: SummaryFact) => !fact.code || !trendCodes.has(`${fact.code.system}|${fact.code.code}`);
  mixedSection(
    built,
    'results',
    of('result').filter(notInTrends),
    series.filter((t) => t.category === 'result'),
    (fact) => add(cited(observation(fact, subject, 'laboratory'), fact)),
    (trend) => add(trendObservation(trend, subject, 'laboratory')),
  );
  mixedSection(
    built,
    'vitalSigns',
    of('vital').filter(notInTrends),
    series.filter((t) => t.category === 'vital'),
    (fact) => add(cited(observation(fact, subject, 'vital-signs'), fact)),
    (trend) => add(trendObservation(trend, subject, 'vital-signs')),
  );
  // Care team and notes have no IPS resource here: narrative only.
  for (const [name, category] of [
    ['careTeam', 'care_team'],
    ['notes', 'note'],
  ] as const) {
    const facts = of(category);
    if (facts.length === 0) continue;
    built.sections.push({
      title: IPS_SECTIONS[name].title,
      code: sectionCode(name),
      text: narrative(facts.map(factLine)),
    });
  }

  if (summary.status === 'unreviewed') {
    // A share link before the patient's review: no section claims anything, not even "not recorded",
    // and no fact leaves (a section has entries or an emptyReason, never both: cmp-2).
    built.entries = [];
    for (const section of built.sections) {
      delete section.entry;
      section.text = narrative(['The patient has not reviewed this summary yet.']);
      section.emptyReason = {
        coding: [{ system: LIST_EMPTY_REASON, code: 'withheld', display: 'Information Withheld' }],
      };
    }
  }

  const composition: Composition = {
    resourceType: 'Composition',
    status: summary.status === 'unreviewed' ? 'preliminary' : 'final',
    type: { coding: [{ system: LOINC, code: IPS_DOCUMENT_CODE, display: 'Patient summary Document' }] },
    subject,
    date: timestamp,
    author: [{ reference: deviceUrl, display: 'Medfolio' }],
    title: `Patient Summary as of ${timestamp.slice(0, 10)}`,
    confidentiality: 'N',
    attester:
      summary.confirmed_version !== null && summary.confirmed_version === summary.version
        ? [{ mode: 'personal', party: { reference: patientUrl } }]
        : undefined,
    section: built.sections,
  };
  if (!composition.attester) delete composition.attester;

  return {
    resourceType: 'Bundle',
    identifier: { system: 'urn:ietf:rfc:3986', value: newId() },
    type: 'document',
    timestamp,
    entry: [
      { fullUrl: newId(), resource: composition },
      { fullUrl: patientUrl, resource: patientResource },
      { fullUrl: deviceUrl, resource: device },
      ...built.entries,
    ],
  };
}

/** The IPS Patient (Patient-uv-ips): see IpsPatient for what an anonymous summary carries. */
export function ipsPatient(patient: IpsPatient, options: Pick<IpsOptions, 'identifierSystem'> = {}): Patient {
  const given = patient.anonymous ? [] : (patient.given ?? '').split(/\s+/).filter(Boolean);
  const family = patient.anonymous ? '' : (patient.family ?? '').trim();
  const named = given.length > 0 || family !== '';
  const resource: Patient = {
    resourceType: 'Patient',
    ...(patient.id && !patient.anonymous
      ? { identifier: [{ system: options.identifierSystem ?? 'urn:medfolio:patient', value: patient.id }] }
      : {}),
    name: [
      named
        ? {
            ...(family ? { family } : {}),
            ...(given.length > 0 ? { given } : {}),
            text: [...given, family].filter(Boolean).join(' '),
          }
        : { use: 'anonymous', text: ANONYMOUS_NAME },
    ],
  };
  const birthDate = patient.anonymous ? undefined : fhirDate(patient.birthDate);
  if (birthDate) resource.birthDate = birthDate;
  else (resource as Patient & { _birthDate?: unknown })._birthDate = absent(patient.anonymous ? 'masked' : 'unknown');
  return resource;
}

function requiredSection(
  built: Built,
  name: IpsSectionName,
  section: SummarySectionItem | undefined,
  entryOf: (fact: SummaryFact) => Reference,
  noneKnownEntry: () => Reference,
): void {
  const facts = (section?.facts ?? []).filter((f) => !f.hidden);
  const meta = IPS_SECTIONS[name];
  if (facts.length > 0) {
    built.sections.push({
      title: meta.title,
      code: sectionCode(name),
      text: narrative(facts.map(factLine)),
      entry: facts.map(entryOf),
    });
  } else if (section?.state === 'none_known') {
    const said = section.none_known?.text;
    built.sections.push({
      title: meta.title,
      code: sectionCode(name),
      text: narrative([said ? `None known (${said})` : 'None known']),
      entry: [noneKnownEntry()],
    });
  } else {
    built.sections.push({
      title: meta.title,
      code: sectionCode(name),
      text: narrative(['Not recorded']),
      emptyReason: { coding: [{ system: LIST_EMPTY_REASON, code: 'unavailable', display: 'Unavailable' }] },
    });
  }
}

function optionalSection(
  built: Built,
  name: IpsSectionName,
  facts: SummaryFact[],
  entryOf: (fact: SummaryFact) => Reference,
): void {
  if (facts.length === 0) return;
  const meta = IPS_SECTIONS[name];
  built.sections.push({
    title: meta.title,
    code: sectionCode(name),
    text: narrative(facts.map(factLine)),
    entry: facts.map(entryOf),
  });
}

/** A section of facts and health trends' latest values (none of either: no section). */
function mixedSection(
  built: Built,
  name: IpsSectionName,
  facts: SummaryFact[],
  series: TrendSeries[],
  factEntry: (fact: SummaryFact) => Reference,
  seriesEntry: (series: TrendSeries) => Reference,
): void {
  if (facts.length === 0 && series.length === 0) return;
  const meta = IPS_SECTIONS[name];
  built.sections.push({
    title: meta.title,
    code: sectionCode(name),
    text: narrative([...facts.map(factLine), ...series.map(trendLine)]),
    entry: [...facts.map(factEntry), ...series.map(seriesEntry)],
  });
}

/** A series' latest point: the last dated one (points come oldest first, undated last), else the last. */
export function latestPoint(series: TrendSeries): TrendPoint | undefined {
  return [...series.points].reverse().find((p) => p.date !== null) ?? series.points[series.points.length - 1];
}

function trendLine(series: TrendSeries): string {
  const p = latestPoint(series);
  if (!p) return series.name;
  const range = p.range ? rangeText(p.range) : '';
  return [
    `${series.name} ${p.value}${series.unit ? ` ${series.unit}` : ''}`,
    p.flag && p.flag !== 'normal' ? `(${p.flag})` : '',
    range ? `(reference ${range})` : '',
    p.date ? `— ${p.date}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** A reference range as text: its low and high, else as the source wrote it. */
export function rangeText(range: NonNullable<TrendPoint['range']>): string {
  if (range.low !== null && range.high !== null) return `${range.low}–${range.high}`;
  if (range.low !== null) return `≥ ${range.low}`;
  if (range.high !== null) return `≤ ${range.high}`;
  return range.text ?? '';
}

const INTERPRETATION_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const FLAG_CODES: Record<NonNullable<TrendPoint['flag']>, { code: string; display: string }> = {
  low: { code: 'L', display: 'Low' },
  high: { code: 'H', display: 'High' },
  abnormal: { code: 'A', display: 'Abnormal' },
  normal: { code: 'N', display: 'Normal' },
};

/**
 * A series' latest value as an Observation (the IPS laboratory results profile for results, R4's
 * vital signs for vitals): the series' codes, valueQuantity in the series' unit with its UCUM
 * system and code, the reference range in the same unit, and the flag as an HL7 interpretation.
 */
function trendObservation(series: TrendSeries, subject: Reference<Patient>, category: 'laboratory' | 'vital-signs'): Observation {
  const p = latestPoint(series) as TrendPoint;
  const coding: Coding[] = series.codes.flatMap((c) => {
    const concept = conceptOfFact({ text: series.name, code: c });
    return concept.coding ?? [];
  });
  const code: CodeableConcept = { text: series.name, ...(coding.length ? { coding } : {}) };
  const unitQuantity = (value: number): Quantity => {
    const q: Quantity = { value };
    if (series.unit) q.unit = series.unit;
    if (series.ucum) {
      q.system = UCUM_SYSTEM;
      q.code = series.ucum;
    }
    return q;
  };
  const resource: Observation = {
    resourceType: 'Observation',
    status: 'final',
    category: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/observation-category',
            code: category,
            display: category === 'laboratory' ? 'Laboratory' : 'Vital Signs',
          },
        ],
      },
    ],
    code,
    subject,
  };
  const when = fhirDate(p.date);
  if (when) resource.effectiveDateTime = when;
  else (resource as Observation & { _effectiveDateTime?: unknown })._effectiveDateTime = absent();
  if (category === 'laboratory') resource.performer = [absent()];
  // R4's vital signs take a Quantity only with a UCUM unit; another unit stays as text.
  if (category === 'laboratory' || series.ucum) resource.valueQuantity = unitQuantity(p.value);
  else resource.valueString = series.unit ? `${p.value} ${series.unit}` : String(p.value);
  if (p.range && (p.range.low !== null || p.range.high !== null || p.range.text)) {
    const range: NonNullable<Observation['referenceRange']>[number] = {};
    if (p.range.low !== null) range.low = unitQuantity(p.range.low);
    if (p.range.high !== null) range.high = unitQuantity(p.range.high);
    if (p.range.text) range.text = p.range.text;
    resource.referenceRange = [range];
  }
  if (p.flag) {
    const f = FLAG_CODES[p.flag];
    resource.interpretation = [{ coding: [{ system: INTERPRETATION_SYSTEM, code: f.code, display: f.display }], ...(p.interpretation ? { text: p.interpretation } : {}) }];
  } else if (p.interpretation) resource.interpretation = [{ text: p.interpretation }];
  return resource;
}

function clinical(code: 'active' | 'inactive' | 'resolved'): CodeableConcept {
  return { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code }] };
}

function condition(fact: SummaryFact, subject: Reference<Patient>, when: 'current' | 'past'): Condition {
  const onset = fhirDate(fact.onset);
  const end = fhirDate(fact.end);
  // An abatement date is only allowed on an inactive or resolved condition (con-4).
  const status: 'active' | 'inactive' | 'resolved' =
    fact.status === 'resolved' || (end && fact.status !== 'active')
      ? 'resolved'
      : fact.status === 'active' || when === 'current'
        ? 'active'
        : 'inactive';
  const resource: Condition = {
    resourceType: 'Condition',
    clinicalStatus: clinical(status),
    verificationStatus: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status',
          code: fact.certainty === 'possible' ? 'provisional' : 'confirmed',
        },
      ],
    },
    category: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/condition-category',
            code: 'problem-list-item',
            display: 'Problem List Item',
          },
        ],
      },
    ],
    code: conceptOfFact(fact),
    subject,
  };
  if (onset) resource.onsetDateTime = onset;
  if (end && status !== 'active') resource.abatementDateTime = end;
  return resource;
}

function medicationStatement(fact: SummaryFact, subject: Reference<Patient>): MedicationStatement {
  const onset = fhirDate(fact.onset);
  const end = fhirDate(fact.end);
  const status: MedicationStatement['status'] =
    fact.status === 'active'
      ? 'active'
      : fact.status === 'stopped'
        ? 'stopped'
        : fact.status === 'resolved'
          ? 'completed'
          : 'unknown';
  const resource: MedicationStatement = {
    resourceType: 'MedicationStatement',
    status,
    medicationCodeableConcept: conceptOfFact(fact),
    subject,
  };
  if (onset && end) resource.effectivePeriod = { start: onset, end };
  else if (onset) resource.effectivePeriod = { start: onset };
  else if (end) resource.effectivePeriod = { end };
  else (resource as MedicationStatement & { _effectiveDateTime?: unknown })._effectiveDateTime = absent();
  const d = fact.details ?? {};
  const dosage = [d['dose'], d['route'], d['frequency']].filter(Boolean).join(', ');
  if (dosage) resource.dosage = [{ text: dosage }];
  return resource;
}

const SEVERITY: Record<string, 'mild' | 'moderate' | 'severe'> = {
  mild: 'mild',
  moderate: 'moderate',
  severe: 'severe',
};

function allergy(fact: SummaryFact, patientUrl: string): AllergyIntolerance {
  const resolved = fact.status === 'resolved' || fact.status === 'stopped';
  const resource: AllergyIntolerance = {
    resourceType: 'AllergyIntolerance',
    clinicalStatus: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
          code: resolved ? 'resolved' : 'active',
        },
      ],
    },
    verificationStatus: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
          code: fact.certainty === 'possible' ? 'unconfirmed' : 'confirmed',
        },
      ],
    },
    code: conceptOfFact(fact),
    patient: { reference: patientUrl },
  };
  const onset = fhirDate(fact.onset);
  if (onset) resource.onsetDateTime = onset;
  const reaction = fact.details?.['reaction'];
  const severity = SEVERITY[(fact.details?.['severity'] ?? '').trim().toLowerCase()];
  if (reaction) resource.reaction = [{ manifestation: [{ text: reaction }], ...(severity ? { severity } : {}) }];
  return resource;
}

function immunization(fact: SummaryFact, patient: Reference<Patient>): Immunization {
  const when = fhirDate(fact.onset);
  const resource: Immunization = {
    resourceType: 'Immunization',
    status: 'completed',
    vaccineCode: conceptOfFact(fact),
    patient,
  };
  if (when) resource.occurrenceDateTime = when;
  else (resource as Immunization & { _occurrenceDateTime?: unknown })._occurrenceDateTime = absent();
  return resource;
}

function procedure(fact: SummaryFact, subject: Reference<Patient>): Procedure {
  const when = fhirDate(fact.onset);
  const resource: Procedure = { resourceType: 'Procedure', status: 'completed', code: conceptOfFact(fact), subject };
  if (when) resource.performedDateTime = when;
  else (resource as Procedure & { _performedDateTime?: unknown })._performedDateTime = absent();
  return resource;
}

const NUMBER = /^([<>]=?)?\s*([-+]?\d+(\.\d+)?)$/;

/** A value and unit as a Quantity: UCUM system and code where the unit is UCUM (./ucum.ts), else the unit text only. */
export function quantity(value: string, unit: string | null | undefined): Quantity | null {
  const match = NUMBER.exec(value.trim());
  if (!match) return null;
  const q: Quantity = { value: Number(match[2]) };
  if (match[1]) q.comparator = match[1] as Quantity['comparator'];
  const text = unit?.trim();
  if (text) {
    q.unit = text;
    const code = ucumCode(text);
    if (code) {
      q.system = UCUM_SYSTEM;
      q.code = code;
    }
  }
  return q;
}

/**
 * The vital signs R4 profiles (http://hl7.org/fhir/R4/observation-vitalsigns.html) by the name a
 * record gives them, for a vital sign that came without a code: the LOINC code the profile fixes.
 */
const VITAL_CODES: { match: RegExp; code: string; display: string }[] = [
  { match: /\b(blood pressure|bp)\b/i, code: '85354-9', display: 'Blood pressure panel with all children optional' },
  { match: /\b(respiratory rate|respirations?|resp\.? rate|rr)\b/i, code: '9279-1', display: 'Respiratory rate' },
  {
    match: /\b(oxygen saturation|o2 sat|spo2|sao2|pulse ox)/i,
    code: '2708-6',
    display: 'Oxygen saturation in Arterial blood',
  },
  { match: /\b(heart rate|pulse|hr)\b/i, code: '8867-4', display: 'Heart rate' },
  { match: /\b(temperature|temp)\b/i, code: '8310-5', display: 'Body temperature' },
  { match: /\bhead circumference\b/i, code: '9843-4', display: 'Head Occipital-frontal circumference' },
  { match: /\b(bmi|body mass index)\b/i, code: '39156-5', display: 'Body mass index (BMI) [Ratio]' },
  { match: /\b(height|length)\b/i, code: '8302-2', display: 'Body height' },
  { match: /\bweight\b/i, code: '29463-7', display: 'Body weight' },
];
const BP = '85354-9';

function vitalCode(name: string): Coding | undefined {
  const known = VITAL_CODES.find((v) => v.match.test(name));
  return known ? { system: LOINC, code: known.code, display: known.display } : undefined;
}

/**
 * A result or vital sign as an Observation. Results meet the IPS laboratory results profile
 * (Observation-results-laboratory-pathology-uv-ips): the model keeps no performing laboratory or
 * author, so performer is a Reference with data-absent-reason "unknown", as the profile permits.
 * Vital signs meet R4's vital-sign profiles: a vital sign without a code gets the LOINC code of its
 * kind by name (heart rate 8867-4, ...); a blood pressure "120/80" is the panel 85354-9 with systolic
 * (8480-6) and diastolic (8462-4) components. Values are Quantities with UCUM units where the unit
 * is UCUM (bpm as /min, mmHg as mm[Hg], °F as [degF]...); otherwise a result keeps the unit as the
 * Quantity's text (no system or code) and a vital sign becomes a string ("180 stone"), without the
 * inferred LOINC code, since the vital-sign profiles take a Quantity in UCUM only.
 */
function observation(
  fact: SummaryFact,
  subject: Reference<Patient>,
  category: 'laboratory' | 'vital-signs',
): Observation {
  const value = fact.details?.['value']?.trim();
  const unit = fact.details?.['unit']?.trim();
  // The test's name is the text before its value ("Hemoglobin A1c 6.1 % (high)" -> "Hemoglobin A1c").
  const name = value
    ? fact.text
        .split(value)[0]
        ?.replace(/[\s:=,-]+$/, '')
        .trim()
    : '';
  const code = conceptOfFact(fact, name || fact.text);
  const q = value ? quantity(value, unit) : null;
  const pressure = value ? /^(\d{2,3})\s*\/\s*(\d{2,3})$/.exec(value) : null;
  if (category === 'vital-signs' && !code.coding?.length) {
    // Only a value the vital-sign profiles take: a UCUM quantity, or a blood pressure in mmHg.
    const coding = vitalCode(name || fact.text);
    const bpShape = coding?.code === BP && pressure && (!unit || ucumCode(unit) === 'mm[Hg]');
    if (coding && (bpShape || (coding.code !== BP && q?.system))) code.coding = [coding];
  }
  const resource: Observation = {
    resourceType: 'Observation',
    status: 'final',
    category: [
      {
        coding: [
          {
            system: 'http://terminology.hl7.org/CodeSystem/observation-category',
            code: category,
            display: category === 'laboratory' ? 'Laboratory' : 'Vital Signs',
          },
        ],
      },
    ],
    code,
    subject,
  };
  const when = fhirDate(fact.onset);
  if (when) resource.effectiveDateTime = when;
  else (resource as Observation & { _effectiveDateTime?: unknown })._effectiveDateTime = absent();
  if (category === 'laboratory') resource.performer = [absent()];
  const isBp = code.coding?.some((c) => c.system === LOINC && c.code === BP);
  if (category === 'vital-signs' && isBp && pressure && (!unit || ucumCode(unit) === 'mm[Hg]')) {
    const mmHg = (v: string): Quantity => ({
      value: Number(v),
      unit: unit || 'mmHg',
      system: UCUM_SYSTEM,
      code: 'mm[Hg]',
    });
    resource.component = [
      {
        code: { coding: [{ system: LOINC, code: '8480-6', display: 'Systolic blood pressure' }] },
        valueQuantity: mmHg(pressure[1] ?? ''),
      },
      {
        code: { coding: [{ system: LOINC, code: '8462-4', display: 'Diastolic blood pressure' }] },
        valueQuantity: mmHg(pressure[2] ?? ''),
      },
    ];
  } else {
    // R4's vital signs take a Quantity only with a UCUM unit; another unit stays as text.
    if (q && (category === 'laboratory' || q.system)) resource.valueQuantity = q;
    else if (value) resource.valueString = unit ? `${value} ${unit}` : value;
    else resource.valueString = fact.text;
  }
  const interpretation = fact.details?.['interpretation'];
  if (interpretation) resource.interpretation = [{ text: interpretation }];
  return resource;
}
