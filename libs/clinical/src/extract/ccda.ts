import type { Element } from '@xmldom/xmldom';
import type { ClinicalFact, Code, FactCategory, FactStatus, SectionKey, SourceRef } from '../model';
import { isoDate, isPast, PREFERRED_SYSTEMS, shortQuote, systemFromOid, withoutUndefined } from './codes';
import { emptyPart, UnreadableError, type ExtractContext, type PartialResult } from './types';
import { attr, descendants, kid, kids, parseUntrustedXml, path, textOf, V3, XSI } from './xml';

type Kind = 'problems' | 'medications' | 'allergies' | 'immunizations' | 'procedures' | 'results' | 'vitals';

/** Sections by LOINC code, then by template (entries optional or required: same root). */
const BY_LOINC: Record<string, Kind> = {
  '11450-4': 'problems',
  '10160-0': 'medications',
  '48765-2': 'allergies',
  '11369-6': 'immunizations',
  '47519-4': 'procedures',
  '30954-2': 'results',
  '8716-3': 'vitals',
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
};

/** SNOMED CT codes that say "no known allergy" rather than naming one. */
const NO_KNOWN_ALLERGY = new Set(['716186003', '409137002', '428607008', '429625007', '428197003']);

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
    const text = narrative
      ? { filename: ctx.filename, page: null, text: title ? `${title}\n${narrative}` : narrative, ocr: false }
      : undefined;
    if (text) part.texts.push(text);
    const kind = sectionKind(section);
    if (!kind) continue;
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
    if (text && (part.facts.length > before || part.noneKnown.length > noneBefore)) Object.assign(text, { coveredByFacts: true });
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

/** Section narrative as lines: table rows as "a | b", paragraphs and list items each on a line. */
function narrativeText(text: Element | undefined): string {
  if (!text) return '';
  const lines: string[] = [];
  const walk = (el: Element) => {
    for (const child of kids(el)) {
      const name = child.localName;
      if (name === 'tr') lines.push(kids(child).map(textOf).join(' | '));
      else if (
        name === 'paragraph' ||
        name === 'item' ||
        name === 'caption' ||
        (name === 'content' && !kids(child).length)
      )
        lines.push(textOf(child));
      else walk(child);
    }
    // Text directly inside <text> or a list wrapper.
    for (let c = el.firstChild; c; c = c.nextSibling)
      if (c.nodeType === c.TEXT_NODE && textOf(c)) lines.push(textOf(c));
  };
  walk(text);
  return lines.filter(Boolean).join('\n');
}

function source(doc: Doc, quote: string): SourceRef {
  return { documentId: doc.ctx.documentId, filename: doc.ctx.filename, page: null, quote: shortQuote(quote) };
}

