// Merging what several documents say into one list: each fact once, with all its sources, and
// the newer statement winning where documents disagree. The rules, in README order:
//  1. Two facts are the same when they are in the same family (conditions, whether current or past;
//     medications; allergies; each other category) and share a key: the same code, or the same
//     normalised name (case, punctuation, the vocabulary's abbreviations and synonyms; for drugs the
//     generic name without salt, form or dose, brand names mapped to it). Never when their codes say
//     they differ: a condition, allergy, immunization or procedure coded in one system by two
//     different codes (an ICD-10 code and its own subcode excepted) stays two facts, whatever their
//     names share, and nothing joins the two through a third.
//  2. The merged fact cites every source of every member, each document page once.
//  3. Its status and section come from the newest member that states a status (active, resolved,
//     stopped). A bare mention ("PMH: HTN", "history of ...") does not demote an active problem;
//     only an explicit "resolved" does. Same date: stopped/resolved beats active (a discharge
//     summary's STOP list beats its admission list).
//  4. Results and vitals: the newest value is the fact; older readings of the same test are
//     superseded and their sources not cited (they said something else).
//  5. "None known" per section: the newest statement is kept with all the statements' sources;
//     whether it is shown is decided in buildSummary (facts recorded as late or later override it;
//     an older fact is never erased by a newer "none known": both are shown).
import type { ClinicalFact, FactStatus, NoneKnown, SectionKey, SourceRef } from '../model';
import { readableLabName } from '../extract/codes';
import { conditionKey, drugKey, parseAllergy, parseMedication } from './parsers';
import { dateKey, normaliseKey } from './text';
import { LAB_TESTS, NARROWER } from './vocabulary';

function family(fact: ClinicalFact): string {
  return fact.category === 'condition' ? 'condition' : fact.category;
}

// nameKey parses the fact's text (for drugs, the whole sig): once per fact is enough.
const KEYS = new WeakMap<ClinicalFact, string>();

/** The name two documents must share for their facts to be one. */
export function nameKey(fact: ClinicalFact): string {
  const known = KEYS.get(fact);
  if (known !== undefined) return known;
  const key = computeNameKey(fact);
  KEYS.set(fact, key);
  return key;
}

function computeNameKey(fact: ClinicalFact): string {
  switch (fact.category) {
    case 'condition':
      return conditionKey(fact.text);
    case 'medication':
      return parseMedication(fact.text)?.key ?? drugKey(fact.text);
    case 'allergy':
      return parseAllergy(fact.text)?.key ?? normaliseKey(fact.text);
    case 'result':
    case 'vital': {
      // The test, not its value: "Hemoglobin A1c 7.2 %" -> "hemoglobin a1c"; a known test by its
      // LOINC code, whatever the name ("HbA1c", "Hemoglobin A1c/Hemoglobin.total in Blood").
      const test = testName(fact.text);
      const loinc = LAB_BY_NAME.get(test);
      return loinc ? `loinc ${loinc}` : test;
    }
    case 'procedure':
      // "CABG x3 (01/2017)" = "CABG": counts and dates are not part of the operation's name.
      return normaliseKey(fact.text.replace(/\bx\s?\d+\b|\(?\b\d{1,2}\/\d{2,4}\b\)?|\(?\b(19|20)\d{2}\b\)?/gi, ' '));
    case 'immunization':
    case 'care_team':
    case 'note':
      return normaliseKey(fact.text);
  }
}

/** A result's test name as a key: the value, the LOINC long name's qualifiers and punctuation cut. */
function testName(text: string): string {
  const name = readableLabName(text)
    .replace(/:?\s(<=|>=|<|>)?-?\d.*$|:?\s(positive|negative|detected|not detected|reactive|non-?reactive)\b.*$/i, '')
    // LOINC long names: "Hemoglobin A1c/Hemoglobin.total in Blood", "Creatinine [Mass/volume] in Serum or Plasma".
    // Brackets qualify the test, they don't change it: "LDL Cholesterol (calc)", "[Mass/volume]".
    .replace(/\[[^\]]*\]|\([^)]*\)/g, ' ')
    .replace(
      /\s+(in|by|from)\s+(blood|serum|plasma|serum or plasma|urine|capillary blood|venous blood|arterial blood|automated count|manual count|calculation|\w+ method)\b.*$/i,
      '',
    )
    .replace(/\/hemoglobin\.total\b/i, '')
    .replace(/\s+(level|value|result|test|lab)$/i, '');
  return normaliseKey(name);
}

const LAB_BY_NAME = new Map<string, string>(
  LAB_TESTS.flatMap(({ loinc, names }) => names.map((n): [string, string] => [normaliseKey(n), loinc])),
);
const LOINC_CODES = new Set(LAB_TESTS.map((t) => t.loinc));

