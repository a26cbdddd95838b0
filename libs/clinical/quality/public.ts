// The public corpus (quality/public, see its manifest.json): real-world-shaped documents from public
// sources (HL7's C-CDA examples and HL7 IPS examples; see manifest.json's allow-list), each kept as
// the original and, for C-CDA, as the PDF a patient portal prints. Every file is read ON ITS OWN
// through the product's extraction, local reading, merging and summary, and scored per mode:
//
//   pdf   the printed C-CDA (CDA.xsl + Chromium, make-pdfs.mjs)
//   xml   the C-CDA itself
//   fhir  a FHIR document Bundle (IPS)
//
// Recall counts a fact only in the section where it belongs: a medicine in Medications, a problem in
// Current Medical Conditions or Past Medical History, an allergy in Allergies. A truth entry found in
// another section is a miss (and reported as misfiled). "Junk" is a shown fact of those four sections
// that matches no truth entry of the document and looks like what is not a clinical fact at all (see
// junkReason): a table heading or column name, an address or phone number, a person's name, or only
// dates, numbers and codes. Facts of Additional Categories (results, procedures, vitals...) are not
// counted: the truth files do not list them.
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { ClinicalFact, SectionKey, SummaryEngine } from '../src/model';
import { LocalEngine } from '../src/summarize/local-engine';
import { mergeFacts } from '../src/summarize/merge';
import { buildSummary } from '../src/summarize/render';
import { normaliseKey } from '../src/summarize/text';
import {
  caseNames,
  keysMatch,
  matchKey,
  readExpected,
  type ExpectedCase,
  type ExpectedItem,
  type Extractor,
} from './run';

export const MODES = ['pdf', 'xml', 'fhir'] as const;
export type Mode = (typeof MODES)[number];

export const GROUPS = ['medications', 'problems', 'allergies'] as const;
export type Group = (typeof GROUPS)[number];

/** Where a group's facts belong. */
const HOME: Record<Group, SectionKey[]> = {
  medications: ['medications'],
  problems: ['current_conditions', 'past_history'],
  allergies: ['allergies'],
};
const CLINICAL: SectionKey[] = ['current_conditions', 'past_history', 'medications', 'allergies'];

/** A truth entry of the public corpus: the run's ExpectedItem, with other names and the modes it is visible in. */
export interface PublicTruthItem extends ExpectedItem {
  /** Other names that are the same fact ("albuterol" for "Proventil"). */
  aka?: string[];
  /** Only these modes show it (a vendor's printed table that leaves the drug name out: ["xml"]). */
  modes?: Mode[];
}

export interface Tally {
  found: number;
  total: number;
}

export interface PublicCaseResult {
  name: string;
  mode: Mode;
  file: string;
  recall: Record<Group, Tally>;
  /** Problems found in the very section the truth gives (current or past). */
  problemsRightSection: Tally;
  /** Facts shown in the four clinical sections, and those of them that are junk. */
  facts: number;
  junk: string[];
  /** Facts matching no truth entry that are not junk either (a wrong or unlisted fact). */
  unmatched: string[];
  missed: string[];
  milliseconds: number;
}

export interface PublicModeTotals {
  documents: number;
  recall: Record<Group, Tally>;
  problemsRightSection: Tally;
  facts: number;
  junk: number;
  unmatched: number;
}

export interface PublicReport {
  cases: PublicCaseResult[];
  totals: Record<Mode, PublicModeTotals>;
  skipped: string[];
}

export function modeOf(filename: string): Mode | null {
  switch (extname(filename).toLowerCase()) {
    case '.pdf':
      return 'pdf';
    case '.xml':
      return 'xml';
    case '.json':
      return 'fhir';
    default:
      return null;
  }
}

// ---- junk ----------------------------------------------------------------------------------------

/**
 * Words of table headings, column names and section titles as EHRs print them. A fact made only of
 * these (and joining words) is a heading, not a fact: "Problem Description Problem StartDate Status",
 * "Code Description Encounters Group Susceptible", "Advance Directives", "Encounters", "Insurance".
 */
