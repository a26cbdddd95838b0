// The pure part of the summary: fact ids, the patient's changes applied to the engine's output, and
// the API's wire shape. No I/O here, so it is unit-tested directly and moves unchanged.
import { createHash } from 'node:crypto';
import {
  buildSummary,
  nameKey,
  SECTION_KEYS,
  type ClinicalFact,
  type ExtractionProblem,
  type FactCategory,
  type NoneKnown,
  type SectionKey,
  type SourceRef,
} from '@medfolio/clinical';
import type { SummaryFact, SummaryItem, SummarySectionItem, SummarySource, TimelineEvent } from '@medfolio/contracts';
import { fetchedFromText, type FetchedSources } from './trends-model';

export type IdentifiedFact = ClinicalFact & { id: string };

/** What the engine read for one patient, merged, with stable fact ids: stored with each version. */
export interface EngineOutput {
  facts: IdentifiedFact[];
  noneKnown: NoneKnown[];
  droppedUnsupported: number;
  /** Parts the engine could not read (openai: a chunk whose answer was unusable), shown with their document. */
  problems?: ExtractionProblem[];
  /** Medicines whose dose changed between documents (from the facts before merging): the trends timeline's 'changed' events. */
  changes?: TimelineEvent[];
}

/**
 * A document's problems as the patient sees them: its own reading's, then the engine's for the same
 * document (the engine names a document by its filename).
 */
export function problemsOfDocument(document: { filename: string; problems: string[] }, output: EngineOutput | null): string[] {
  const fromEngine = (output?.problems ?? []).filter((p) => p.filename === document.filename).map((p) => p.reason);
  return [...document.problems, ...fromEngine.filter((reason) => !document.problems.includes(reason))];
}

/** A patient's change to one fact (the service's view of a FactOverride row). */
export interface Override {
  factId: string;
  section: SectionKey;
  added: boolean;
  hidden: boolean;
  text: string | null;
}

/** UUID-shaped digest (version nibble 5, RFC 4122 variant) of a name: the same name, the same id. */
function uuidOf(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex').slice(0, 32).split('');
  hex[12] = '5';
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Ids derived from section + category + normalised name (the merge's own key), so a rebuild gives
 * the same fact the same id and the patient's changes find it again. Two facts with one key in a
 * section (rare: the merge joins them) are told apart by their order.
 */
export function identify(facts: ClinicalFact[]): IdentifiedFact[] {
  const seen = new Map<string, number>();
  return facts.map((fact) => {
    const key = `${fact.section}|${fact.category}|${nameKey(fact) || fact.text.toLowerCase()}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return { ...fact, id: uuidOf(n === 0 ? key : `${key}#${n}`) };
  });
}

/** The category a fact the patient adds gets in each section. */
const ADDED_CATEGORY: Record<SectionKey, FactCategory> = {
  current_conditions: 'condition',
  past_history: 'condition',
  medications: 'medication',
  allergies: 'allergy',
  additional: 'note',
};

export interface AppliedSummary {
  text: string;
  sections: SummarySectionItem[];
}

interface Marked {
  fact: IdentifiedFact;
  hidden: boolean;
  edited: boolean;
  added: boolean;
}

/**
 * The engine's output with the patient's changes: hidden facts stay in the sections (marked, for the
 * owner) but leave the text and the section's state (shares show neither); corrected text replaces
 * the engine's; added facts join their section with no sources. Changes whose fact is gone (the
 * document was deleted) wait, unused, for it to come back.
 */
export function applyOverrides(output: EngineOutput, overrides: Override[], fetched?: FetchedSources): AppliedSummary {
  const toWireSource = (source: SourceRef): SummarySource => wireSource(source, fetched);
  const toWireFact = (marked: Marked): SummaryFact => wireFact(marked, toWireSource);
  const byId = new Map(overrides.map((o) => [o.factId, o]));
  const marked: Marked[] = output.facts.map((fact) => {
    const change = byId.get(fact.id);
    const text = change?.text ?? null;
    return {
      fact: text ? { ...fact, text } : fact,
      hidden: change?.hidden ?? false,
      edited: text !== null && text !== fact.text,
      added: false,
    };
  });
  for (const change of overrides) {
    if (!change.added || !change.text) continue;
    marked.push({
      fact: { id: change.factId, section: change.section, category: ADDED_CATEGORY[change.section], text: change.text, sources: [] },
      hidden: change.hidden,
      edited: false,
      added: true,
    });
  }
  const shown = marked.filter((m) => !m.hidden);
  const built = buildSummary(
    shown.map((m) => m.fact),
    output.noneKnown,
    output.droppedUnsupported,
  );
  const markOf = new Map<ClinicalFact, Marked>(marked.map((m) => [m.fact, m]));
  const sections = SECTION_KEYS.map((key): SummarySectionItem => {
    const section = built.sections.find((s) => s.key === key);
    if (!section) throw new Error(`buildSummary left out the section ${key}`);
    // buildSummary keeps the objects it is given, so each fact finds its marks again; hidden ones follow.
    const visible = section.facts.map((fact) => markOf.get(fact)).filter((m): m is Marked => m !== undefined);
    const hidden = marked.filter((m) => m.hidden && m.fact.section === key);
    return {
      key,
      title: section.title,
      state: section.state,
      facts: [...visible, ...hidden].map(toWireFact),
      none_known: section.noneKnown ? { text: section.noneKnown.text, sources: section.noneKnown.sources.map(toWireSource) } : null,
    };
  });
  return { text: built.text, sections };
}

/** A source as the API shows it; one whose document was fetched from a hospital or a clinic's link also says from where. */
function wireSource(source: SourceRef, fetched: FetchedSources | undefined): SummarySource {
  const wire: SummarySource = { document_id: source.documentId, filename: source.filename, page: source.page, quote: source.quote };
  const entry = fetched?.get(source.documentId);
  return entry ? { ...wire, fetched_from: fetchedFromText(entry) } : wire;
}

function wireFact({ fact, hidden, edited, added }: Marked, toWireSource: (source: SourceRef) => SummarySource): SummaryFact {
  const details = fact.details && Object.keys(fact.details).length > 0 ? ({ ...fact.details } as Record<string, string>) : null;
  return {
    id: fact.id,
    text: fact.text,
    category: fact.category,
    status: fact.status ?? null,
    onset: fact.onset ?? null,
    end: fact.end ?? null,
    code: fact.code ? { ...fact.code } : null,
    details,
    certainty: fact.certainty ?? null,
    hidden,
    edited,
    added_by_patient: added,
    sources: fact.sources.map(toWireSource),
  };
}

/** Where the fact with this id is: in the engine's output, or added by the patient. */
export function findFact(output: EngineOutput, overrides: Override[], factId: string): { section: SectionKey; added: boolean } | null {
  const fact = output.facts.find((f) => f.id === factId);
  if (fact) return { section: fact.section, added: false };
  const added = overrides.find((o) => o.factId === factId && o.added);
  return added ? { section: added.section, added: true } : null;
}

export const EMPTY_OUTPUT: EngineOutput = { facts: [], noneKnown: [], droppedUnsupported: 0 };

/** The summary before anything was built: every section "Not recorded". */
export function emptySummary(): AppliedSummary {
  return applyOverrides(EMPTY_OUTPUT, []);
}

export type { SummaryItem };
