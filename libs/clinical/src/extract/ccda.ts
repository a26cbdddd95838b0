import type { Element } from '@xmldom/xmldom';
import type { ClinicalFact, Code, FactCategory, FactStatus, SectionKey, SourceRef } from '../model';
import {
  isoDate,
  isPast,
  PREFERRED_SYSTEMS,
  readableConceptName,
  readableLabName,
  shortQuote,
  systemFromOid,
  withoutUndefined,
} from './codes';
import { emptyPart, UnreadableError, type ExtractContext, type PartialResult } from './types';
import { attr, descendants, kid, kids, parseUntrustedXml, path, textOf, V3, XSI } from './xml';

type Kind =
  | 'problems'
  | 'past'
  | 'medications'
  | 'allergies'
  | 'immunizations'
  | 'procedures'
  | 'results'
  | 'vitals'
  | 'diagnoses'
  | 'no_facts';

/** Sections by LOINC code, then by template (entries optional or required: same root). */
const BY_LOINC: Record<string, Kind> = {
  '11450-4': 'problems',
  '10160-0': 'medications',
  '48765-2': 'allergies',
  '11369-6': 'immunizations',
  '47519-4': 'procedures',
  '30954-2': 'results',
  '8716-3': 'vitals',
  // Hospital documents: diagnoses are problems, admission and discharge medications medications,
  // the history of past illness past history.
  '11535-2': 'problems',
  '78375-3': 'problems',
  '46241-6': 'problems',
  '42347-5': 'problems',
  // Diagnoses before and after an operation or procedure.
  '10219-4': 'problems',
  '10218-6': 'problems',
  '59769-0': 'problems',
  '10183-2': 'medications',
  '75311-1': 'medications',
  '42346-7': 'medications',
  '11348-0': 'past',
  // Encounters and health concerns: only the diagnoses (Problem Observations) inside their entries.
  '46240-8': 'diagnoses',
  '75310-3': 'diagnoses',
  // Sections that hold none of the summary's facts (plans, goals, equipment, payers, instructions,
  // drugs given during a visit...): their tables' headings and rows are not conditions or medicines.
  '18776-5': 'no_facts',
  '61146-7': 'no_facts',
  '47420-5': 'no_facts',
  '10190-7': 'no_facts',
  '46264-8': 'no_facts',
  '48768-6': 'no_facts',
  '42348-3': 'no_facts',
  '8653-8': 'no_facts',
  '69730-0': 'no_facts',
  '29549-3': 'no_facts',
  '62387-6': 'no_facts',
  '11383-7': 'no_facts',
  '61144-2': 'no_facts',
  '29762-2': 'no_facts',
};
const BY_TEMPLATE: Record<string, Kind> = {
  '2.16.840.1.113883.10.20.22.2.5': 'problems',
  '2.16.840.1.113883.10.20.22.2.5.1': 'problems',
  '2.16.840.1.113883.10.20.22.2.1': 'medications',
  '2.16.840.1.113883.10.20.22.2.1.1': 'medications',
  '2.16.840.1.113883.10.20.22.2.6': 'allergies',
  '2.16.840.1.113883.10.20.22.2.6.1': 'allergies',
  '2.16.840.1.113883.10.20.22.2.2': 'immunizations',
  '2.16.840.1.113883.10.20.22.2.2.1': 'immunizations',
  '2.16.840.1.113883.10.20.22.2.7': 'procedures',
  '2.16.840.1.113883.10.20.22.2.7.1': 'procedures',
  '2.16.840.1.113883.10.20.22.2.3': 'results',
  '2.16.840.1.113883.10.20.22.2.3.1': 'results',
  '2.16.840.1.113883.10.20.22.2.4': 'vitals',
  '2.16.840.1.113883.10.20.22.2.4.1': 'vitals',
  '2.16.840.1.113883.10.20.22.2.24': 'problems', // hospital discharge diagnosis
  '2.16.840.1.113883.10.20.22.2.43': 'problems', // admission diagnosis
  '2.16.840.1.113883.10.20.22.2.11': 'medications', // discharge medications
  '2.16.840.1.113883.10.20.22.2.11.1': 'medications',
  '2.16.840.1.113883.10.20.22.2.44': 'medications', // admission medications
  '2.16.840.1.113883.10.20.22.2.20': 'past', // history of past illness
  '2.16.840.1.113883.10.20.22.2.22': 'diagnoses', // encounters
  '2.16.840.1.113883.10.20.22.2.22.1': 'diagnoses',
  '2.16.840.1.113883.10.20.22.2.58': 'diagnoses', // health concerns
  '2.16.840.1.113883.10.20.22.2.10': 'no_facts', // plan of treatment
  '2.16.840.1.113883.10.20.22.2.60': 'no_facts', // goals
  '2.16.840.1.113883.10.20.22.2.14': 'no_facts', // functional status
  '2.16.840.1.113883.10.20.22.2.56': 'no_facts', // mental status
  '2.16.840.1.113883.10.20.22.2.23': 'no_facts', // medical equipment
  '2.16.840.1.113883.10.20.22.2.18': 'no_facts', // payers
  '2.16.840.1.113883.10.20.22.2.21': 'no_facts', // advance directives
  '2.16.840.1.113883.10.20.22.2.21.1': 'no_facts',
  '2.16.840.1.113883.10.20.22.2.41': 'no_facts', // hospital discharge instructions
  '2.16.840.1.113883.10.20.22.2.45': 'no_facts', // instructions
  '2.16.840.1.113883.10.20.22.2.38': 'no_facts', // medications administered
  '2.16.840.1.113883.10.20.21.2.3': 'no_facts', // interventions
  '2.16.840.1.113883.10.20.22.2.61': 'no_facts', // health status evaluations and outcomes
  '2.16.840.1.113883.10.20.22.2.57': 'no_facts', // nutrition
  '2.16.840.1.113883.10.20.22.2.17': 'no_facts', // social history
};