const GENERAL_KEYS = new Set(Object.keys(NARROWER).map(normaliseKey));

/** Categories whose codes name one thing each: two different codes are two different facts. */
const DISTINCT_CODES = new Set<ClinicalFact['category']>(['condition', 'allergy', 'immunization', 'procedure']);
/** Systems whose codes are exact enough to keep facts apart (drugs' RxNorm codes are not: brand, generic and dose differ). */
const EXACT_SYSTEMS = new Set(['SNOMED CT', 'ICD-10-CM', 'ICD-10', 'ICD-9-CM', 'CVX', 'CPT']);

/** Two groups' codes in one system may meet: they share one, or (ICD) one is the other's parent code. */
function compatible(system: string, a: Set<string>, b: Set<string>): boolean {
  for (const x of a)
    for (const y of b) {
      if (x === y) return true;
      if (system.startsWith('ICD') && (x.startsWith(y) || y.startsWith(x))) return true;
    }
  return false;
}
const explicit = (status: FactStatus | undefined): boolean =>
  status === 'active' || status === 'resolved' || status === 'stopped';
const ending = (status: FactStatus | undefined): number => (status === 'resolved' || status === 'stopped' ? 1 : 0);
const detailCount = (fact: ClinicalFact): number => Object.keys(fact.details ?? {}).length + (fact.code ? 1 : 0);

interface Member {
  fact: ClinicalFact;
  /** Position in the engine's output, which follows each document from top to bottom. */
  at: number;
}

/**
 * Newest first. On the same date: within one document the later statement (a plan's "restart
 * clopidogrel" after the HPI's "stopped"; the STOP list after the admission list); across
 * documents an ending status; then more detail; then text, for a stable order.
 */
function newerFirst(a: Member, b: Member): number {
  const byDate = dateKey(b.fact.recorded).localeCompare(dateKey(a.fact.recorded));
  if (byDate) return byDate;
  if (a.fact.sources[0]?.documentId === b.fact.sources[0]?.documentId && a.at !== b.at) return b.at - a.at;
  return (
    ending(b.fact.status) - ending(a.fact.status) ||
    detailCount(b.fact) - detailCount(a.fact) ||
    a.fact.text.localeCompare(b.fact.text)
  );
}

// A citation is a document's page: two quotes from one page are one citation (the first, the newest
// member's, is kept), so a source is never listed twice.
const sourceKey = (s: SourceRef): string => `${s.documentId}\u0000${s.page ?? ''}`;

