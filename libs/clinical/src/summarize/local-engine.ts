// The local engine: offline, deterministic reading of clinical text into facts.
// It follows the document's own sections (headings and their synonyms), reads list items and table
// rows in the sections it knows, and reads prose (HPI, letters) for the conditions and drugs its
// vocabulary names, with NegEx-style context. See libs/clinical/README.md for the rules.
import type {
  ClinicalFact,
  EngineInput,
  FactCategory,
  FactStatus,
  NoneKnown,
  SectionKey,
  SourceRef,
  SummaryEngine,
} from '../model';
import { contextOf, itemContext } from './context';
import {
  drugKey,
  findConditions,
  findDrugs,
  medicationText,
  parseAllergy,
  parseCondition,
  parseMedication,
  type MedParts,
} from './parsers';
import { displayCase, findDates, headerDate, quoteOf } from './text';
import { HEADING_KINDS, HEADING_PATTERNS, REACTIONS, type BlockKind } from './vocabulary';

interface Line {
  text: string;
  filename: string;
  page: number | null;
}

type Role =
  | 'name'
  | 'dose'
  | 'route'
  | 'frequency'
  | 'status'
  | 'start'
  | 'end'
  | 'reaction'
  | 'severity'
  | 'value'
  | 'unit'
  | 'range'
  | 'flag'
  | 'code'
  | 'relation'
  | 'other';

const COLUMN_ROLES: [RegExp, Role][] = [
  [
    /^(name|medications?|drug|generic name|medication name|problem|problem name|diagnosis|diagnoses|condition|allergen|allergy|substance|agent|test|test name|component|lab|analyte|vaccine|immunization|procedure|surgery|description|item)$/,
    'name',
  ],
  [/^(dose|dosage|strength|amount)$/, 'dose'],
  [/^route$/, 'route'],
  [/^(frequency|freq|sig|instructions|directions|how to take|schedule)$/, 'frequency'],
  [/^(status|clinical status|state)$/, 'status'],
  [
    /^(start|start date|onset|onset date|date|noted|date noted|date given|administered|date administered|diagnosed|date of service|performed|collected)$/,
    'start',
  ],
  [/^(end|end date|stop date|resolved|resolved date|date resolved|discontinued)$/, 'end'],
  [/^(reactions?|manifestation)$/, 'reaction'],
  [/^(severity|criticality)$/, 'severity'],
  [/^(result|value|results|your value)$/, 'value'],
  [/^(units?)$/, 'unit'],
  [/^(reference range|ref range|range|normal range|reference interval|standard range)$/, 'range'],
  [/^(flag|abnormal|interpretation|abn)$/, 'flag'],
  [/^(icd-?10|code|icd-?10 code|snomed|rxnorm)$/, 'code'],
  [/^(relation|relationship|family member)$/, 'relation'],
  [/^(role|specialty|title)$/, 'other'],
  [
    /^(type|comments?|notes?|prescriber|quantity|qty|refills|last dose|provider|ordered by|source|category|laterality|side|age of onset|age|disp|dispense|taking\??)$/,
    'other',
  ],
];

const roleOf = (cell: string): Role | undefined =>
  COLUMN_ROLES.find(([re]) => re.test(cell.trim().toLowerCase().replace(/[:*]/g, '')))?.[1];

// Lines that are page furniture, not content.
const NOISE =
  /^(page \d+( of \d+)?|continued( on next page)?|\(continued\)|printed (on|by)\b.*|confidential\b.*|-+|=+|_+)$/i;