/** The Problem Observation template: a diagnosis wherever it is nested (encounter diagnoses, health concerns). */
const PROBLEM_OBSERVATION = '2.16.840.1.113883.10.20.22.4.4';

/** SNOMED CT codes that say "no known allergy" rather than naming one. */
const NO_KNOWN_ALLERGY = new Set(['716186003', '409137002', '428607008', '429625007', '428197003']);

/**
 * Allergy observation values that name only the kind of reaction (C-CDA's Allergy and Intolerance
 * Type value set), not the substance: "Allergy to drug" is never an allergy's name.
 */
const ALLERGY_TYPES = new Set([
  '419199007', // allergy to substance
  '416098002', // allergy to drug
  '414285001', // allergy to food
  '59037007', // intolerance to drug
  '235719002', // intolerance to food
  '420134006', // propensity to adverse reactions
  '418038007', // propensity to adverse reactions to substance
  '419511003', // propensity to adverse reactions to drug
  '418471000', // propensity to adverse reactions to food
  '418634005', // allergic reaction to substance
  '609328004', // allergic disposition
  '782197009', // intolerance to substance
]);

/** Problem Type codes: a negated observation of one of them says "no known problems". */
const PROBLEM_TYPES = new Set([
  '55607006',
  '404684003',
  '64572001',
  '282291009',
  '409586006',
  '248536006',
  '418799008',
]);
/** SNOMED CT codes that state there are no problems at all. */
const NO_KNOWN_PROBLEM = new Set(['160245001', '1287571003']);
/** A negated medication of one of these (or of no drug) says "no known medications". */
const ANY_DRUG = new Set(['410942007', '182849000', '787481004']);
/** HL7 ObservationInterpretation codes sent without a displayName. */
const INTERPRETATIONS: Record<string, string> = {
  N: 'Normal',
  A: 'Abnormal',
  AA: 'Critical abnormal',
  H: 'High',
  HH: 'Critical high',
  L: 'Low',
  LL: 'Critical low',
  '>': 'Above the measurable range',
  '<': 'Below the measurable range',
  POS: 'Positive',
  NEG: 'Negative',
  DET: 'Detected',
  ND: 'Not detected',
};
/** moodCodes of things that happened (EVN) or are in place (a current order); others are plans. */
const DONE_MOODS = new Set(['EVN']);

/** The whole of one C-CDA document, kept while its sections are read. */
interface Doc {
  ctx: ExtractContext;
  /** Narrative elements by ID, for <reference value="#id">. */
  ids: Map<string, string>;
  documentDate?: string;
}