/** A coded concept: its code and the best readable name (displayName, narrative reference, original text). */
function concept(doc: Doc, el: Element | undefined): { code?: Code; text?: string } {
  if (!el) return {};
  const original = kid(el, 'originalText');
  const ref = attr(kid(original, 'reference'), 'value');
  const refText = ref ? doc.ids.get(ref.replace(/^#/, '')) : undefined;
  const originalText = refText || textOf(original) || undefined;
  const candidates = [el, ...kids(el, 'translation')].filter((c) => attr(c, 'code') && !attr(c, 'nullFlavor'));
  candidates.sort((a, b) => rank(systemFromOid(attr(a, 'codeSystem'))) - rank(systemFromOid(attr(b, 'codeSystem'))));
  const best = candidates[0];
  const display = attr(el, 'displayName') ?? candidates.map((c) => attr(c, 'displayName')).find(Boolean);
  const code: Code | undefined = best
    ? {
        system: systemFromOid(attr(best, 'codeSystem')),
        code: attr(best, 'code') as string,
        ...(attr(best, 'displayName') ? { display: attr(best, 'displayName') } : {}),
      }
    : undefined;
  return { code, text: display ?? originalText };
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
  const ref = attr(kid(kid(el, 'text'), 'reference'), 'value');
  return (ref && doc.ids.get(ref.replace(/^#/, ''))) || textOf(kid(el, 'text')) || undefined;
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
      return readProblem(doc, top, part);
    case 'medications':
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

function readProblem(doc: Doc, concern: Element, part: PartialResult): void {
  const observations = concern.localName === 'observation' ? [concern] : related(concern, 'observation');
  for (const obs of observations) {
    const value = kids(obs, 'value')[0];
    if (negated(obs)) {
      if (!attr(value, 'code') || attr(value, 'nullFlavor'))
        part.noneKnown.push({
          section: 'current_conditions',
          text: 'No known problems',
          sources: [source(doc, entryNarrative(doc, obs) ?? 'No known problems')],
        });
      continue;
    }
    const { code, text } = concept(doc, value);
    const name = text ?? entryNarrative(doc, obs);
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
    if (status === 'unknown') {
      const concernStatus = attr(kid(concern, 'statusCode'), 'code');
      if (end) status = 'resolved';
      else if (concernStatus === 'completed') status = 'resolved';
      else if (concernStatus === 'active' || concernStatus === 'suspended') status = 'active';
    }
    part.facts.push(
      fact(
        doc,
        status === 'resolved' ? 'past_history' : 'current_conditions',
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
    part.noneKnown.push({
      section: 'medications',
      text: 'No known medications',
      sources: [source(doc, entryNarrative(doc, sa) ?? 'No known medications')],
    });
    return;
  }
  const { code, text } = concept(doc, codeEl);
  const name = text ?? textOf(kid(material, 'name')) ?? entryNarrative(doc, sa);
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
  const route = attr(kid(sa, 'routeCode'), 'displayName');
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
  // Some records put the severity on the concern act, beside the allergy observation.
  const actDetails = concern.localName === 'act' ? related(concern, 'observation').filter(isAllergyDetail) : [];
  const observations =
    concern.localName === 'observation'
      ? [concern]
      : related(concern, 'observation').filter((o) => !isAllergyDetail(o));
  for (const obs of observations) {
    const substance = path(obs, 'participant', 'participantRole', 'playingEntity', 'code');
    const value = kids(obs, 'value')[0];
    const quote = entryNarrative(doc, obs);
    if (
      negated(obs) ||
      NO_KNOWN_ALLERGY.has(attr(value, 'code') ?? '') ||
      NO_KNOWN_ALLERGY.has(attr(substance, 'code') ?? '')
    ) {
      part.noneKnown.push({
        section: 'allergies',
        text:
          attr(value, 'displayName') && !negated(obs) ? (attr(value, 'displayName') as string) : 'No known allergies',
        sources: [source(doc, quote ?? 'No known allergies')],
      });
      continue;
    }
    const agent = concept(doc, substance);
    const name = agent.text ?? quote ?? concept(doc, value).text;
    if (!name) continue;
    const reactionObs = related(obs, 'observation', 'MFST');
    const reaction = reactionObs
      .map((r) => concept(doc, kids(r, 'value')[0]).text)
      .filter(Boolean)
      .join(', ');
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
    part.facts.push(
      fact(doc, 'allergies', 'allergy', name, quote ?? name, {
        code: agent.code,
        status: concernStatus === 'completed' ? 'resolved' : 'active',
        onset: low(kid(obs, 'effectiveTime')),
        details: Object.keys(details).length ? details : undefined,
      }),
    );
  }
}

function readImmunization(doc: Doc, sa: Element, part: PartialResult): void {
  if (negated(sa)) return; // declined or not given
  const { code, text } = concept(doc, path(sa, 'consumable', 'manufacturedProduct', 'manufacturedMaterial', 'code'));
  const name = text ?? entryNarrative(doc, sa);
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

function readProcedure(doc: Doc, el: Element, part: PartialResult): void {
  if (negated(el)) return;
  const { code, text } = concept(doc, kid(el, 'code'));
  const name = text ?? entryNarrative(doc, el);
  if (!name) return;
  const date = low(kid(el, 'effectiveTime'));
  part.facts.push(
    fact(doc, 'past_history', 'procedure', name, entryNarrative(doc, el) ?? name, {
      code,
      onset: date,
      status: 'resolved',
      recorded: date ?? doc.documentDate,
    }),
  );
}

function readResults(doc: Doc, category: 'result' | 'vital', el: Element, part: PartialResult): void {
  const observations =
    el.localName === 'organizer' ? kids(el, 'component').flatMap((c) => kids(c, 'observation')) : [el];
  for (const obs of observations) {
    if (negated(obs)) continue;
    const { code, text } = concept(doc, kid(obs, 'code'));
    const name = text ?? entryNarrative(doc, obs);
    if (!name) continue;
    const value = kids(obs, 'value')[0];
    const details: ClinicalFact['details'] = {};
    if (attr(value, 'value')) {
      details.value = attr(value, 'value');
      if (attr(value, 'unit') && attr(value, 'unit') !== '1') details.unit = attr(value, 'unit');
    } else if (value) {
      const coded = concept(doc, value).text ?? textOf(value);
      if (coded) details.value = coded;
    }
    const interpretation =
      concept(doc, kid(obs, 'interpretationCode')).text ?? attr(kid(obs, 'interpretationCode'), 'code');
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