const HEADING_WORDS = new Set(
  `active inactive status statuses problem problems description descriptions date dates start startdate end enddate stop
  onset resolved resolution code codes system codesystem name names condition conditions diagnosis diagnoses medication
  medications med meds drug drugs allergy allergies allergen allergens substance substances reaction reactions severity
  type types encounter encounters location locations performer performers provider providers service directions
  instructions instruction dose doses dosage route routes frequency comment comments indication indications fill
  quantity refills refill effective group susceptible advance directive directives insurance payer payers payers vital
  vitals sign signs result results procedure procedures immunization immunizations vaccine vaccines social history
  family plan plans care treatment functional cognitive mental goal goals health concern concerns intervention
  interventions outcome outcomes medical equipment device devices implant implanted section summary document patient
  information reason referral visit admission admitting discharge hospital course chief complaint present illness past
  surgical review systems physical exam examination assessment value values unit units interpretation reference range
  ranges test tests ordered observation observations clinical verified verification last updated brand ordering
  physician chronicity rxnorm snomed snomedct ct icd loinc cpt time author recorded source note notes other list
  current prescribed priority criticality category categories details detail entry entries id identifier prn sig
  generic strength form product material taken administered administration order orders item items number age
  relationship member members report reports dictated by performing site facility organization contact contacts
  telephone phone address city state zip country gender sex birth dob race ethnicity language marital religion
  authored provenance custodian legal authenticator documentation attender attending consultant disposition
  ids local title unresolved udi response icd10 icd9 prognosis dispense begin created caregiver impressions findings
  during entire provision preferred en clinic ward file of and the of to in for with or on at a an s`.split(/\s+/),
);

const MONTHS = /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b/gi;
const US_STATE_ZIP = /\b[A-Z]{2},?\s+\d{5}(-\d{4})?\b/;
const STREET =
  /\b\d+\s+([A-Z][a-z]+\s+){1,3}(street|st|avenue|ave|road|rd|boulevard|blvd|drive|dr|lane|ln|way|court|ct|circle|place|pl|parkway|pkwy|highway|hwy)\b\.?/i;