function uniqueSources(sources: SourceRef[]): SourceRef[] {
  const seen = new Set<string>();
  return sources.filter((s) => {
    const key = sourceKey(s);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function earliest(values: (string | undefined)[]): string | undefined {
  return values.filter((v): v is string => !!v).sort()[0];
}

function latest(values: (string | undefined)[]): string | undefined {
  return values
    .filter((v): v is string => !!v)
    .sort()
    .at(-1);
}

// A LOINC fully specified name at the start of a result ("CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN 24 mmol/L").
const LOINC_FSN = /^[^:\n]+(?::[^:\s]+){3,}/;

/** What a doctor reads: a result's test under its component's name, whatever engine read it. */
function shownText(text: string, measured: boolean): string {
  const fsn = measured ? LOINC_FSN.exec(text)?.[0] : undefined;
  return fsn ? readableLabName(fsn) + text.slice(fsn.length) : text;
}

function mergeGroup(members: Member[]): ClinicalFact {
  const byDate = [...members].sort(newerFirst).map((m) => m.fact);
  const newest = byDate[0];
  if (!newest) throw new Error('mergeGroup needs at least one fact');
  // Status (and with it the section) from the newest member that states one.
  const stating = byDate.find((f) => explicit(f.status)) ?? newest;
  const measured = newest.category === 'result' || newest.category === 'vital';
  const cited = measured
    ? byDate.filter((f) => f.details?.value === newest.details?.value && f.text === newest.text)
    : byDate;
  const code = byDate.find((f) => f.code)?.code;
  const details = stating.details ?? byDate.find((f) => f.details)?.details;
  // A condition began at its earliest onset; an immunization's date shown is the last dose given.
  const onset =
    newest.category === 'immunization' ? latest(byDate.map((f) => f.onset)) : earliest(byDate.map((f) => f.onset));
  const end =
    stating.status === 'resolved' || stating.status === 'stopped'
      ? (stating.end ?? byDate.find((f) => f.end)?.end)
      : undefined;
  // A confirmed statement anywhere outweighs a suspicion.
  const possible = byDate.every((f) => f.certainty === 'possible');
  const merged: ClinicalFact = {
    section: stating.section,
    category: newest.category,
    // What a doctor reads: the wording (and dose) of the statement that decides the status, but
    // never the general name when a member says which kind ("Type 2 diabetes mellitus").
    text: shownText(
      (GENERAL_KEYS.has(nameKey(stating)) ? byDate.find((f) => !GENERAL_KEYS.has(nameKey(f))) : undefined)?.text ??
        stating.text,
      measured,
    ),
    ...(details ? { details } : {}),
    ...(code ? { code } : {}),
    ...(stating.status ? { status: stating.status } : {}),
    ...(onset ? { onset } : {}),
    ...(end ? { end } : {}),
    ...(newest.recorded ? { recorded: newest.recorded } : {}),
    ...(possible ? { certainty: 'possible' as const } : {}),
    sources: uniqueSources(cited.flatMap((f) => f.sources)),
  };
  return merged;
}

/** Union-find over facts that share any key (a code or a name), so "I10" and "HTN" meet through "Hypertension (I10)". */
export function mergeFacts(
  facts: ClinicalFact[],
  noneKnown: NoneKnown[] = [],
): { facts: ClinicalFact[]; noneKnown: NoneKnown[] } {
  // "Diabetes" in a chief complaint is the record's type 2 diabetes when that is the only kind it names.
  const conditionKeys = new Set(facts.filter((f) => f.category === 'condition').map(nameKey));
  const specific = new Map<string, string>();
  for (const [general, narrower] of Object.entries(NARROWER)) {
    const present = narrower.map(normaliseKey).filter((k) => conditionKeys.has(k));
    const [only] = present;
    if (present.length === 1 && only) specific.set(normaliseKey(general), only);
  }
  const keyOf = (fact: ClinicalFact): string => {
    const key = nameKey(fact);
    return fact.category === 'condition' ? (specific.get(key) ?? key) : key;
  };
  const parent = facts.map((_, i) => i);
  const find = (i: number): number => {
    const up = parent[i] ?? i;
    return up === i ? i : (parent[i] = find(up));
  };
  // Each group's codes by system (in the systems whose codes tell facts apart), kept on its root.
  const codes = facts.map((fact) => {
    const own = new Map<string, Set<string>>();
    const system = fact.code?.system;
    if (fact.code && system && DISTINCT_CODES.has(fact.category) && EXACT_SYSTEMS.has(system))
      own.set(system, new Set([fact.code.code.toUpperCase().replace(/\./g, '')]));
    return own;
  });
  const union = (a: number, b: number): void => {
    const ra = find(a);
    const rb = find(b);
    if (ra === rb) return;
    const ca = codes[ra] ?? new Map<string, Set<string>>();
    const cb = codes[rb] ?? new Map<string, Set<string>>();
    for (const [system, mine] of ca) {
      const theirs = cb.get(system);
      if (theirs && !compatible(system, mine, theirs)) return;
    }
    parent[ra] = rb;
    for (const [system, mine] of ca) cb.set(system, new Set([...(cb.get(system) ?? []), ...mine]));
    codes[rb] = cb;
  };
  const owner = new Map<string, number>();
  facts.forEach((fact, i) => {
    const keys = [`${family(fact)}|n|${keyOf(fact)}`];
    if (fact.code) {
      const system = fact.code.system.toLowerCase();
      // A known test's LOINC code meets the same test named in prose (nameKey gives it as "loinc <code>").
      if (
        (fact.category === 'result' || fact.category === 'vital') &&
        system === 'loinc' &&
        LOINC_CODES.has(fact.code.code)
      )
        keys.push(`${family(fact)}|n|loinc ${fact.code.code}`);
      else keys.push(`${family(fact)}|c|${system}|${fact.code.code.toLowerCase()}`);
    }
    for (const key of keys) {
      const other = owner.get(key);
      if (other === undefined) owner.set(key, i);
      else union(i, other);
    }
  });
  const groups = new Map<number, Member[]>();
  facts.forEach((fact, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push({ fact, at: i });
    else groups.set(root, [{ fact, at: i }]);
  });
  const merged = [...groups.values()].map(mergeGroup);

  const bySection = new Map<SectionKey, NoneKnown[]>();
  for (const none of noneKnown) {
    const statements = bySection.get(none.section);
    if (statements) statements.push(none);
    else bySection.set(none.section, [none]);
  }
  const mergedNone = [...bySection.values()].flatMap((statements) => {
    const [newest, ...older] = [...statements].sort(
      (a, b) => dateKey(b.recorded).localeCompare(dateKey(a.recorded)) || a.text.localeCompare(b.text),
    );
    return newest ? [{ ...newest, sources: uniqueSources([newest, ...older].flatMap((s) => s.sources)) }] : [];
  });
  return { facts: merged, noneKnown: mergedNone };
}