/** C-CDA (HL7 v3 ClinicalDocument): sections read as structured facts, codes kept, narrative kept as text. */
export function extractCcda(ctx: ExtractContext, xml: string): PartialResult {
  const part = emptyPart();
  const root = parseUntrustedXml(xml).documentElement;
  if (!root || root.localName !== 'ClinicalDocument' || root.namespaceURI !== V3) {
    throw new UnreadableError('This XML file is not a health record that can be read (it is not a C-CDA document).');
  }
  const doc: Doc = { ctx, ids: new Map() };
  for (const el of Array.from(root.getElementsByTagNameNS(V3, '*'))) {
    const id = attr(el, 'ID');
    if (id) doc.ids.set(id, textOf(el));
  }
  doc.documentDate = isoDate(attr(kid(root, 'effectiveTime'), 'value'));
  if (doc.documentDate) part.documentDate = doc.documentDate;

  for (const section of descendants(root, 'section')) {
    const title = textOf(kid(section, 'title'));
    const narrative = narrativeText(kid(section, 'text'));
    // The section's title is a heading by the document's own structure, as a PDF's bigger bold line is
    // ("## "; see pdf-layout.ts): a title the engine does not know ("Chief complaint(s) and reason for
    // visit") still ends the section above it instead of being read as one of its items.
    const text = narrative
      ? { filename: ctx.filename, page: null, text: title ? `## ${title}\n${narrative}` : narrative, ocr: false }
      : undefined;
    if (text) part.texts.push(text);
    const kind = sectionKind(section);
    if (!kind) continue;
    // A section with a nullFlavor ("No information") has nothing an engine could read as a fact.
    if (attr(section, 'nullFlavor')) {
      if (text) Object.assign(text, { coveredByFacts: true });
      continue;
    }
    const before = part.facts.length;
    const noneBefore = part.noneKnown.length;
    for (const entry of kids(section, 'entry')) {
      try {
        readEntry(doc, kind, entry, part);
      } catch {
        // One odd entry must not cost the rest of the record.
        ctx.logger.warn('ccda_entry_skipped', { kind });
      }
    }
    if (
      kind === 'allergies' &&
      part.facts.length === before &&
      part.noneKnown.every((n) => n.section !== 'allergies') &&
      /no known (drug )?allerg/i.test(narrative)
    ) {
      part.noneKnown.push({ section: 'allergies', text: 'No known allergies', sources: [source(doc, narrative)] });
    }
    if (
      text &&
      (part.facts.length > before || part.noneKnown.length > noneBefore || kind === 'no_facts' || kind === 'diagnoses')
    )
      Object.assign(text, { coveredByFacts: true });
  }
  ctx.logger.info('ccda_read', { facts: part.facts.length, sections: descendants(root, 'section').length });
  return part;
}

function sectionKind(section: Element): Kind | undefined {
  const loinc = attr(kid(section, 'code'), 'code');
  if (loinc && BY_LOINC[loinc]) return BY_LOINC[loinc];
  for (const t of kids(section, 'templateId')) {
    const kind = BY_TEMPLATE[attr(t, 'root') ?? ''];
    if (kind) return kind;
  }
  return undefined;
}

/** Narrative elements that run inside a line of text ("A <content>6 mm sessile polyp</content> was found"). */
const INLINE = new Set(['content', 'sub', 'sup', 'linkHtml', 'footnote', 'footnoteRef']);

/**
 * Section narrative as lines, in reading order: table rows as "a | b", paragraphs and list items each on
 * a line. Text with inline elements in it is one line, as printed; inline elements standing alone one
 * after another (no text between them) are a line each.
 */
function narrativeText(text: Element | undefined): string {
  if (!text) return '';
  const lines: string[] = [];
  const walk = (el: Element) => {
    let number = 0;
    let run: { text: string; inline: boolean }[] = [];
    const flush = () => {
      if (run.some((p) => !p.inline && p.text.trim())) lines.push(run.map((p) => p.text).join(''));
      else for (const p of run) lines.push(p.text);
      run = [];
    };
    for (let node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === node.TEXT_NODE) {
        run.push({ text: node.textContent ?? '', inline: false });
        continue;
      }
      if (node.nodeType !== node.ELEMENT_NODE) continue;
      const child = node as Element;
      const name = child.localName;
      if (INLINE.has(name ?? '') && !kids(child).some((k) => !INLINE.has(k.localName ?? '') && k.localName !== 'br')) {
        run.push({ text: child.textContent ?? '', inline: true });
        continue;
      }
      flush();
      if (name === 'br') continue;
      if (name === 'tr') lines.push(kids(child).map(textOf).join(' | '));
      // A list item keeps its mark, as the printed list shows it ("1." in an ordered list, else "-"):
      // "Pressure ulcer on left knee." in an Assessment's list is an item, not a sentence of prose.
      else if (name === 'item') {
        const mark = attr(el, 'listType') === 'ordered' ? `${++number}.` : '-';
        const item = textOf(child);
        if (item) lines.push(`${mark} ${item}`);
      } else if (name === 'paragraph' || name === 'caption') lines.push(textOf(child));
      else walk(child);
    }
    flush();
  };
  walk(text);
  return lines
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