const PHONE = /(\+?\d{1,2}[\s.-])?\(?\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b/;
const CREDENTIAL = /(^|[\s,])(MD|M\.D\.|DO|RN|NP|PA-C|PhD|DDS|FNP|Dr\.?)(?=$|[\s,])/;
/** "Lastname, Firstname" (optionally with a middle initial or a credential): how EHRs print people. */
const LAST_FIRST = /^[A-Z][A-Za-z'-]+(\s+[A-Z]{1,3})?,\s*[A-Z][a-z]+(\s+[A-Z]\.?)?$/;

/** Names and address parts the document itself records (patient, authors, providers, organisations). */
export interface DocumentPeople {
  names: Set<string>;
  places: Set<string>;
}

/** Reads them from a C-CDA (XML) or FHIR (JSON) source; for a PDF, pass its C-CDA. */
export function documentPeople(source: string): DocumentPeople {
  const names = new Set<string>();
  const places = new Set<string>();
  const add = (set: Set<string>, value: unknown): void => {
    if (typeof value !== 'string') return;
    const key = normaliseKey(value);
    // Short parts ("MA", "J") and numbers alone are too common to mean anything.
    if (key.length >= 3 && /[a-z]/.test(key)) set.add(key);
    else if (/^\d{4,}/.test(key)) set.add(key);
  };
  if (source.trimStart().startsWith('<')) {
    for (const m of source.matchAll(/<(?:\w+:)?(family|given)\b[^>]*>([^<]+)</g)) add(names, m[2]);
    for (const m of source.matchAll(/<(?:\w+:)?(streetAddressLine|city|postalCode)\b[^>]*>([^<]+)</g))
      add(places, m[2]);
  } else {
    const walk = (node: unknown, key?: string): void => {
      if (Array.isArray(node)) node.forEach((n) => walk(n, key));
      else if (node && typeof node === 'object')
        for (const [k, v] of Object.entries(node as Record<string, unknown>)) walk(v, k);
      else if (key === 'family' || key === 'given') add(names, node);
      else if (key === 'city' || key === 'line' || key === 'postalCode') add(places, node);
    };
    try {
      walk(JSON.parse(source));
    } catch {
      /* not JSON: no people known */
    }
  }
  return { names, places };
}

/**
 * Why a fact that matches no truth entry is junk, or null when it could be a (wrong or unlisted) fact:
 * - "address": a US state and ZIP ("OR 97005"), a street address or a phone number;
 * - "no words": nothing left once dates, month names, numbers and code-system names are taken out;
 * - "heading": every word is a heading/column word (HEADING_WORDS), a number or an identifier;
 * - "address" too: an address part (street line, city, postal code) the document records ("Portland");
 * - "person": "Lastname, Firstname", a credential (MD, RN, Dr...), or only names the document records
 *   for people (patient, authors, providers: "Henry Seven").
 */
export function junkReason(
  text: string,
  people: DocumentPeople = { names: new Set(), places: new Set() },
): string | null {
  const key = normaliseKey(text);
  const words = key.split(' ').filter(Boolean);
  if (words.length === 0) return 'no words';
  if (US_STATE_ZIP.test(text) || STREET.test(text) || PHONE.test(text)) return 'address';
  const rest = key
    .replace(MONTHS, ' ')
    .replace(/\b(snomed|sct|ct|icd|cm|loinc|rxnorm|cpt|code)\b/g, ' ')
    .replace(/\b[a-z]?\d[\d.:/-]*[a-z]{0,3}\b/g, ' ')
    .trim();
  if (!/[a-z]{3,}/.test(rest)) return 'no words';
  // Numbers and identifiers ("9984e08c") do not make a heading a fact: "Problem #1", "Document ID 9984e08c".
  if (words.every((w) => HEADING_WORDS.has(w) || /^\d+$/.test(w) || /^(?=[a-f]*\d)[0-9a-f]{3,}$/.test(w)))
    return 'heading';
  if ([...people.places].some((p) => key === p || (p.includes(' ') && ` ${key} `.includes(` ${p} `)))) return 'address';
  if (LAST_FIRST.test(text.trim()) || CREDENTIAL.test(text)) return 'person';
  // Every word a recorded name (or a heading word: "Author Henry Seven"), not merely one ("Stress test").
  const named = words.filter((w) => !HEADING_WORDS.has(w));
  if (named.length > 0 && named.every((w) => people.names.has(w))) return 'person';
  return null;
}

// ---- scoring -------------------------------------------------------------------------------------

const truthItem = (e: string | PublicTruthItem): PublicTruthItem => (typeof e === 'string' ? { text: e } : e);

function matches(section: SectionKey, want: PublicTruthItem, fact: ClinicalFact): boolean {
  const produced = matchKey(section, fact.text, fact.category);
  return [want.text, ...(want.aka ?? [])].some((name) => {
    const key = matchKey(section, name);
    return key.length > 0 && keysMatch(key, produced);
  });
}

/**
 * The same fact named loosely. Strict: every word (of 3 letters or more) of the name or of one of its
 * other names is in the fact (for saying where a missed fact was misfiled). Loose: for a name of one
 * or two such words, any of them (for deciding that a fact is a real one shown wrongly, not junk).
 */
function looselyMatches(want: PublicTruthItem, fact: ClinicalFact, strict = false): boolean {
  const have = new Set(normaliseKey(fact.text).split(' '));
  return [want.text, ...(want.aka ?? [])].some((name) => {
    const words = normaliseKey(name)
      .split(' ')
      .filter((w) => w.length > 2);
    return (
      words.length > 0 &&
      words.some((w) => have.has(w)) &&
      (words.every((w) => have.has(w)) || (!strict && words.length <= 2))
    );
  });
}

export function scorePublicCase(
  name: string,
  mode: Mode,
  file: string,
  expected: ExpectedCase,
  sections: { key: SectionKey; facts: ClinicalFact[] }[],
  people: DocumentPeople,
  milliseconds = 0,
): PublicCaseResult {
  const bySection = new Map(sections.map((s) => [s.key, s.facts]));
  const used = new Set<ClinicalFact>();
  const result: PublicCaseResult = {
    name,
    mode,
    file,
    recall: {
      medications: { found: 0, total: 0 },
      problems: { found: 0, total: 0 },
      allergies: { found: 0, total: 0 },
    },
    problemsRightSection: { found: 0, total: 0 },
    facts: CLINICAL.reduce((n, k) => n + (bySection.get(k)?.length ?? 0), 0),
    junk: [],
    unmatched: [],
    missed: [],
    milliseconds,
  };
  const truth: { group: Group; listed: SectionKey; item: PublicTruthItem }[] = [];
  for (const listed of CLINICAL) {
    const group: Group = listed === 'medications' ? 'medications' : listed === 'allergies' ? 'allergies' : 'problems';
    for (const e of expected.expected[listed] ?? []) {
      const item = truthItem(e as string | PublicTruthItem);
      if (item.modes && !item.modes.includes(mode)) continue;
      truth.push({ group, listed, item });
    }
  }
  for (const { group, listed, item } of truth) {
    result.recall[group].total++;
    if (group === 'problems') result.problemsRightSection.total++;
    // Prefer the section the truth gives, then the group's other home section.
    const homes = [listed, ...HOME[group].filter((k) => k !== listed)];
    let hit: { section: SectionKey; fact: ClinicalFact } | undefined;
    for (const section of homes) {
      const fact = (bySection.get(section) ?? []).find((f) => !used.has(f) && matches(section, item, f));
      if (fact) {
        hit = { section, fact };
        break;
      }
    }
    if (hit) {
      used.add(hit.fact);
      result.recall[group].found++;
      if (group === 'problems' && hit.section === listed) result.problemsRightSection.found++;
      continue;
    }
    const elsewhere = sections
      .filter((s) => !HOME[group].includes(s.key))
      .flatMap((s) => s.facts.map((fact) => ({ section: s.key, fact })))
      .find(({ section, fact }) => matches(section, item, fact) || looselyMatches(item, fact, true));
    result.missed.push(
      `${group}: ${item.text}${elsewhere ? ` (misfiled under ${elsewhere.section} as "${elsewhere.fact.text}")` : ''}`,
    );
  }
  for (const section of CLINICAL) {
    for (const fact of bySection.get(section) ?? []) {
      if (used.has(fact)) continue;
      // A real fact shown twice or in the wrong section is a wrong fact, not junk.
      if (truth.some(({ item }) => looselyMatches(item, fact))) {
        result.unmatched.push(`${section}: ${fact.text}`);
        continue;
      }
      const reason = junkReason(fact.text, people);
      if (reason) result.junk.push(`${section}: ${fact.text} (${reason})`);
      else result.unmatched.push(`${section}: ${fact.text}`);
    }
  }
  return result;
}

export interface PublicOptions {
  engine?: SummaryEngine;
  extract: Extractor;
  modes?: readonly Mode[];
  /** Only these cases (folder names). */
  cases?: string[];
  uploadedAt?: string;
}

export async function runPublicCorpus(dir: string, options: PublicOptions): Promise<PublicReport> {
  const engine = options.engine ?? new LocalEngine();
  const modes = options.modes ?? MODES;
  const uploadedAt = options.uploadedAt ?? '2025-01-01T00:00:00.000Z';
  const cases: PublicCaseResult[] = [];
  const skipped: string[] = [];
  for (const name of await caseNames(dir, options.cases)) {
    const expected = await readExpected(dir, name, skipped);
    if (!expected) continue;
    const files = (await readdir(join(dir, name))).filter((f) => f !== 'expected.json' && !f.startsWith('.')).sort();
    // The people and places of the document, from its structured original (the PDF's C-CDA).
    const original = files.find((f) => modeOf(f) === 'xml' || modeOf(f) === 'fhir');
    const people = original ? documentPeople(await readFile(join(dir, name, original), 'utf8')) : documentPeople('');
    for (const file of files) {
      const mode = modeOf(file);
      if (!mode) {
        skipped.push(`skipped ${name}/${file}: not a .pdf, .xml or .json`);
        continue;
      }
      if (!modes.includes(mode)) continue;
      const path = join(dir, name, file);
      const started = performance.now();
      const extracted = await options.extract({ path, filename: file, bytes: await readFile(path) }, `${name}/${file}`);
      const read = await engine.read([{ ...extracted, uploadedAt }]);
      const merged = mergeFacts(read.facts, read.noneKnown);
      const summary = buildSummary(merged.facts, merged.noneKnown, read.droppedUnsupported);
      cases.push(scorePublicCase(name, mode, file, expected, summary.sections, people, performance.now() - started));
    }
  }
  const totals = Object.fromEntries(
    MODES.map((mode) => {
      const own = cases.filter((c) => c.mode === mode);
      const sum = (pick: (c: PublicCaseResult) => Tally): Tally =>
        own.reduce((a, c) => ({ found: a.found + pick(c).found, total: a.total + pick(c).total }), {
          found: 0,
          total: 0,
        });
      return [
        mode,
        {
          documents: own.length,
          recall: Object.fromEntries(GROUPS.map((g) => [g, sum((c) => c.recall[g])])) as Record<Group, Tally>,
          problemsRightSection: sum((c) => c.problemsRightSection),
          facts: own.reduce((n, c) => n + c.facts, 0),
          junk: own.reduce((n, c) => n + c.junk.length, 0),
          unmatched: own.reduce((n, c) => n + c.unmatched.length, 0),
        },
      ];
    }),
  ) as Record<Mode, PublicModeTotals>;
  return { cases, totals, skipped };
}

// ---- goals --------------------------------------------------------------------------------------

/** The least recall per group and the most junk (share of the facts shown) each mode must reach. */
export interface Goal {
  recall: Record<Group, number>;
  junk: number;
}

/**
 * The summary's goals: a printed record (PDF) at least 0.90 of its medications, 0.85 of its problems and
 * 0.90 of its allergies, each in the right section, and at most 2 % junk; a structured record (C-CDA
 * XML, FHIR) at least 0.97 of each, and no junk at all.
 */
export const GOALS: Record<Mode, Goal> = {
  pdf: { recall: { medications: 0.9, problems: 0.85, allergies: 0.9 }, junk: 0.02 },
  xml: { recall: { medications: 0.97, problems: 0.97, allergies: 0.97 }, junk: 0 },
  fhir: { recall: { medications: 0.97, problems: 0.97, allergies: 0.97 }, junk: 0 },
};

/** Each goal a mode misses, in words ("pdf problems 0.83 (35/42) < 0.85"); none for a mode without documents. */
export function belowGoals(report: PublicReport, goals: Record<Mode, Goal> = GOALS): string[] {
  const missed: string[] = [];
  for (const mode of MODES) {
    const t = report.totals[mode];
    if (!t.documents) continue;
    for (const group of GROUPS) {
      const tally = t.recall[group];
      if (tally.total && tally.found / tally.total < goals[mode].recall[group])
        missed.push(`${mode} ${group} ${ratio(tally)} < ${goals[mode].recall[group].toFixed(2)}`);
    }
    if (t.facts && t.junk / t.facts > goals[mode].junk)
      missed.push(`${mode} junk ${share(t.junk, t.facts)} > ${(goals[mode].junk * 100).toFixed(0)} %`);
  }
  return missed;
}

const ratio = (t: Tally): string => (t.total ? `${(t.found / t.total).toFixed(2)} (${t.found}/${t.total})` : '–');
const share = (n: number, of: number): string => (of ? `${((n / of) * 100).toFixed(0)} % (${n} of ${of})` : '–');

/** The per-mode Markdown table (what the README shows). */
export function formatPublicTable(report: PublicReport): string {
  const rows = [
    '| upload | documents | medications | problems | problems, current/past right | allergies | facts that are junk | other unmatched facts |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const mode of MODES) {
    const t = report.totals[mode];
    if (!t.documents) continue;
    rows.push(
      `| ${mode} | ${t.documents} | ${ratio(t.recall.medications)} | ${ratio(t.recall.problems)} | ${ratio(t.problemsRightSection)} | ${ratio(t.recall.allergies)} | ${share(t.junk, t.facts)} | ${share(t.unmatched, t.facts)} |`,
    );
  }
  return rows.join('\n');
}

/** Per document and mode: recall counts, misses and junk (public, fictional records: safe to print). */
export function formatPublicDetails(report: PublicReport, all = false): string {
  const lines: string[] = [];
  for (const c of report.cases) {
    const r = c.recall;
    lines.push(
      `\n${c.name}/${c.file} [${c.mode}] ${c.milliseconds.toFixed(0)} ms: medications ${r.medications.found}/${r.medications.total}, problems ${r.problems.found}/${r.problems.total}, allergies ${r.allergies.found}/${r.allergies.total}, junk ${c.junk.length} of ${c.facts}`,
    );
    for (const m of c.missed) lines.push(`  missed  ${m}`);
    for (const j of c.junk) lines.push(`  junk    ${j}`);
    if (all) for (const u of c.unmatched) lines.push(`  other   ${u}`);
  }
  return lines.join('\n');
}