const DEMOGRAPHIC = /\b(mrn|dob|date of birth|medical record (number|no)|acct|account (number|no))\b\s*[:#]/i;
// Plan lines under a problem in an A/P ("- continue metformin"): not conditions.
const PLAN_LINE =
  /^(continue|cont|start|started|increase|decrease|reduce|titrate|check|follow|f\/u|return|rtc|refer|referral|order|ordered|obtain|schedule|recommend|counsel|counseled|discussed|will|would|monitor|repeat|labs?|patient|pt|we|i|plan|consider|advised|encouraged|educated|reviewed|stable on|on |goal|target|hold|stop|add|change|switch|see|cont\.|health maintenance|preventive|code status|dispo|disposition|signed|electronically)\b/i;
const SIG_LINE =
  /^(sig:?|take|takes|inject|apply|inhale|use|instill|place|dissolve|chew|give|insert|spray|1 tab|one tab)\b/i;
const MED_DETAIL =
  /^(commonly known as|what changed|changed|also known as|indications?|dispense|disp|refills?|quantity|qty|start date|end date|started|authorizing provider|ordering provider|prescriber|last dose|last filled|notes? to pharmacy|patient instructions|comments?)\b\s*:?/i;
const ALL_CAPS_HEADING_WORD =
  /\b(HISTORY|EXAM|EXAMINATION|COURSE|PLAN|COMPLAINT|INFORMATION|INSTRUCTIONS|FINDINGS|SUMMARY|DATA|REVIEW|STATUS|NOTES?|PROCEDURE|RECOMMENDATIONS|STUDIES|DISPOSITION|IMPRESSION|SIGNATURE|ATTESTATION|REPORT|DECISION|MAKING|CONSULTATION|COUNSELING|EDUCATION|APPOINTMENT|VISIT|PROVIDER|SUBSTANCE|USE|GOALS|REFERRAL)\b/;
// Sub-headings inside a medication list that do not end it.
const MED_SUBHEADING =
  /^(scheduled|prn|as needed|continuous|oral|inhaled|topical|injectable|injections|other|otc|over the counter|supplements|vitamins|new|changed|unchanged|continued|as needed medications|scheduled medications)$/i;

const NONE_ALLERGIES =
  /\b(nkda|nka|nkma|no known (drug |medication |medicine )?allerg(y|ies)|no known drug allergy|no allerg(y|ies)|no drug allergies|not known to have any allergies|allergies:?\s*(none|no known)|no allergies on file)\b|^\W*(none|none known|no known)\W*$/i;
const NONE_MEDS =
  /^\W*(none|no (current |known |home |regular |daily |active |outpatient )?(medications?|meds|prescriptions)( on file)?|not (currently )?taking any( medications?)?|takes no (medications?|meds)|no current outpatient medications)\W*$/i;
const NONE_CONDITIONS =
  /^\W*(none|no (significant |known |pertinent |chronic |prior |past )?(past )?(medical )?(history|problems|conditions|illnesses)|no active problems|negative|noncontributory|non-contributory|unremarkable)\W*$/i;

interface Doc {
  input: EngineInput;
  recorded: string;
  facts: ClinicalFact[];
  noneKnown: NoneKnown[];
}

interface Block {
  kind: BlockKind;
  columns: { roles: (Role | undefined)[]; starts: number[] | null } | null;
  lastMed: { fact: ClinicalFact; text: string } | null;
  /** Words in the last list item: a long item's wrapped tail is not a new item. */
  lastItemWords: number;
  /** The list numbers its problems ("1.", "#"): its dash lines are orders under them. */
  numbered?: boolean;
  /** The columns of a vital-signs table, when its header names the vitals. */
  vitalHeader?: { names: string[]; starts: number[] | null };
  /** Opened by a heading told by its typography ("## Encounters" from a PDF): the document's own structure. */
  typed?: boolean;
  /** The section's tables so far had a header row; a later table without one is not read (a footer's details). */
  tableSeen?: boolean;
  ignoreTable?: boolean;
  /** The last list line was long and ended mid-sentence: the next line is its wrapped rest. */
  lastItemOpen?: boolean;
}

// A PDF's table (see extract/pdf-layout.ts): "| a | b |" rows; a header row has "| --- | --- |" under it.
const TABLE_ROW = /^\|.*\|$/;
const TABLE_RULE = /^\|(\s*:?-{3,}:?\s*\|)+$/;

export class LocalEngine implements SummaryEngine {
  readonly name = 'local' as const;

  async read(
    inputs: EngineInput[],
    signal?: AbortSignal,
  ): Promise<{ facts: ClinicalFact[]; noneKnown: NoneKnown[]; droppedUnsupported: number }> {
    const facts: ClinicalFact[] = [];
    const noneKnown: NoneKnown[] = [];
    for (const input of inputs) {
      signal?.throwIfAborted();
      const doc = readDocument(input);
      facts.push(...doc.facts);
      noneKnown.push(...doc.noneKnown);
    }
    return { facts, noneKnown, droppedUnsupported: 0 };
  }
}

/** One document's facts: extraction's structured ones, then what its text says. */
export function readDocument(input: EngineInput): Doc {
  // A C-CDA section's narrative repeats the entries already read as structured facts.
  const lines: Line[] = input.texts
    .filter((t) => !t.coveredByFacts)
    .flatMap((t) => t.text.split(/\r?\n|\f/).map((text) => ({ text, filename: t.filename, page: t.page })));
  const recorded = input.documentDate ?? headerDate(lines.map((l) => l.text)) ?? input.uploadedAt.slice(0, 10);
  const doc: Doc = { input, recorded, facts: [], noneKnown: [] };
  // Structured facts (C-CDA, FHIR) come with their codes; they keep their own dates when they have them.
  for (const fact of input.facts) doc.facts.push({ ...fact, recorded: fact.recorded ?? recorded });
  for (const none of input.noneKnown) doc.noneKnown.push({ ...none, recorded: none.recorded ?? recorded });

  // The preamble before any heading is read as prose (letters have no headings at all).
  const block: Block = { kind: 'other', columns: null, lastMed: null, lastItemWords: 0 };
  // Prose is read by paragraph: sentences wrap across lines ("chronic\nkidney disease").
  let paragraph: { line: Line; text: string; lastLine: string } | null = null;
  let pending: { line: Line; text: string; last: string } | null = null;
  const flushPending = (): void => {
    if (pending) readContent(doc, block, pending.line, pending.text, true);
    pending = null;
  };
  const flush = (): void => {
    flushPending();
    if (paragraph) readProse(doc, paragraph.line, paragraph.text, 'other');
    paragraph = null;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as Line;
    let text = line.text.replace(/\u00a0/g, ' ').trim();
    if (!text) {
      flush();
      continue;
    }
    if (NOISE.test(text) || TABLE_RULE.test(text)) continue;
    // A heading by its typography: always a heading. One this engine does not know is read as prose
    // (its tables are not read: see readTableRow).
    if (/^## \S/.test(text)) {
      flush();
      const title = text.slice(3).trim();
      const kind =
        knownHeading(title) ??
        knownHeading(title.replace(/\s+section$/i, '')) ??
        (/\b(past|previous|prior) (medical|illness|history)|\bhistory of past\b/i.test(title) ? 'past' : 'other');
      Object.assign(block, { kind, columns: null, lastMed: null, lastItemWords: 0, numbered: false, typed: true });
      delete block.vitalHeader;
      block.tableSeen = false;
      block.ignoreTable = false;
      continue;
    }
    // A sub-heading by its typography, or a table's caption ("Unresolved Problems" over its table):
    // a heading when its name is known; otherwise only a label, never a fact.
    const caption =
      /^### \S/.test(text) ||
      (wordCount(text) <= 6 &&
        !TABLE_ROW.test(text) &&
        TABLE_ROW.test(lines[index + 1]?.text.trim() ?? '') &&
        TABLE_RULE.test(lines[index + 2]?.text.trim() ?? ''));
    if (caption) {
      const title = text.replace(/^###\s*/, '').replace(/:$/, '');
      const kind = knownHeading(title);
      if (kind) {
        flush();
        Object.assign(block, { kind, columns: null, lastMed: null, lastItemWords: 0, numbered: false });
        delete block.vitalHeader;
        continue;
      }
      if (!/^###/.test(text)) continue;
      // A bold line with content ("Allergies: penicillin", a bold problem) is read as it is written.
      const labelled = detectHeading(title, block.kind)?.rest;
      if (!labelled && !findConditions(title).length && !findDrugs(title).length) {
        // A label ("Patient priority:") ends the list above it: what follows is its value.
        if (/:$/.test(text)) {
          flush();
          Object.assign(block, { kind: 'other', columns: null, lastMed: null, lastItemWords: 0, numbered: false });
        }
        continue;
      }
      text = title;
    }
    if (TABLE_ROW.test(text)) {
      flush();
      const previous = lines[index - 1]?.text.trim() ?? '';
      const header = TABLE_RULE.test(lines[index + 1]?.text.trim() ?? '');
      readTableRow(doc, block, line, text, header, !TABLE_ROW.test(previous));
      continue;
    }
    // A long inline list wraps onto the next lines ("CURRENT MEDICATIONS: insulin ...; lisinopril 20 mg" / "daily; ...").
    if (pending) {
      if (pending.last.length >= 50 && !/\.$/.test(pending.last) && !detectHeading(text, block.kind)) {
        pending.text += ` ${text}`;
        pending.last = text;
        continue;
      }
      flushPending();
    }
    const heading = detectHeading(text, block.kind);
    if (heading) {
      flush();
      block.kind = heading.kind;
      block.columns = null;
      block.lastMed = null;
      block.lastItemWords = 0;
      delete block.vitalHeader;
      block.numbered = false;
      block.typed = false;
      block.tableSeen = false;
      block.ignoreTable = false;
      if (heading.rest && heading.kind !== 'vitals' && vitalCount(heading.rest) >= 2)
        readVitals(doc, line, heading.rest);
      else if (heading.rest.length >= 50 && !/\.$/.test(heading.rest))
        pending = { line, text: heading.rest, last: heading.rest };
      else if (heading.rest) readContent(doc, block, line, heading.rest, true);
      continue;
    }
    // Vital signs are written wherever the exam is ("BP 148/86 | Pulse 92 | SpO2 97%").
    if (block.kind !== 'vitals' && block.kind !== 'labs' && vitalCount(text) >= 2) {
      flush();
      readVitals(doc, line, text);
      continue;
    }
    if (block.kind === 'other' && !isTableHeader(text)) {
      if (!paragraph) paragraph = { line, text, lastLine: text };
      else {
        // A wrapped line (long, or followed by lower case) continues its sentence; a short
        // unpunctuated line ("Patient: ...") is a sentence of its own.
        const wrapped = /[a-z0-9,]$/i.test(paragraph.text) && (/^[a-z(]/.test(text) || paragraph.lastLine.length >= 60);
        paragraph.text += wrapped || /[.:;!?]$/.test(paragraph.text) ? ` ${text}` : `. ${text}`;
        paragraph.lastLine = text;
      }
      continue;
    }
    flush();
    readContent(doc, block, line, text, false);
  }
  flush();
  return doc;
}

// Column names, for a header row whose columns are one space apart ("Diagnosis Date Noted").
const HEADER_WORDS =
  /\b(substance|description|code|startdate|criticality|directions|encounter|location|performer|date of service|diagnosis|problem|date noted|noted|date|medication|sig|dispense|refills?|allergen|reactions?|severity|result|value|ref range|reference range|range|units?|flag|test|component|status|onset|name|dose|route|frequency|reason|comments?|provider|laterality|relation|age of onset|vaccine|procedure|type|start date|end date|quantity)\b/gi;

function isHeaderWords(text: string): boolean {
  const words = text.replace(/[•*]/g, ' ').trim();
  const count = (words.match(HEADER_WORDS) ?? []).length;
  return count >= 2 && words.replace(HEADER_WORDS, '').replace(/[\s/|:-]+/g, '') === '';
}

function isTableHeader(text: string): boolean {
  const cells = cellsOf(text).cells.filter(Boolean);
  return cells.length >= 2 && cells.every((c) => roleOf(c));
}

/** The sentence around a mention in a paragraph: the citation for a fact read from prose. */
function sentenceAround(text: string, start: number, end: number): string {
  const from = Math.max(text.lastIndexOf('. ', start) + 2, text.lastIndexOf('; ', start) + 2, 0);
  const stops = [text.indexOf('. ', end), text.indexOf('; ', end)].filter((i) => i >= 0);
  const to = stops.length ? Math.min(...stops) + 1 : text.length;
  return text.slice(from, to);
}

function normaliseHeading(text: string): string {
  return text
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/&/g, ' and ')
    .replace(/^(your|the patient'?s|patient'?s|patient)\s+/, '')
    .replace(/[*#_=]+/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/^[\s\d.)ivx]+(?=[a-z])/, (m) => (/^\s*([\d]+|[ivx]+)[.)]\s*$/.test(m) ? '' : m))
    .replace(/[\s:.-]+$/, '')
    .trim();
}

// Headings of C-CDA documents (as the CDA stylesheet prints them) this engine reads or passes over.
const DOCUMENT_HEADINGS = new Map<string, BlockKind>([
  ['active concerns', 'problems'],
  ['resolved concerns', 'past'],
  ['history of past illness', 'past'],
  ['health concerns', 'problems'],
  ['unresolved problems', 'problems'],
  // Sections a summary does not list: their tables name places, people and payers.
  ...[
    'advance directives',
    'encounters',
    'encounter',
    'encounter details',
    'insurance',
    'insurance providers',
    'payers',
    'payer',
    'functional status',
    'mental status',
    'medical equipment',
    'document information',
    'nutrition',
  ].map((name) => [name, 'skip'] as [string, BlockKind]),
]);

function knownHeading(candidate: string): BlockKind | undefined {
  // A heading is short; most lines are not, and need no normalising.
  if (candidate.length > 80) return undefined;
  const key = normaliseHeading(candidate);
  const words = key.split(' ').length;
  if (!key || words > 12) return undefined;
  // Sentence-like headings ("Results for orders placed or performed in visit on 03/14/24") may be long.
  if (words > 8) return HEADING_PATTERNS.find(([re]) => re.test(key))?.[1];
  const known = (k: string): BlockKind | undefined =>
    HEADING_KINDS.get(k) ?? DOCUMENT_HEADINGS.get(k) ?? HEADING_PATTERNS.find(([re]) => re.test(k))?.[1];
  // "Problem List/Past Medical History", "Procedure/Surgical History": the first part it knows.
  return (
    known(key) ??
    known(key.replace(/\s*\/\s*/g, '/')) ??
    key
      .split(/\s*\/\s*/)
      .map(known)
      .find((k) => k !== undefined) ??
    ocrHeading(key)
  );
}

// Heading names of 7+ letters by length, for the OCR check.
const HEADINGS_BY_LENGTH = new Map<number, [string, BlockKind][]>();
for (const [name, kind] of HEADING_KINDS) {
  if (name.length < 7) continue;
  const list = HEADINGS_BY_LENGTH.get(name.length);
  if (list) list.push([name, kind]);
  else HEADINGS_BY_LENGTH.set(name.length, [[name, kind]]);
}

/** OCR misreads a letter ("AIlergies", "Medicat1ons"): a heading of 7+ letters one edit away. */
function ocrHeading(key: string): BlockKind | undefined {
  if (key.length < 7 || key.split(' ').length > 4) return undefined;
  for (const length of [key.length, key.length - 1, key.length + 1]) {
    for (const [name, kind] of HEADINGS_BY_LENGTH.get(length) ?? []) {
      if (editDistanceAtMostOne(name, key)) return kind;
    }
  }
  return undefined;
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/** A heading line ("ALLERGIES:", "Past Medical History", "PMH: HTN, DM2") and any content after it. */
export function detectHeading(text: string, current: BlockKind): { kind: BlockKind; rest: string } | null {
  const bare = text.replace(/^[*#\s]+|[*\s]+$/g, '').replace(/\*\*/g, '');
  // "Heading: content" or "Heading - content".
  const colon = /^([^:|\t]{2,60}?)\s*(?::|\s[-–—]\s)\s*(.*)$/.exec(bare);
  if (colon) {
    const kind = knownHeading(colon[1] ?? '');
    if (kind) return { kind, rest: (colon[2] ?? '').trim() };
  }
  const whole = knownHeading(bare);
  if (whole) return { kind: whole, rest: '' };
  // "ALLERGIES     NKDA": a capitalised heading, then a gap.
  const gap = /^([A-Z][A-Z /&]{2,40}?)(?:\s{2,}|\t)(.+)$/.exec(bare);
  if (gap) {
    const kind = knownHeading(gap[1] ?? '');
    if (kind) return { kind, rest: (gap[2] ?? '').trim() };
  }
  // "ED COURSE: Received ...": a labelled paragraph under a heading this engine does not know.
  const label = /^([A-Za-z][A-Za-z /&'-]{1,40}):\s+(\S.*)$/.exec(bare);
  if (
    label &&
    (ALL_CAPS_HEADING_WORD.test((label[1] ?? '').toUpperCase()) ||
      (label[1] === (label[1] ?? '').toUpperCase() && (label[1] ?? '').trim().includes(' ')))
  ) {
    return { kind: 'other', rest: label[2] ?? '' };
  }
  // Headings this engine does not know still end the section before them.
  if (/^[A-Za-z][A-Za-z /&'()-]{1,50}:$/.test(bare) && bare.split(/\s+/).length <= 6) {
    if (current === 'meds' || current === 'meds_stopped') {
      const label = bare.slice(0, -1).trim();
      if (/\b(discontinued|stopped|inactive|held|expired|completed|stop)\b/i.test(label))
        return { kind: 'meds_stopped', rest: '' };
      if (MED_SUBHEADING.test(label)) return { kind: 'meds', rest: '' };
    }
    if (current === 'labs' || current === 'vitals') return null;
    return { kind: 'other', rest: '' };
  }
  if (/^[A-Z][A-Z /&'-]{3,50}$/.test(bare) && bare.split(/\s+/).length <= 6 && ALL_CAPS_HEADING_WORD.test(bare))
    return { kind: 'other', rest: '' };
  return null;
}

function source(doc: Doc, line: Line): SourceRef {
  return { documentId: doc.input.documentId, filename: line.filename, page: line.page, quote: quoteOf(line.text) };
}

function addFact(doc: Doc, line: Line, fact: Omit<ClinicalFact, 'sources' | 'recorded'>, quote?: string): ClinicalFact {
  const cited = source(doc, line);
  const full: ClinicalFact = {
    ...fact,
    recorded: doc.recorded,
    sources: [quote ? { ...cited, quote: quoteOf(quote) } : cited],
  };
  doc.facts.push(full);
  return full;
}

function addNoneKnown(doc: Doc, line: Line, section: SectionKey, text: string): void {
  doc.noneKnown.push({ section, text, recorded: doc.recorded, sources: [source(doc, line)] });
}

interface Cells {
  cells: string[];
  /** Where each cell starts, for tables laid out with spaces (PDF text), whose empty cells leave no mark. */
  starts: number[] | null;
}

/** Table cells: " | " or tabs (empty cells kept), or runs of two or more spaces. */
function cellsOf(text: string): Cells {
  if (TABLE_ROW.test(text.trim())) {
    const cells = text
      .trim()
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
    return { cells, starts: null };
  }
  if (text.includes('|') || text.includes('\t')) {
    const cells = text.split(text.includes('|') ? '|' : '\t').map((c) => c.trim().replace(/^[•·▪◦‣●○■□]\s*/, ''));
    while (cells.length && !cells[0]) cells.shift();
    while (cells.length && !cells.at(-1)) cells.pop();
    return { cells, starts: null };
  }
  const cells: string[] = [];
  const starts: number[] = [];
  for (const m of text.matchAll(/\S+(?: \S+)*/g)) {
    cells.push(m[0].replace(/^[•·▪◦‣●○■□]\s*/, ''));
    starts.push(m.index);
  }
  return { cells, starts };
}

function stripBullet(text: string): string {
  // Lettered items are lower case ("a. ..."): "M. Placeholder" is an initial.
  return text.replace(/^\s*(?:[-*•·▪◦‣●○■□✓>]+\s*|\d{1,2}[.)]\s+|[a-h][.)]\s+|#\s*|\[\s*[xX ]?\s*\]\s*)/, '').trim();
}

/** Items on one line: inline lists are split on commas and semicolons (outside brackets). */
function splitItems(text: string, inline: boolean): string[] {
  // Inline content may hold sentences ("Hemoglobin A1c 9.4%. Creatinine 1.5 mg/dL, eGFR 52.").
  if (inline && /\.\s+[A-Z]/.test(text)) {
    return text.split(/\.\s+(?=[A-Z])/).flatMap((sentence) => splitItems(sentence, true));
  }
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ';' || ch === ',')) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  const items = parts.map((p) => p.replace(/\.\s*$/, '').trim()).filter(Boolean);
  // A one-per-line list keeps its commas ("Hyperlipidemia, unspecified", "Type 2 diabetes, uncontrolled,
  // with hyperglycemia") unless it is plainly a list: short parts, each capitalised or a known name.
  const short = items.every((i) => i.split(/\s+/).length <= 5);
  const named = items.slice(1).every((i) => /^[A-Z0-9]/.test(i) || findConditions(i).length > 0);
  if (inline ? items.length > 1 && items.every((i) => i.split(/\s+/).length <= 8) : items.length >= 3 && short && named)
    return items;
  return [text.replace(/\.\s*$/, '').trim()];
}

function readContent(doc: Doc, block: Block, line: Line, text: string, inline: boolean): void {
  if (DEMOGRAPHIC.test(text) && block.kind !== 'other') return;
  if (isHeaderWords(text) && !/\t|\s{2,}|\|/.test(text)) return;
  const { cells: rawCells, starts } = cellsOf(text);
  const cells = rawCells.filter(Boolean);
  if (cells.length >= 2 && cells.every((c) => roleOf(c))) {
    const roles = rawCells.map(roleOf);
    block.columns = { roles, starts };
    // A table header says what follows even where no heading did (a lab report's "Test  Result  Units").
    if (block.kind === 'other' || block.kind === 'skip') {
      if (roles.includes('value')) block.kind = 'labs';
      else if (roles.includes('reaction')) block.kind = 'allergies';
      else if (roles.includes('dose') || roles.includes('route') || roles.includes('frequency')) block.kind = 'meds';
    }
    return;
  }
  const row = block.columns && cells.length >= 2 ? rowOf(block.columns, rawCells, starts) : null;
  switch (block.kind) {
    case 'skip':
      return;
    case 'plan':
      return readProseDrugs(doc, line, stripBullet(text));
    case 'other':
      return readProse(doc, line, text, 'other');
    case 'problems':
    case 'past':
      return readConditions(doc, block, line, text, inline, row, cells);
    case 'surgical':
    case 'immunizations':
      return readDated(doc, block.kind, line, text, inline, row, cells);
    case 'meds':
    case 'meds_stopped':
      if (inline && !row) {
        for (const item of splitItems(text, true)) {
          // "Glipizide was discontinued in June": a sentence about a drug, not a list entry.
          if (/\b(was|were|has been|is|are)\b/i.test(item)) readProseDrugs(doc, line, item);
          else readMedication(doc, block, line, item, null, [item]);
        }
        return;
      }
      return readMedication(doc, block, line, text, row, cells);
    case 'allergies':
      return readAllergies(doc, line, text, inline, row, cells);
    case 'family':
      if (row?.name)
        return readFamily(doc, line, `${row.name}${row.relation ? ` (${row.relation.toLowerCase()})` : ''}`);
      // "Father with asthma. Maternal grandmother with type 2 diabetes."
      for (const sentence of text.split(/(?<=[a-z0-9)])\.\s+|;\s*/i)) readFamily(doc, line, sentence);
      return;
    case 'labs':
      return readLabs(doc, line, text, inline, row, cells);
    case 'vitals':
      return readVitals(doc, line, vitalColumns(block, rawCells, starts) ?? text);
    case 'care_team':
      return readCareTeam(doc, line, row?.name ? `${row.name}${row.other ? ` (${row.other})` : ''}` : text);
  }
}

// The labels of the patient's and the document's details (the CDA stylesheet's header and footer tables).
const DOCUMENT_LABEL =
  /^(patient(-ids?)?|date of birth|race|ethnicity|gender|sex|language communication|custodian|author|legal authenticator|authenticator|document|documentation of\b.*|performer\b.*|provider organi[sz]ation|contact details\b.*|guardian|informant|data enterer|attender|consultant|encounter location|discharge disposition|responsible party|participant\b.*|indirect target\b.*|created on|version set-id|address|telecom|marital status|religion)$/i;

/** A header cell's role, for a row marked as a header: the exact names first, then the words in it. */
function headerRole(cell: string): Role {
  const exact = roleOf(cell);
  if (exact) return exact;
  const c = cell.toLowerCase().replace(/[:*]/g, ' ');
  const has = (re: RegExp): boolean => re.test(c);
  if (has(/\bresult type\b|\btest name\b/)) return 'name';
  if (has(/\b(reactions?|manifestations?)\b/)) return 'reaction';
  if (has(/\b(severity|criticality)\b/)) return 'severity';
  if (has(/\b(resolved|resolution|end|enddate|stop|stopped|discontinued)\b/)) return 'end';
  if (has(/\bstatus\b/)) return 'status';
  if (
    has(
      /\b(fill|refills?|quantity|qty|indications?|reason|type|category|class|location|performer|provider|prescriber|author|source|comments?|notes?|lot|manufacturer|series|facility|organi[sz]ation)\b/,
    )
  )
    return 'other';
  if (has(/\b(onset|start|startdate|noted|diagnosed|effective|dates?|time|administered|given|observed)\b/))
    return 'start';
  if (has(/\b(dose|dosage|strength|amount)\b/)) return 'dose';
  if (has(/\broute\b/)) return 'route';
  if (has(/\b(frequency|sig|directions|instructions)\b/)) return 'frequency';
  if (has(/\bunits?\b/)) return 'unit';
  if (has(/\b(range|reference)\b/)) return 'range';
  if (has(/\b(interpretation|flag|abnormal)\b/)) return 'flag';
  if (has(/\b(result|value)\b/)) return 'value';
  if (has(/\b(code|snomed|rxnorm|icd|loinc|cvx|ndc)\b/)) return 'code';
  if (has(/\b(relation|relationship)\b/)) return 'relation';
  if (
    has(
      /\b(name|description|problem|diagnosis|condition|medications?|medicine|drug|product|substance|allergen|allergy|agent|vaccine|immunization|procedure|test|component|observation|concern|item|finding)\b/,
    )
  )
    return 'name';
  return 'other';
}

/**
 * One row of a PDF's table ("| Codeine | Fatal | Severe |"). A header row says what the columns are
 * and is never a fact; each following row is one fact whose columns are its details. Tables of
 * sections this engine does not read (encounters, insurance, care team, the patient's details) give
 * nothing, and a table without a header row after one that had a header is not read either.
 */
function readTableRow(doc: Doc, block: Block, line: Line, text: string, header: boolean, first: boolean): void {
  const { cells } = cellsOf(text);
  if (header) {
    const roles = cells.map(headerRole);
    if (!roles.includes('name')) {
      const at = roles.findIndex((r) => r === 'other');
      if (at >= 0) roles[at] = 'name';
    }
    block.columns = { roles, starts: null };
    block.tableSeen = true;
    block.ignoreTable = false;
    if (block.kind === 'vitals') vitalColumns(block, cells, null);
    // Without a heading of its own, a table's header says what it holds (a lab report's "Test | Result | Units").
    else if (!block.typed && block.kind === 'other') {
      if (roles.includes('value')) block.kind = 'labs';
      else if (roles.includes('reaction')) block.kind = 'allergies';
      else if (roles.includes('dose') || roles.includes('route')) block.kind = 'meds';
    }
    return;
  }
  if (first) {
    // A second table without a header in a section (the document's own details printed after the
    // last section), or one that lists the patient's or the document's details: not this section's list.
    block.ignoreTable = !!block.typed && !!block.tableSeen;
    if (!block.tableSeen) block.columns = null;
    block.tableSeen = true;
  }
  // The patient's or the document's details (the stylesheet's footer, printed right under the last section).
  if (cells.slice(0, 2).some((c) => DOCUMENT_LABEL.test(c))) block.ignoreTable = true;
  // Planned care is not what the patient takes or has.
  if (block.ignoreTable || block.kind === 'skip' || block.kind === 'other' || block.kind === 'plan') return;
  if (!cells.some((c) => /[a-z0-9]/i.test(c))) return;
  if (block.kind === 'vitals') {
    const rewritten = vitalColumns(block, cells, null);
    return readVitals(doc, line, rewritten ?? cells.join('  '));
  }
  if (block.kind === 'immunizations' && block.columns) {
    const row = rowOf(block.columns, cells, null);
    if (/\b(refused|declined|not given|not administered|cancelled|deferred)\b/i.test(row.status ?? '')) return;
  }
  // Problems in a table without a header row (preformatted notes, layout tables): its text is read as
  // prose, for the conditions it names, not line by line as a list.
  if (block.typed && !block.columns && (block.kind === 'problems' || block.kind === 'past'))
    return readProse(doc, line, cells.filter(Boolean).join('. '), block.kind);
  // A header-less table of known columns ("Substance  Reaction") read as any other line.
  readContent(doc, block, line, cells.filter(Boolean).length >= 2 ? text : cells.filter(Boolean).join(' '), false);
}

type Row = Partial<Record<Role, string>>;

function rowOf(columns: NonNullable<Block['columns']>, cells: string[], starts: number[] | null): Row {
  const row: Row = {};
  cells.forEach((cell, i) => {
    if (!cell) return;
    // Space-laid tables: a cell belongs to the header column that starts nearest to it.
    let column = i;
    if (starts && columns.starts) {
      const at = starts[i] ?? 0;
      const headerStarts = columns.starts;
      column = headerStarts.reduce(
        (best, start, j) => (Math.abs(start - at) < Math.abs((headerStarts[best] ?? 0) - at) ? j : best),
        0,
      );
    }
    let role = columns.roles[column] ?? 'other';
    // "Code | Description": a name column holding only a code (SNOMED, ICD-10, RxNorm) gives the code.
    if (role === 'name' && (/^\d{3,}$/.test(cell) || CODE_CELL.test(cell))) role = 'code';
    if (!row[role]) row[role] = cell;
  });
  return row;
}

const CODE_CELL = /^[A-TV-Z]\d{2}(\.\d{1,4}[A-Z]?)?$/;
const wordCount = (s: string): number => s.split(/\s+/).filter(Boolean).length;

function readConditions(
  doc: Doc,
  block: Block,
  line: Line,
  text: string,
  inline: boolean,
  row: Row | null,
  cells: string[],
): void {
  const kind = block.kind === 'past' ? 'past' : 'problems';
  // A list's captions ("Problem #1") name no problem.
  if (/^(problem|concern|diagnosis|condition)\s*#?\s*\d+:?$/i.test(text.trim())) return;
  const previousWords = block.lastItemWords;
  const continues = previousWords > 0 && block.lastItemOpen === true;
  block.lastItemWords = wordCount(text);
  block.lastItemOpen = text.trim().length >= 80 && !/[.;:!?)\]]$/.test(text.trim());
  // A printed line wrapped at the page's width ("... Referral Nurse: Nurse" / "Florence,RN"): its rest
  // is no new item, unless it is marked as one.
  if (continues && stripBullet(text) === text && !inline) return readProse(doc, line, text, kind);
  if (/^\s*(\d{1,2}\s?[.)]|#)\s*\S/.test(text)) block.numbered = true;
  // Under numbered problems, dash lines are the orders for them ("- HEMOGLOBIN A1C", "- metFORMIN 1000 MG tablet").
  else if (block.numbered && /^\s*[-–•]\s/.test(text)) return readProseDrugs(doc, line, stripBullet(text), true);
  // The wrapped tail of a long A/P item ("metformin 1000 mg BID. Discussed diet.") names no new problem.
  if (/^[a-z]/.test(text) && previousWords >= 8) return readProseDrugs(doc, line, text);
  const section: SectionKey = kind === 'problems' ? 'current_conditions' : 'past_history';
  if (NONE_CONDITIONS.test(text))
    return addNoneKnown(doc, line, section, displayCase(stripBullet(text).replace(/\.$/, '')));
  if (row?.name)
    return addCondition(
      doc,
      kind,
      line,
      row.name,
      [
        // A status column saying the problem is over ("Completed", "Suspended") makes it past history.
        row.status && /\b(completed|suspended|ended|former|past|aborted)\b/i.test(row.status) ? 'inactive' : row.status,
        row.start && `since ${row.start}`,
        row.end && `resolved ${row.end}`,
        row.code && `(${row.code})`,
      ]
        .filter(Boolean)
        .join(' '),
    );
  // Without a header, a row's name is its first cell with words (a code may come first:
  // "I10      Essential (primary) hypertension"); the other cells may say status, dates and code.
  if (cells.length >= 2 && /\t|\s{2,}|\|/.test(text)) {
    const at = cells.findIndex((c) => /[a-z]{3}/i.test(c) && !CODE_CELL.test(c));
    if (at >= 0 && wordCount(cells[at] ?? '') <= 12) {
      const others = cells.filter((_, i) => i !== at).map((c) => (CODE_CELL.test(c) ? `(${c})` : c));
      return addCondition(doc, kind, line, stripBullet(cells[at] ?? ''), others.join(' '));
    }
  }
  // Inline sentences ("PMH: Kidney stone 2016. Appendectomy age 12."): a short one is an item, a long one prose.
  if (inline && /\.\s+\S/.test(text)) {
    for (const sentence of text.split(/(?<=[a-z0-9)])\s*\.\s+/i)) {
      const clean = sentence.replace(/[\s.]+$/, '');
      if (wordCount(clean) <= 6) readConditions(doc, block, line, clean, true, null, [clean]);
      else readProse(doc, line, clean, kind);
    }
    return;
  }
  // A diagnosis section written as short sentences (".Kidney malrotation. Discharged August 1, 2013"):
  // under a heading of the document's own structure, each sentence is an item, as a reader takes them.
  if (!inline && block.typed && stripBullet(text) === text && /\.\s+\S/.test(text)) {
    const sentences = text
      .split(/(?<=[a-z0-9)])\s*\.\s+/i)
      .map((s) => s.replace(/^[\s.]+|[\s.]+$/g, ''))
      .filter(Boolean);
    if (sentences.length >= 2 && sentences.every((s) => wordCount(s) <= 5 && !SENTENCE_VERB.test(s))) {
      for (const sentence of sentences) readConditions(doc, block, line, sentence, true, null, [sentence]);
      return;
    }
  }
  // An unmarked sentence under a problem ("Above goal; metoprolol added.") is plan prose, not a problem.
  const marked = stripBullet(text) !== text || inline;
  if (
    !marked &&
    /(\.\s+\S|[.;]\s*$|;\s)/.test(outsideBrackets(text)) &&
    wordCount(text) >= 3 &&
    !/\s[-–—]\s|^[^:]{2,60}:\s/.test(text)
  ) {
    return readProse(doc, line, text, kind);
  }
  for (const item of splitItems(stripBullet(text), inline)) {
    // A plan line names no problem, but may start, change or stop a drug.
    if (PLAN_LINE.test(item)) {
      readProseDrugs(doc, line, item);
      continue;
    }
    // The problem is what comes before the plan: "Type 2 diabetes - A1c 7.2, continue metformin".
    // Separators inside brackets belong to the bracket ("Angina (onset Apr 17, 2007; resolved ...)").
    const masked = outsideBrackets(item);
    const cut = /\s[-–—]\s|:\s|;\s|\.\s/.exec(masked);
    const head = cut ? item.slice(0, cut.index) : item;
    // "Prognosis: ...", "Status: active": a field of the problem above, not a problem.
    if (cut?.[0] === ': ' && FIELD_LABEL.test(head.trim())) {
      // A field's value may be cut short ("Prognosis: ... within 2 year"): the next line is not its rest.
      block.lastItemOpen = false;
      continue;
    }
    const afterComma = masked.slice(0, head.length).indexOf(', ');
    const name = afterComma > 0 && wordCount(head.slice(afterComma + 2)) >= 3 ? head.slice(0, afterComma) : head;
    // Bracketed dates and notes do not make an item a sentence.
    if (wordCount(outsideBrackets(name)) > 10) readProse(doc, line, item, kind);
    else addCondition(doc, kind, line, name, item.slice(name.length));
    // "GI bleed; hypotension perhaps secondary to this": a later clause that opens with a known
    // condition names a problem of its own.
    if (cut?.[0] === '; ') {
      for (const clause of masked.slice(cut.index + 2).split(/;\s/)) {
        const at = masked.indexOf(clause);
        const text = item.slice(at, at + clause.length);
        const first = findConditions(text)[0];
        if (first && text.slice(0, first.start).trim() === '')
          addCondition(doc, kind, line, text.slice(first.start, first.end), text.slice(first.end));
      }
    }
    // "Type 2 diabetes - continue metformin 1000 mg BID": the plan after the problem.
    if (kind === 'problems' && name.length < item.length) readProseDrugs(doc, line, item.slice(name.length));
  }
}

/** The text with every bracketed part blanked out (same length), for finding separators outside them. */
function outsideBrackets(text: string): string {
  return text.replace(/\([^()]*\)|\[[^[\]]*\]/g, (m) => ' '.repeat(m.length));
}

// Words of a sentence that tells something, not an item of a list ("Patient is stable").
const SENTENCE_VERB =
  /\b(is|are|was|were|has|have|had|will|would|should|can|may|denies|reports|presents|patient|she|he|they|we|i)\b/i;
// Labels of a problem's fields in a problem list, not problems themselves.
const FIELD_LABEL =
  /^(prognosis|status|clinical status|verification status|severity|comments?|notes?|onset|onset date|resolution|resolution date|outcome|goals?|priority|course|author|authored|recorded|recorded by|source|last updated|date noted|noted)$/i;

// What may join two problems on one line ("Diabetes and hypertension stable").
const JOINERS = /\b(and|with|w\/|&|stable|controlled|well|uncontrolled|both|chronic)\b|[,/&+]/gi;

// Names of operations: in a problem or history list they are procedures, not conditions.
const PROCEDURE_WORD =
  /(ectomy|plasty|otomy|ostomy|oscopy|pexy|rrhaphy)\b|\b(repair|replacement|bypass|cabg|pci|stent|stenting|biopsy|transplant|ablation|amputation|fixation|orif|implantation|c-section|cesarean section|tubes)\b/i;
// What goes wrong with an operation's result is a condition ("Chronic rejection of renal transplant").
const NOT_A_PROCEDURE =
  /\b(rejection|failure|failed|infection|complications?|dysfunction|malfunction|stenosis|occlusion|thrombosis|leak)\b/i;
// Reasons for a visit that are not conditions.
const NOT_A_PROBLEM =
  /^\W*(born\b|discharged|admitted|readmitted|transferred|deceased|full[- ]term|term (birth|delivery)|uncomplicated|otherwise healthy|healthy|no significant|well (child|baby|adult|woman|man|visit)|routine (exam|physical|visit|check)|annual (exam|physical|visit)|health maintenance|preventive|encounter for|follow[- ]?up|medication refill)\b/i;

// An item pointing at others ("Other chronic diagnoses as noted above") names no problem of its own.
const REFERS_ELSEWHERE =
  /\b(as (noted|listed|stated|described|mentioned|documented) (above|below)|as above|see (above|below))\b/i;

function addCondition(doc: Doc, kind: 'problems' | 'past', line: Line, name: string, extra: string): void {
  const whole = `${name} ${extra}`;
  const ctx = itemContext(whole);
  if (ctx.negated || NOT_A_PROBLEM.test(name) || REFERS_ELSEWHERE.test(name)) return;
  if (PROCEDURE_WORD.test(name) && !NOT_A_PROCEDURE.test(name) && findConditions(name).length === 0) {
    return readDated(doc, 'surgical', line, `${name} ${extra.replace(/^[\s,]+/, '')}`.trim(), false, null, [name]);
  }
  if (ctx.family) return readFamily(doc, line, whole);
  // A drug with a dose is a medication, whatever list it sits in.
  if (findDrugs(name)[0]?.start === 0 && /\d\s*(mg|mcg|g|ml|units?)\b/i.test(name))
    return readProseDrugs(doc, line, whole);
  const mentions = findConditions(name);
  if (new Set(mentions.map((m) => m.concept.display)).size >= 2) {
    let rest = name;
    for (const m of [...mentions].reverse()) rest = rest.slice(0, m.start) + rest.slice(m.end);
    if (rest.replace(JOINERS, ' ').trim() === '') {
      for (const m of mentions) addCondition(doc, kind, line, name.slice(m.start, m.end), extra);
      return;
    }
  }
  const parts = parseCondition(name);
  if (!parts) return;
  const resolved = /\b(resolved|inactive|in remission|historical)\b/i.test(whole);
  const active = /\b(active|chronic|ongoing|current)\b/i.test(extra);
  const past = kind === 'past' || resolved || (ctx.past && !active);
  const dates = findDates(extra);
  const onset =
    parts.onset ?? dates.find((d) => !/resolved|ended/i.test(extra.slice(Math.max(0, d.index - 12), d.index)))?.iso;
  const end =
    parts.end ??
    (resolved
      ? dates.find((d) => /resolved|ended/i.test(extra.slice(Math.max(0, d.index - 12), d.index)))?.iso
      : undefined);
  const status: FactStatus = resolved ? 'resolved' : past ? 'unknown' : 'active';
  // A code in its own column ("I10      Essential hypertension") arrives with the other cells.
  const icd10 = parts.icd10 ?? /\(([A-TV-Z]\d{2}(?:\.\d{1,4}[A-Z]?)?)\)/.exec(extra)?.[1];
  addFact(doc, line, {
    section: past ? 'past_history' : 'current_conditions',
    category: 'condition',
    text: parts.text,
    ...(icd10 ? { code: { system: 'ICD-10-CM', code: icd10 } } : {}),
    status,
    ...(onset ? { onset } : {}),
    ...(end ? { end } : {}),
    ...(ctx.possible ? { certainty: 'possible' as const } : {}),
  });
}

function readDated(
  doc: Doc,
  kind: 'surgical' | 'immunizations',
  line: Line,
  text: string,
  inline: boolean,
  row: Row | null,
  cells: string[],
): void {
  const category: FactCategory = kind === 'surgical' ? 'procedure' : 'immunization';
  const items = row?.name
    ? [`${row.name} ${row.start ?? ''}`]
    : cells.length >= 2 && /\t|\s{2,}|\|/.test(text)
      ? [cells.join(' ')]
      : splitItems(stripBullet(text), inline);
  for (const item of items) {
    if (
      /^\W*(none|no (prior |previous |past )?(surgeries|surgical history|procedures|operations|immunizations on file)|unknown|not on file|n\/a)\W*$/i.test(
        item,
      )
    )
      continue;
    if (itemContext(item).negated || PLAN_LINE.test(item)) continue;
    const dates = findDates(item);
    const date = dates[0]?.iso;
    // The date is the fact's onset, not part of its name: "PCV20 (2024-02-05)" and "PCV20 02/05/2024"
    // both name "PCV20" (cutting the date out, with its own brackets, keeps the name's brackets whole).
    let undated = item;
    for (const d of [...dates].reverse())
      undated = `${undated.slice(0, d.index)} ${undated.slice(d.index + d.length)}`.replace(/\(\s*\)/g, ' ');
    undated = undated.replace(/[\s,;:-]+$/, '').replace(/\s{2,}/g, ' ');
    const parts = parseCondition(undated.replace(/\b(given|administered|on|done|performed|in)\s*$/i, ''));
    if (!parts) continue;
    const name = parts.text.replace(/\b(given|administered|on|done|performed|dose \d|#\d)\s*$/i, '').trim();
    if (!/[a-z]{3}/i.test(name)) continue;
    addFact(doc, line, { section: 'additional', category, text: name, ...(date ? { onset: date } : {}) });
  }
}

const ONLY_A_FREQUENCY =
  /^((as needed|daily|at bedtime|bedtime|once|twice|weekly|monthly|nightly|prn|every (day|week|month|morning|evening|night|other day|\d+ (hours?|days?|weeks?)))|((\d+(-\d+)?|one|two|three|four) times (per |a )?(day|daily|week|weekly)))(\s+(as needed|daily))?\.?$/i;

function readMedication(doc: Doc, block: Block, line: Line, text: string, row: Row | null, cells: string[]): void {
  const item = stripBullet(text);
  if (NONE_MEDS.test(item)) return addNoneKnown(doc, line, 'medications', displayCase(item.replace(/\.$/, '')));
  // "No facility-administered medications prior to visit.": boilerplate, never a drug.
  if (MED_DETAIL.test(item) || /^no\b/i.test(item)) return;
  // Epic writes the sig on the line under the drug: it completes the last medication.
  if (SIG_LINE.test(item) && block.lastMed && !row) {
    const merged = `${block.lastMed.text} ${item.replace(/^sig:?\s*/i, '')}`;
    const parts = parseMedication(merged);
    if (parts) {
      Object.assign(block.lastMed.fact, medicationFact(parts, block.kind === 'meds_stopped'));
      const cited = block.lastMed.fact.sources[0];
      if (cited) cited.quote = quoteOf(`${cited.quote} ${item}`);
      block.lastMed.text = merged;
    }
    return;
  }
  if (/\b(reviewed|reconciled|verified)\b/i.test(item) && wordCount(item) <= 8) return;
  let medText = item;
  let stoppedByStatus = false;
  // A line or a row's medication cell holding only how often ("2 times per day", "At Bedtime") names no drug.
  if (ONLY_A_FREQUENCY.test((row?.name ?? item).trim())) return;
  if (row?.name) {
    medText = [row.name, row.dose, row.route, row.frequency].filter(Boolean).join(' ');
    stoppedByStatus =
      /\b(stopped|discontinued|inactive|completed|held|expired|cancelled)\b/i.test(
        `${row.status ?? ''} ${row.end ?? ''}`,
      ) && !!(row.status || row.end);
  } else if (cells.length >= 2) medText = cells.join(' ');
  if (wordCount(medText) > 16 && !/\d\s*(mg|mcg|g|ml|units?)\b/i.test(medText))
    return readProse(doc, line, item, 'meds');
  const parts = parseMedication(medText);
  if (!parts || PLAN_LINE.test(parts.name) || /^(medications?|name|drug|sig|dose)$/i.test(parts.name)) return;
  const fact = addFact(doc, line, medicationFact(parts, block.kind === 'meds_stopped' || stoppedByStatus));
  block.lastMed = { fact, text: medText };
}

function medicationFact(parts: MedParts, stopped: boolean): Omit<ClinicalFact, 'sources' | 'recorded'> {
  const details: ClinicalFact['details'] = {
    ...(parts.dose ? { dose: parts.dose } : {}),
    ...(parts.route ? { route: parts.route } : {}),
    ...(parts.frequency ? { frequency: parts.frequency } : {}),
  };
  return {
    section: 'medications',
    category: 'medication',
    text: medicationText(parts),
    ...(Object.keys(details).length ? { details } : {}),
    status: stopped || parts.stopped ? 'stopped' : 'active',
  };
}

function readAllergies(doc: Doc, line: Line, text: string, inline: boolean, row: Row | null, cells: string[]): void {
  const item = stripBullet(text);
  // A paragraph under Allergies ("She reports a rash after amoxicillin as a child...") is prose.
  if (item.length > 160) return readProse(doc, line, item, 'other');
  const none = NONE_ALLERGIES.exec(item);
  if (none) {
    const said = /nkda|no known drug/i.test(none[0])
      ? 'No known drug allergies'
      : /nka\b|nkma/i.test(none[0])
        ? 'No known allergies'
        : displayCase(none[0].replace(/^allergies:?\s*/i, '').trim());
    return addNoneKnown(doc, line, 'allergies', said);
  }
  if (/\b(reviewed|verified|updated|not on file)\b/i.test(item) && wordCount(item) <= 8) return;
  const entries: { text: string; cells?: { reaction?: string; severity?: string } }[] = row?.name
    ? [
        {
          text: row.name,
          cells: {
            ...(row.reaction ? { reaction: row.reaction } : {}),
            ...(row.severity ? { severity: row.severity } : {}),
          },
        },
      ]
    : cells.length >= 2 && /\t|\s{2,}|\|/.test(text)
      ? [{ text: cells[0] ?? '', cells: { reaction: cells[1] ?? '', ...(cells[2] ? { severity: cells[2] } : {}) } }]
      : inlineAllergies(item, inline).map((t) => ({ text: t }));
  for (const entry of entries) {
    if (itemContext(entry.text).negated) continue;
    const parts = parseAllergy(entry.text.replace(/^(allergic to|allergy to)\s+/i, ''), entry.cells);
    // A row of an allergies table is an allergy, however long its name; a list item of many words is prose.
    if (!parts || wordCount(parts.allergen) > (row?.name ? 16 : 6)) continue;
    if (!parts.reaction) splitReaction(parts);
    const details: ClinicalFact['details'] = {
      ...(parts.reaction ? { reaction: parts.reaction } : {}),
      ...(parts.severity ? { severity: parts.severity } : {}),
    };
    addFact(doc, line, {
      section: 'allergies',
      category: 'allergy',
      text: parts.allergen,
      ...(Object.keys(details).length ? { details } : {}),
      status: 'active',
    });
  }
}

/** "PCN (hives); Sulfa - rash": semicolons always part entries; commas only where no entry has a reaction after "-" or ":". */
function inlineAllergies(item: string, inline: boolean): string[] {
  if (!inline) return [item];
  const entries = item.split(/;\s*/).filter(Boolean);
  return entries.flatMap((entry) => (/\s[-–—]\s|:/.test(entry) ? [entry] : splitItems(entry, true)));
}

const REACTION_AT_END = new RegExp(`^(.+?)\\s+(${REACTIONS.join('|')})$`, 'i');

/** "Penicillins Hives": a table row whose columns lost their gap. */
function splitReaction(parts: { allergen: string; key: string; reaction?: string }): void {
  const m = REACTION_AT_END.exec(parts.allergen);
  if (!m?.[1] || !m[2]) return;
  const allergen = parseAllergy(m[1]);
  if (!allergen) return;
  parts.allergen = allergen.allergen;
  parts.key = allergen.key;
  parts.reaction = m[2].toLowerCase();
}

function readFamily(doc: Doc, line: Line, text: string): void {
  const item = stripBullet(text)
    .replace(/^(family history|fhx?)\s*(of|:)?\s*/i, '')
    .replace(/\.$/, '');
  if (
    !item ||
    /^\W*(none|noncontributory|non-contributory|unknown|negative|no (known |significant )?family history|unremarkable|n\/a|reviewed)\b/i.test(
      item,
    )
  )
    return;
  if (!/[a-z]{3}/i.test(item)) return;
  addFact(doc, line, { section: 'additional', category: 'note', text: `Family history: ${item}` });
}

const LAB_NOISE =
  /^(collected|received|reported|specimen|ordering|ordered|performed|lab|laboratory|reference|test|result|status|final|fasting|comment|note|method|accession|page|date|time)\b/i;
const LAB_LINE =
  /^([A-Za-z](?:[A-Za-z0-9 ,()/%.'-]*?[A-Za-z0-9)%])?)\s*[:=]?\s*(<=|>=|<|>)?\s*(-?\d+(?:\.\d+)?|positive|negative|detected|not detected|reactive|non-reactive|nonreactive)\b\s*([a-zA-Zµ%][a-zA-Z0-9µ%/^.*]*(?:\/[a-zA-Z0-9.^]+)?)?(.*)$/i;
// What a unit looks like: a slash or percent, or a known unit ("for" in "positive for nitrite" is not one).
const UNIT =
  /[/%]|^(mg|g|kg|mcg|µg|ug|ng|pg|mmol|meq|iu|u|units?|fl|pct|sec|s|mm|mmhg|cm|k|m|x10\S*|cells|ratio|index|titer)$/i;
const FLAG = /(?:^|\s|\()(H|L|HH|LL|A|high|low|abnormal|critical|crit)(?:\)|\s|$|\*)/i;

function readLabs(doc: Doc, line: Line, text: string, inline: boolean, row: Row | null, cells: string[]): void {
  let items: string[];
  if (row?.name && row.value)
    items = [[row.name, row.value, row.unit, row.flag ? `(${row.flag})` : ''].filter(Boolean).join(' ')];
  else if (cells.length >= 2 && /\t|\s{2,}|\|/.test(text)) items = [cells.join(' ')];
  else items = inline || /,\s*[A-Za-z]/.test(text) ? splitItems(text, true) : [text];
  for (const raw of items) {
    const item = stripBullet(raw);
    if (LAB_NOISE.test(item)) continue;
    const m = LAB_LINE.exec(item);
    if (!m) continue;
    const name = (m[1] ?? '').replace(/[\s:]+$/, '');
    // One-letter analytes are capitals ("K 4.8"); otherwise a name has letters, and no date.
    if (findDates(name).length || wordCount(name) > 6 || !(/[a-z]{2}/i.test(name) || /^[A-Z]$/.test(name))) continue;
    const unit = m[4] && UNIT.test(m[4]) ? m[4] : undefined;
    const flag = FLAG.exec(` ${m[5] ?? ''} ${m[4] && !unit ? m[4] : ''} `)?.[1];
    const interpretation = flag
      ? ((
          { h: 'high', hh: 'critical high', l: 'low', ll: 'critical low', a: 'abnormal', crit: 'critical' } as Record<
            string,
            string
          >
        )[flag.toLowerCase()] ?? flag.toLowerCase())
      : undefined;
    const value = `${m[2] ?? ''}${m[3] ?? ''}`;
    addFact(doc, line, {
      section: 'additional',
      category: 'result',
      text: [displayCase(name), value, unit, interpretation ? `(${interpretation})` : ''].filter(Boolean).join(' '),
      details: { value, ...(unit ? { unit } : {}), ...(interpretation ? { interpretation } : {}) },
    });
  }
}

const VITALS: [RegExp, string, string][] = [
  [/\b(?:blood pressure|bp|b\/p)\s*:?\s*(\d{2,3}\s*\/\s*\d{2,3})(\s*mm ?hg)?/gi, 'Blood pressure', 'mmHg'],
  [/\b(?:heart rate|hr|pulse|p)\s*:?\s*(\d{2,3})\b(\s*(?:bpm|\/min|beats))?/gi, 'Heart rate', 'bpm'],
  [/\b(?:respiratory rate|resp(?:irations)?|rr|r)\s*:?\s*(\d{1,2})\b/gi, 'Respiratory rate', '/min'],
  [/\b(?:temperature|temp|t)\s*:?\s*(\d{2,3}(?:\.\d)?)\s*°?\s*([FC])?\b/gi, 'Temperature', ''],
  [
    /\b(?:spo2|sp02|o2 sat(?:uration)?|oxygen saturation|sao2|pulse ox)\s*:?\s*(\d{2,3})\s*%/gi,
    'Oxygen saturation',
    '%',
  ],
  [/\b(?:weight|wt)\s*:?\s*(\d{2,3}(?:\.\d+)?)\s*(kg|lbs?|pounds)\b/gi, 'Weight', ''],
  [/\b(?:height|ht)\s*:?\s*(\d{2,3}(?:\.\d+)?)\s*(cm|in|inches)\b/gi, 'Height', ''],
  [/\b(?:bmi)\s*:?\s*(\d{2}(?:\.\d+)?)/gi, 'BMI', 'kg/m2'],
];

const VITAL_HEADER =
  /^(bp|blood pressure|pulse|hr|heart rate|temp|temperature|resp|rr|respiratory rate|weight|wt|height|ht|bmi|spo2|o2 sat|pulse ox|date)$/i;

/**
 * A vital-signs table whose columns are the vitals ("Date  BP  Pulse  Temp"): the header is kept,
 * and each row is rewritten as "BP 132/80 Pulse 70 ..." for readVitals.
 */
function vitalColumns(block: Block, cells: string[], starts: number[] | null): string | null {
  const filled = cells.filter(Boolean);
  if (filled.length >= 3 && filled.every((c) => VITAL_HEADER.test(c))) {
    block.vitalHeader = { names: cells, starts };
    return '';
  }
  const header = block.vitalHeader;
  if (!header) return null;
  return cells
    .map((cell, i) => {
      let column = i;
      const at = starts?.[i];
      if (at !== undefined && header.starts) {
        const headerStarts = header.starts;
        column = headerStarts.reduce(
          (best, start, j) => (Math.abs(start - at) < Math.abs((headerStarts[best] ?? 0) - at) ? j : best),
          0,
        );
      }
      const name = header.names[column] ?? '';
      return cell && !/^date$/i.test(name) ? `${name} ${cell}` : '';
    })
    .join('  ');
}

function vitalCount(text: string): number {
  return VITALS.filter(([pattern]) => {
    pattern.lastIndex = 0;
    return pattern.test(text);
  }).length;
}

function readVitals(doc: Doc, line: Line, text: string): void {
  for (const [pattern, name, defaultUnit] of VITALS) {
    pattern.lastIndex = 0;
    const m = pattern.exec(text);
    if (!m) continue;
    const value = (m[1] ?? '').replace(/\s+/g, '');
    const unit =
      (name === 'Temperature'
        ? m[2]
          ? `°${m[2].toUpperCase()}`
          : Number(value) > 50
            ? '°F'
            : '°C'
        : name === 'Weight' || name === 'Height'
          ? (m[2] ?? '').toLowerCase().replace('pounds', 'lb').replace('lbs', 'lb')
          : defaultUnit) || undefined;
    addFact(doc, line, {
      section: 'additional',
      category: 'vital',
      text: [name, value, unit].filter(Boolean).join(' '),
      details: { value, ...(unit ? { unit } : {}) },
    });
  }
}

function readCareTeam(doc: Doc, line: Line, text: string): void {
  const item = stripBullet(text).replace(/\.$/, '');
  if (!/[a-z]{3}/i.test(item) || /^\W*(none|unknown|not on file)\b/i.test(item)) return;
  addFact(doc, line, { section: 'additional', category: 'care_team', text: item });
}

const STOP_CONTEXT =
  /\b(stopped|discontinued|d\/c'?d|dc'?d|held|came off|taken off|no longer (taking|using|on)|switched from|stop|discontinue|completed)\b/i;
const TAKING_CONTEXT =
  /\b(takes|taking|is on|are on|remains on|remain on|continues on|continue|continued|started|start|starting|restart|restarted|resume|resumed|begin|began|prescribed|increase|increased|decrease|decreased|reduce|reduced|change|changed|current medications|medications (are|include)|maintained on|currently on|home)\b/i;
// Not taken at home: suggestions, allergies, and doses given once in hospital ("received", "given").
const NOT_TAKEN =
  /\b(without|no|not|off|consider|considering|recommend|recommended|suggest|may|might|could|would|if|plan to|should|allergic|allergy|allergies|intolerant|intolerance|denies|not on|never|avoid|received|receiving|given|administered|treated with|bolus|nebs?|loaded with)\b/i;
const DOSE_AFTER = /^\s*(\([^)]*\)\s*)?(to\s+)?\d/;

/** Drugs named in prose: kept when a dose follows or the words around say it is taken or stopped. */
function readProseDrugs(doc: Doc, line: Line, text: string, ordered = false): void {
  // "metFORMIN (GLUCOPHAGE) 1000 MG": the bracketed brand names the same drug.
  const drugs = findDrugs(text).filter((d) => !insideBrackets(text, d.start));
  drugs.forEach((drug, i) => {
    const clauseStart = Math.max(
      text.lastIndexOf('. ', drug.start),
      text.lastIndexOf('; ', drug.start),
      drug.start - 300,
      0,
    );
    const before = text.slice(clauseStart, drug.start);
    const near = before.split(/\s+/).slice(-6).join(' ');
    if (NOT_TAKEN.test(near)) return;
    // The sig runs to the next drug or the end of the sentence.
    const stop = Math.min(
      drugs[i + 1]?.start ?? text.length,
      ...[text.indexOf('. ', drug.end), ordered ? -1 : text.indexOf('; ', drug.end)].filter((n) => n >= 0),
    );
    const name = text.slice(drug.start, drug.end);
    const after = text.slice(drug.end, stop).replace(/\s*(,|and|or)\s*$/i, '');
    const stoppedAfter = /^\s*(was|has been|were|is)\s+(stopped|discontinued|held)/i.test(after);
    const switchedTo = /switched from\b.*\bto\s*$/i.test(before);
    const stopped = !switchedTo && (STOP_CONTEXT.test(before.split(/\s+/).slice(-5).join(' ')) || stoppedAfter);
    if (!stopped && !ordered && !DOSE_AFTER.test(after) && !TAKING_CONTEXT.test(before)) return;
    const sig = parseMedication(
      `${name} ${after.replace(/^\s*(was|has been|were|is)\s+(stopped|discontinued|held)\b.*$/i, '')}`,
    );
    const parts: MedParts = { ...(sig ?? { stopped }), name: displayCase(name), key: drugKey(name), stopped };
    addFact(doc, line, medicationFact(parts, stopped), sentenceAround(text, drug.start, drug.end));
  });
}

// Common tests a letter quotes ("a creatinine of 1.4 mg/dL, an eGFR of 42").
const PROSE_RESULT =
  /\b(hemoglobin a1c|hba1c|a1c|creatinine|egfr|gfr|ldl|hdl|total cholesterol|triglycerides|tsh|free t4|potassium|sodium|hemoglobin|platelets?|wbc|white (?:blood )?cell count|inr|bnp|nt-probnp|troponin(?: i| t)?|ferritin|vitamin d|psa|alt|ast|albumin|urine albumin\/creatinine ratio|uacr|glucose)(?:\s+(?:level|value))?(?:\s+(?:of|was|is|at|=|:))?\s+(\d+(?:\.\d+)?)\s*(%|mg\/dl|mmol\/l|ng\/ml|pg\/ml|miu\/l|u\/l|g\/dl|mg\/g|k\/ul|ml\/min(?:\/1\.73\s?m2)?)?/gi;
// Vital signs in prose need their unit or a clear label ("SpO2 96%", "BP 180/100").
const PROSE_VITAL =
  /\b(spo2|sp02|o2 sat(?:uration)?|oxygen saturation)\s*(?:of|was|is|:)?\s*\d{2,3}\s*%|\b(bp|blood pressure)\s*(?:of|was|is|:)?\s*\d{2,3}\/\d{2,3}\b/gi;

/** Results and vital signs quoted in prose. */
function readProseResults(doc: Doc, line: Line, text: string): void {
  PROSE_RESULT.lastIndex = 0;
  for (let m = PROSE_RESULT.exec(text); m; m = PROSE_RESULT.exec(text)) {
    const end = m.index + m[0].length;
    const name = displayCase(m[1] ?? '');
    const value = m[2] ?? '';
    const unit = m[3];
    addFact(
      doc,
      line,
      {
        section: 'additional',
        category: 'result',
        text: [name, value, unit].filter(Boolean).join(' '),
        details: { value, ...(unit ? { unit } : {}) },
      },
      sentenceAround(text, m.index, end),
    );
  }
  PROSE_VITAL.lastIndex = 0;
  for (let m = PROSE_VITAL.exec(text); m; m = PROSE_VITAL.exec(text)) readVitals(doc, line, m[0]);
}

const PROSE_PROCEDURE =
  /\b(?:had|underwent|undergone|s\/p|status post|treated with|history of)\s+(?:an?\s+|the\s+)?((?:[\w-]+\s+){0,3}?[\w-]*(?:ectomy|plasty|otomy|ostomy|oscopy|pexy|amputation|repair|replacement|bypass|transplant|ablation|biopsy|cabg|stenting))\b/gi;

/** Operations told in prose: "He had a left below-knee amputation in 2021", "treated with lumpectomy". */
function readProseProcedures(doc: Doc, line: Line, text: string): void {
  PROSE_PROCEDURE.lastIndex = 0;
  for (let m = PROSE_PROCEDURE.exec(text); m; m = PROSE_PROCEDURE.exec(text)) {
    const end = m.index + m[0].length;
    const date = findDates(text.slice(end, end + 20))[0]?.iso;
    const fact = {
      section: 'additional' as const,
      category: 'procedure' as const,
      text: displayCase((m[1] ?? '').trim()),
    };
    addFact(doc, line, { ...fact, ...(date ? { onset: date } : {}) }, sentenceAround(text, m.index, end));
  }
}

function insideBrackets(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 200), at);
  return before.lastIndexOf('(') > before.lastIndexOf(')');
}

/** Prose: vocabulary conditions with their context, drugs with their sig, allergies and "NKDA". */
function readProse(doc: Doc, line: Line, text: string, kind: BlockKind): void {
  const none = NONE_ALLERGIES.exec(text);
  if (none && /allerg|nkda|nka/i.test(none[0])) {
    doc.noneKnown.push({
      section: 'allergies',
      text: /nkda|no known drug/i.test(none[0]) ? 'No known drug allergies' : 'No known allergies',
      recorded: doc.recorded,
      sources: [
        { ...source(doc, line), quote: quoteOf(sentenceAround(text, none.index, none.index + none[0].length)) },
      ],
    });
  }
  for (const mention of findConditions(text)) {
    // A list in brackets justifies something else ("CHA2DS2-VASc 5 (age, HTN, TIA)").
    if (insideBrackets(text, mention.start)) continue;
    const ctx = contextOf(text, mention.start, mention.end);
    if (ctx.negated || ctx.family) continue;
    const past =
      kind === 'past' ||
      ctx.past ||
      /\b(had|suffered|underwent)\s+(an?\s+)?$/i.test(text.slice(Math.max(0, mention.start - 16), mention.start));
    addFact(
      doc,
      line,
      {
        section: past ? 'past_history' : 'current_conditions',
        category: 'condition',
        text: mention.concept.display,
        status: past ? 'unknown' : 'active',
        ...(ctx.possible ? { certainty: 'possible' as const } : {}),
      },
      sentenceAround(text, mention.start, mention.end),
    );
  }
  readProseDrugs(doc, line, text);
  readProseProcedures(doc, line, text);
  readProseResults(doc, line, text);
  // A letter's addressee is on the care team ("Dear Dr. Placeholder,").
  const addressee = /^dear (dr\.?|doctor)\s+([A-Z][\w'-]+)/i.exec(text);
  if (addressee?.[2]) {
    addFact(doc, line, { section: 'additional', category: 'care_team', text: `Dr. ${addressee[2]}` }, addressee[0]);
  }
  if (kind === 'other' || kind === 'meds') {
    const allergic = /\ballergic to ([^.;]+)|\ballerg(?:y|ies) to ([^.;]+)/i.exec(text);
    if (allergic) {
      // "allergic to codeine, which causes nausea, and to shellfish"
      const list = (allergic[1] ?? allergic[2] ?? '').replace(/,?\s*which causes?\s+([^,]+)/gi, ' ($1)');
      for (const part of list.split(/,\s*(?:and\s+)?(?:to\s+)?|\s+and\s+(?:to\s+)?|\s+or\s+/)) {
        const parts = parseAllergy(part.trim());
        if (parts && wordCount(parts.allergen) <= 3) {
          const fact = {
            section: 'allergies' as const,
            category: 'allergy' as const,
            text: parts.allergen,
            ...(parts.reaction ? { details: { reaction: parts.reaction } } : {}),
            status: 'active' as const,
          };
          addFact(doc, line, fact, sentenceAround(text, allergic.index, allergic.index + allergic[0].length));
        }
      }
    }
  }
}