function source(doc: Doc, quote: string): SourceRef {
  return { documentId: doc.ctx.documentId, filename: doc.ctx.filename, page: null, quote: shortQuote(quote) };
}

/** The narrative an element's <reference value="#id"> points at. */
function referenced(doc: Doc, el: Element | undefined): string | undefined {
  const ref = attr(kid(el, 'reference'), 'value')?.trim();
  return (ref && doc.ids.get(ref.replace(/^#/, ''))) || undefined;
}

/**
 * A coded concept: its code and the best readable name. Names come from the code's displayName,
 * else a translation's, else its originalText (inline or a reference into the section narrative).
 * A code with a nullFlavor is no code, but its translations are. For drugs (`kind` 'drug'), a brand
 * whose translation names the generic is shown by the generic with the brand in brackets.
 */
function concept(doc: Doc, el: Element | undefined, kind?: 'drug' | 'lab'): { code?: Code; text?: string } {
  if (!el) return {};
  const original = kid(el, 'originalText');
  const originalText = referenced(doc, original) || textOf(original) || undefined;
  const translations = kids(el, 'translation');
  const candidates = [el, ...translations].filter((c) => attr(c, 'code') && !attr(c, 'nullFlavor'));
  candidates.sort((a, b) => rank(systemFromOid(attr(a, 'codeSystem'))) - rank(systemFromOid(attr(b, 'codeSystem'))));
  const best = candidates[0];
  const own = attr(el, 'displayName')?.trim();
  const translated = translations
    .filter((t) => attr(t, 'displayName'))
    .sort((a, b) => rank(systemFromOid(attr(a, 'codeSystem'))) - rank(systemFromOid(attr(b, 'codeSystem'))))
    .map((t) => (attr(t, 'displayName') as string).trim());
  const named = own || translated[0] || originalText;
  let text = named === undefined ? undefined : readableConceptName(named);
  // The generic name: an RxNorm or SNOMED CT translation's (an NDC's names a package, often by brand).
  const generic = translations
    .filter((t) => ['RxNorm', 'SNOMED CT'].includes(systemFromOid(attr(t, 'codeSystem'))) && attr(t, 'displayName'))
    .map((t) => (attr(t, 'displayName') as string).trim())[0];
  if (kind === 'drug' && own && generic) {
    const first = generic.toLowerCase().split(/[\s,]+/)[0] ?? '';
    // "Lantus" with a translation "insulin glargine 100 UNT/ML": the generic leads, the brand stays.
    if (first.length > 2 && !own.toLowerCase().includes(first)) text = `${generic} (${own})`;
  }
  if (kind === 'lab' && text) text = readableLabName(text);
  const code: Code | undefined = best
    ? {
        system: systemFromOid(attr(best, 'codeSystem')),
        code: attr(best, 'code') as string,
        ...(attr(best, 'displayName') ? { display: attr(best, 'displayName') } : {}),
      }
    : undefined;
  return { code, text: text || undefined };
}

function rank(system: string): number {
  const i = PREFERRED_SYSTEMS.indexOf(system);
  return i < 0 ? PREFERRED_SYSTEMS.length : i;
}

function low(el: Element | undefined): string | undefined {
  return isoDate(attr(kid(el, 'low'), 'value') ?? attr(el, 'value'));
}
function high(el: Element | undefined): string | undefined {
  return isoDate(attr(kid(el, 'high'), 'value'));
}

/** The entry's own narrative text (its <text><reference>), for quotes. */
function entryNarrative(doc: Doc, el: Element | undefined): string | undefined {
  return referenced(doc, kid(el, 'text')) || textOf(kid(el, 'text')) || undefined;
}

/** Whether an entry records something that happened or holds now, not a plan, proposal or request. */
function happened(el: Element): boolean {
  const mood = attr(el, 'moodCode');
  const status = attr(kid(el, 'statusCode'), 'code');
  return (!mood || DONE_MOODS.has(mood)) && !['cancelled', 'nullified', 'new', 'held'].includes(status ?? '');
}

function negated(el: Element | undefined): boolean {
  return attr(el, 'negationInd') === 'true';
}

function related(el: Element | undefined, name: string, typeCode?: string): Element[] {
  return kids(el, 'entryRelationship')
    .filter((r) => !typeCode || attr(r, 'typeCode') === typeCode)
    .flatMap((r) => kids(r, name));
}

function fact(
  doc: Doc,
  section: SectionKey,
  category: FactCategory,
  text: string,
  quote: string | undefined,
  more: Partial<ClinicalFact>,
): ClinicalFact {
  return withoutUndefined({
    section,
    category,
    text,
    ...more,
    recorded: more.recorded ?? doc.documentDate,
    sources: [source(doc, quote || text)],
  });
}

function readEntry(doc: Doc, kind: Kind, entry: Element, part: PartialResult): void {
  const top = kids(entry)[0];
  if (!top) return;
  switch (kind) {
    case 'problems':
      return readProblem(doc, top, part, false);
    case 'diagnoses':
      // A negated diagnosis of a visit says nothing about the patient's other problems: skipped.
      for (const obs of descendants(top, 'observation').filter(
        (o) => !negated(o) && kids(o, 'templateId').some((t) => attr(t, 'root') === PROBLEM_OBSERVATION),
      ))
        readProblem(doc, obs, part, false);
      return;
    case 'no_facts':
      return;
    case 'past':
      return readProblem(doc, top, part, true);
    case 'medications':
      // A medication organizer (a regimen of several drugs) holds its activities as components.
      if (top.localName === 'organizer') {
        for (const sa of kids(top, 'component').flatMap((c) => kids(c, 'substanceAdministration')))
          readMedication(doc, sa, part);
        return;
      }
      // An admission or discharge medication act holds the medication activity.
      if (top.localName === 'act') {
        for (const sa of related(top, 'substanceAdministration')) readMedication(doc, sa, part);
        return;
      }
      return readMedication(doc, top, part);
    case 'allergies':
      return readAllergy(doc, top, part);
    case 'immunizations':
      return readImmunization(doc, top, part);
    case 'procedures':
      return readProcedure(doc, top, part);
    case 'results':
    case 'vitals':
      return readResults(doc, kind === 'vitals' ? 'vital' : 'result', top, part);
  }
}

/** A problem; in the history of past illness (`past`) it is past history unless its status says active. */
function readProblem(doc: Doc, concern: Element, part: PartialResult, past: boolean): void {
  const observations = concern.localName === 'observation' ? [concern] : related(concern, 'observation');
  for (const obs of observations) {
    const value = kids(obs, 'value')[0];
    const valueCode = attr(value, 'code') ?? '';
    if (negated(obs) || NO_KNOWN_PROBLEM.has(valueCode)) {
      // "No problems" (a negated Problem Type, or no code); a negated named problem is just not a fact.
      if (!valueCode || attr(value, 'nullFlavor') || PROBLEM_TYPES.has(valueCode) || NO_KNOWN_PROBLEM.has(valueCode))
        part.noneKnown.push({
          section: past ? 'past_history' : 'current_conditions',
          text: past ? 'No past illnesses' : 'No known problems',
          sources: [source(doc, entryNarrative(doc, obs) ?? (past ? 'No past illnesses' : 'No known problems'))],
        });
      continue;
    }
    const { code, text } = concept(doc, value);
    const name = text || entryNarrative(doc, obs);
    if (!name) continue;
    const onset = low(kid(obs, 'effectiveTime'));
    const end = high(kid(obs, 'effectiveTime'));
    const statusText = related(obs, 'observation')
      .filter(
        (o) => attr(kid(o, 'code'), 'code') === '33999-4' || /status/i.test(attr(kid(o, 'code'), 'displayName') ?? ''),
      )
      .map((o) =>
        `${attr(kids(o, 'value')[0], 'code') ?? ''} ${attr(kids(o, 'value')[0], 'displayName') ?? ''}`.toLowerCase(),
      )[0];
    // Problem status values: SNOMED CT 55561003 active, 73425007 inactive, 413322009 resolved.
    let status: FactStatus = 'unknown';
    if (statusText)
      status = /resolved|inactive|413322009|73425007/.test(statusText)
        ? 'resolved'
        : /active|55561003/.test(statusText)
          ? 'active'
          : 'unknown';
    // The narrative the entry points at is what a reader sees ("Asthma : Status - Active"): a status it
    // states outranks the concern act's bookkeeping status.
    const told = /\bstatus\s*[:\-–]?\s*(active|chronic|resolved|inactive)\b/i.exec(entryNarrative(doc, obs) ?? '')?.[1];
    if (status === 'unknown' && told) status = /active|chronic/i.test(told) ? 'active' : 'resolved';
    if (status === 'unknown') {
      // A concern act's status (an observation's own statusCode is always "completed": it says nothing).
      const concernStatus = concern.localName === 'act' ? attr(kid(concern, 'statusCode'), 'code') : undefined;
      if (end && isPast(end)) status = 'resolved';
      // A concern no longer followed (completed, aborted, suspended) is past history, as a printed
      // record's "Suspended" status column is read.
      else if (concernStatus === 'completed' || concernStatus === 'aborted' || concernStatus === 'suspended')
        status = 'resolved';
      else if (concernStatus === 'active') status = 'active';
    }
    const stated = (!!statusText || !!told) && status !== 'unknown';
    if (past && !stated) status = end && isPast(end) ? 'resolved' : 'unknown';
    part.facts.push(
      fact(
        doc,
        status === 'resolved' || (past && status !== 'active') ? 'past_history' : 'current_conditions',
        'condition',
        name,
        entryNarrative(doc, obs) ?? name,
        {
          code,
          status,
          onset,
          end,
          recorded: isoDate(attr(kid(kid(obs, 'author'), 'time'), 'value')),
        },
      ),
    );
  }
}

function readMedication(doc: Doc, sa: Element, part: PartialResult): void {
  const material = path(sa, 'consumable', 'manufacturedProduct', 'manufacturedMaterial');
  const codeEl = kid(material, 'code');
  if (negated(sa)) {
    // "No known medications" is a negated activity of no drug (or of "drug or medication"); a negated
    // named drug ("not taking aspirin") is not a medication and says nothing about the others.
    const drug = [codeEl, ...kids(codeEl, 'translation')].map((c) => attr(c, 'code')).filter(Boolean);
    if (drug.length === 0 || drug.some((c) => ANY_DRUG.has(c as string)))
      part.noneKnown.push({
        section: 'medications',
        text: 'No known medications',
        sources: [source(doc, entryNarrative(doc, sa) ?? 'No known medications')],
      });
    return;
  }
  const { code, text } = concept(doc, codeEl, 'drug');
  // The name from the code, else the material's own name, else the entry's narrative.
  const name = text || textOf(kid(material, 'name')) || entryNarrative(doc, sa);
  if (!name) return;
  const times = kids(sa, 'effectiveTime');
  // A medication's first effectiveTime is its date range; a periodic one (PIVL_TS) its frequency.
  const periodic = (t: Element) => /PIVL|EIVL/.test(t.getAttributeNS(XSI, 'type') ?? '');
  const range = times.find((t) => !periodic(t));
  const period = times.find(periodic);
  const onset = low(range);
  const end = high(range);
  const statusCode = attr(kid(sa, 'statusCode'), 'code');
  const status: FactStatus =
    statusCode === 'completed' || statusCode === 'aborted' || statusCode === 'cancelled' || isPast(end)
      ? 'stopped'
      : statusCode === 'active' || !end
        ? 'active'
        : 'unknown';
  const dose = kid(sa, 'doseQuantity');
  const details: ClinicalFact['details'] = {};
  if (attr(dose, 'value'))
    details.dose = [attr(dose, 'value'), attr(dose, 'unit') === '1' ? '' : attr(dose, 'unit')]
      .filter(Boolean)
      .join(' ');
  // NCI Thesaurus route names: "Oral Route of Administration" -> "Oral".
  const route = attr(kid(sa, 'routeCode'), 'displayName')?.replace(/\s+route of administration$/i, '');
  if (route) details.route = route;
  const every = kid(period, 'period');
  if (attr(every, 'value')) details.frequency = `every ${attr(every, 'value')} ${attr(every, 'unit') ?? ''}`.trim();
  part.facts.push(
    fact(doc, 'medications', 'medication', name, entryNarrative(doc, sa) ?? name, {
      code,
      status,
      onset,
      end,
      details: Object.keys(details).length ? details : undefined,
    }),
  );
}

/** A severity (SEV) or criticality (LOINC 82606-5) observation: a detail of an allergy, not one itself. */
function isAllergyDetail(obs: Element): boolean {
  const code = attr(kid(obs, 'code'), 'code');
  return code === 'SEV' || code === '82606-5';
}

function readAllergy(doc: Doc, concern: Element, part: PartialResult): void {
  // Some records put the severity, or a reaction (MFST), on the concern act, beside the allergy
  // observation: details of that allergy, not allergies of their own.
  const actDetails = concern.localName === 'act' ? related(concern, 'observation').filter(isAllergyDetail) : [];
  const actReactions = concern.localName === 'act' ? related(concern, 'observation', 'MFST') : [];
  const observations =
    concern.localName === 'observation'
      ? [concern]
      : kids(concern, 'entryRelationship')
          .filter((r) => attr(r, 'typeCode') !== 'MFST')
          .flatMap((r) => kids(r, 'observation'))
          .filter((o) => !isAllergyDetail(o));
  for (const obs of observations) {
    const entity = path(obs, 'participant', 'participantRole', 'playingEntity');
    const substance = kid(entity, 'code');
    const value = kids(obs, 'value')[0];
    const quote = entryNarrative(doc, obs) ?? entryNarrative(doc, concern);
    const agent = concept(doc, substance);
    // The substance's name: its code, else the playing entity's <name>, else what the allergy
    // observation's value names when that is a substance ("Allergy to penicillin"), not a kind.
    const valueConcept = ALLERGY_TYPES.has(attr(value, 'code') ?? '') ? {} : concept(doc, value);
    const named =
      agent.text ||
      textOf(kid(entity, 'name')) ||
      valueConcept.text?.replace(/^(allergy|intolerance|allergic reaction)( to)?\s+/i, '') ||
      undefined;
    const specific = !!(agent.code || named);
    if (NO_KNOWN_ALLERGY.has(attr(value, 'code') ?? '') || NO_KNOWN_ALLERGY.has(attr(substance, 'code') ?? '')) {
      if (!negated(obs))
        part.noneKnown.push({
          section: 'allergies',
          text: attr(value, 'displayName') ?? attr(substance, 'displayName') ?? 'No known allergies',
          sources: [source(doc, quote ?? 'No known allergies')],
        });
      continue;
    }
    if (negated(obs)) {
      // A negated allergy of no substance (nullFlavor) is "no known allergies"; "not allergic to
      // peanuts" only says that, and is no allergy.
      if (!specific)
        part.noneKnown.push({
          section: 'allergies',
          text: 'No known allergies',
          sources: [source(doc, quote ?? 'No known allergies')],
        });
      continue;
    }
    const name = named ?? quote;
    if (!name) continue;
    const reactionObs = [...related(obs, 'observation', 'MFST'), ...(observations.length === 1 ? actReactions : [])];
    const reaction = [
      ...new Set(
        reactionObs
          .filter((r) => !negated(r))
          .map((r) => concept(doc, kids(r, 'value')[0]).text)
          .filter(Boolean),
      ),
    ].join(', ');
    const severityObs = [
      ...related(obs, 'observation', 'SUBJ'),
      ...reactionObs.flatMap((r) => related(r, 'observation', 'SUBJ')),
      ...actDetails,
    ].find(
      (o) => attr(kid(o, 'code'), 'code') === 'SEV' || /severity/i.test(attr(kid(o, 'code'), 'displayName') ?? ''),
    );
    const severity = concept(doc, kids(severityObs, 'value')[0]).text;
    const details: ClinicalFact['details'] = {};
    if (reaction) details.reaction = reaction;
    if (severity) details.severity = severity;
    const concernStatus = attr(kid(concern, 'statusCode'), 'code');
    // Allergy Status Observation (LOINC 33999-4): active, inactive or resolved.
    const statusValue = related(obs, 'observation')
      .filter((o) => attr(kid(o, 'code'), 'code') === '33999-4')
      .map((o) => `${attr(kids(o, 'value')[0], 'code') ?? ''} ${attr(kids(o, 'value')[0], 'displayName') ?? ''}`)[0];
    const resolved =
      /resolved|inactive|413322009|73425007/i.test(statusValue ?? '') ||
      concernStatus === 'completed' ||
      isPast(high(kid(obs, 'effectiveTime')));
    part.facts.push(
      fact(doc, 'allergies', 'allergy', name, quote ?? name, {
        code: agent.code ?? valueConcept.code,
        status: resolved ? 'resolved' : 'active',
        onset: low(kid(obs, 'effectiveTime')),
        details: Object.keys(details).length ? details : undefined,
      }),
    );
  }
}

function readImmunization(doc: Doc, sa: Element, part: PartialResult): void {
  if (negated(sa) || !happened(sa)) return; // declined, not given, or only planned
  const material = path(sa, 'consumable', 'manufacturedProduct', 'manufacturedMaterial');
  const { code, text } = concept(doc, kid(material, 'code'));
  const name = text || textOf(kid(material, 'name')) || entryNarrative(doc, sa);
  if (!name) return;
  const date = low(kids(sa, 'effectiveTime')[0]);
  part.facts.push(
    fact(doc, 'additional', 'immunization', name, entryNarrative(doc, sa) ?? name, {
      code,
      onset: date,
      recorded: date ?? doc.documentDate,
    }),
  );
}

/**
 * A procedure (Procedure Activity Procedure, Observation or Act): something done to the patient,
 * listed with the other procedures under Additional Categories. Never a condition: it has no
 * "resolved" status. Planned, cancelled and negated ones ("not done") are not facts.
 */
function readProcedure(doc: Doc, el: Element, part: PartialResult): void {
  if (!['procedure', 'observation', 'act'].includes(el.localName ?? '')) return;
  if (negated(el) || !happened(el)) return;
  const { code, text } = concept(doc, kid(el, 'code'));
  const name = text || entryNarrative(doc, el);
  if (!name) return;
  const date = low(kid(el, 'effectiveTime'));
  part.facts.push(
    fact(doc, 'additional', 'procedure', name, entryNarrative(doc, el) ?? name, {
      code,
      onset: date,
      recorded: date ?? doc.documentDate,
    }),
  );
}

function readResults(doc: Doc, category: 'result' | 'vital', el: Element, part: PartialResult): void {
  const observations =
    el.localName === 'organizer' ? kids(el, 'component').flatMap((c) => kids(c, 'observation')) : [el];
  for (const obs of observations) {
    if (negated(obs)) continue;
    const { code, text } = concept(doc, kid(obs, 'code'), 'lab');
    const name = text || entryNarrative(doc, obs);
    if (!name) continue;
    const value = kids(obs, 'value')[0];
    const details: ClinicalFact['details'] = {};
    const lowEnd = kid(value, 'low');
    const highEnd = kid(value, 'high');
    if (attr(value, 'value')) {
      details.value = attr(value, 'value');
      if (attr(value, 'unit') && attr(value, 'unit') !== '1') details.unit = attr(value, 'unit');
    } else if (attr(lowEnd, 'value') || attr(highEnd, 'value')) {
      // An interval (IVL_PQ): "> 500 mg/dL" (above what the lab measures), "< 5", "0-5".
      const [from, to] = [attr(lowEnd, 'value'), attr(highEnd, 'value')];
      const open = (end: Element | undefined) => attr(end, 'inclusive') === 'false';
      details.value =
        from && to
          ? `${from}-${to}`
          : from
            ? `${open(lowEnd) ? '>' : '>='} ${from}`
            : `${open(highEnd) ? '<' : '<='} ${to}`;
      const unit = attr(lowEnd, 'unit') ?? attr(highEnd, 'unit');
      if (unit && unit !== '1') details.unit = unit;
    } else if (value) {
      const coded = concept(doc, value).text || textOf(value);
      if (coded) details.value = coded;
    }
    const interpretationCode = attr(kid(obs, 'interpretationCode'), 'code');
    const interpretation =
      concept(doc, kid(obs, 'interpretationCode')).text ??
      (interpretationCode ? (INTERPRETATIONS[interpretationCode] ?? interpretationCode) : undefined);
    if (interpretation) details.interpretation = interpretation;
    const date = low(kid(obs, 'effectiveTime'));
    const shown = details.value ? `${name}: ${details.value}${details.unit ? ' ' + details.unit : ''}` : name;
    part.facts.push(
      fact(doc, 'additional', category, shown, entryNarrative(doc, obs) ?? shown, {
        code,
        onset: date,
        recorded: date ?? doc.documentDate,
        details: Object.keys(details).length ? details : undefined,
      }),
    );
  }
}
