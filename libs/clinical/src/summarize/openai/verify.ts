// Checking the model's answer against the pages it cites. A fact is kept only when its quote is on
// the cited page and the quote (or page) names what the fact is about; anything else is dropped
// and counted, so a hallucinated fact never reaches the summary.
import type { ClinicalFact, Code, FactCategory, NoneKnown, SectionKey, SourceRef } from '../../model';
import { nameKey } from '../merge';
import { drugKey, findConditions } from '../parsers';
import { normaliseKey, quoteOf } from '../text';
import type { LabelledPage } from './prompt';
import type { ModelFact, ModelNoneKnown } from './schema';

/** Case, accents, punctuation and whitespace off; a word hyphenated across a line break joined again. */
export function normaliseForMatch(text: string): string {
  return normaliseKey(text.replace(/([A-Za-z])-[ \t]*\r?\n\s*([A-Za-z])/g, '$1$2'));
}

// Words that say nothing about which fact it is: a quote sharing only these does not support it.
const GENERIC = new Set(
  'the and of with for from by to in on at or as is was are has had have history hx status post type acute chronic left right bilateral mild moderate severe unspecified other mg mcg ml tablet tablets tab capsule capsules daily twice once times day mouth oral po bid tid qid prn as needed dose units unit taking take takes'.split(
    ' ',
  ),
);

/** The words that name a fact (its drug, condition, allergen, test...): what its citation must contain. */
export function keyWords(fact: ClinicalFact): string[] {
  return [...new Set(normaliseKey(nameKey(fact)).split(' '))].filter(
    (w) => w.length >= 2 && !GENERIC.has(w) && !/^\d+$/.test(w),
  );
}

function hasWord(words: Set<string>, word: string): boolean {
  return words.has(word) || words.has(`${word}s`) || (word.endsWith('s') && words.has(word.slice(0, -1)));
}

/**
 * Whether `text` (a quote or a page) names the fact: every key word appears in it, or it names the
 * same condition or drug by another name the vocabulary knows ("DM2", "Glucophage").
 */
function names(fact: ClinicalFact, key: string[], text: string): boolean {
  const words = new Set(normaliseForMatch(text).split(' '));
  if (key.length && key.every((w) => hasWord(words, w))) return true;
  const factKey = normaliseKey(nameKey(fact));
  if (fact.category === 'condition')
    return findConditions(text).some((m) => normaliseKey(m.concept.display) === factKey);
  if (fact.category === 'medication') return [...words].some((w) => drugKey(w) === factKey);
  return false;
}

const ISO_DATE = /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/;

const SECTION_OF: Partial<Record<FactCategory, SectionKey>> = { medication: 'medications', allergy: 'allergies' };

/** The section a category belongs in (a drug is never a condition), whatever the model said. */
function sectionFor(fact: ModelFact): SectionKey {
  const fixed = SECTION_OF[fact.category];
  if (fixed) return fixed;
  if (fact.category === 'condition') return fact.section === 'past_history' ? 'past_history' : 'current_conditions';
  return 'additional';
}

export interface VerifyContext {
  documentId: string;
  /** The pages the model was shown, by label. */
  pages: LabelledPage[];
  /** The document's date, for `recorded`. */
  recorded: string;
}

/** The cited page and a source for it, when the quote is really on that page; else null. */
function cite(
  ctx: VerifyContext,
  citation: { page: number; quote: string },
): { page: LabelledPage; ref: SourceRef } | null {
  const page = ctx.pages.find((p) => p.label === citation.page);
  const quote = normaliseForMatch(citation.quote);
  // A quote of one or two letters would be "found" anywhere.
  if (!page || quote.replace(/ /g, '').length < 3) return null;
  if (!` ${normaliseForMatch(page.source.text)} `.includes(` ${quote} `)) return null;
  return {
    page,
    ref: {
      documentId: ctx.documentId,
      filename: page.source.filename,
      page: page.source.page,
      quote: quoteOf(citation.quote),
    },
  };
}

/** Numbers the fact states (a dose, a value) must be on the page too. */
function numbersOnPage(fact: ModelFact, pageText: string): boolean {
  const numbers = [fact.details.dose, fact.details.value].flatMap((v) => (v ? (v.match(/\d+(?:\.\d+)?/g) ?? []) : []));
  const onPage = new Set(pageText.match(/\d+(?:\.\d+)?/g) ?? []);
  return numbers.every((n) => onPage.has(n));
}

/** The fact as the summary keeps it, or null when its citation does not support it. */
export function verifyFact(ctx: VerifyContext, fact: ModelFact): ClinicalFact | null {
  const cited = cite(ctx, fact.citation);
  if (!cited) return null;
  const details = Object.fromEntries(
    Object.entries(fact.details).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].trim() !== ''),
  ) as ClinicalFact['details'];
  const pageText = cited.page.source.text;
  const code: Code | undefined =
    fact.code && ` ${normaliseForMatch(pageText)} `.includes(` ${normaliseForMatch(fact.code.code)} `)
      ? { system: fact.code.system, code: fact.code.code }
      : undefined;
  const result: ClinicalFact = {
    section: sectionFor(fact),
    category: fact.category,
    text: fact.text.trim(),
    ...(details && Object.keys(details).length ? { details } : {}),
    ...(code ? { code } : {}),
    status: fact.status,
    ...(fact.onset && ISO_DATE.test(fact.onset) ? { onset: fact.onset } : {}),
    ...(fact.end && ISO_DATE.test(fact.end) ? { end: fact.end } : {}),
    recorded: ctx.recorded,
    ...(fact.certainty === 'possible' ? { certainty: 'possible' as const } : {}),
    sources: [cited.ref],
  };
  return supports(result, fact.citation.quote, pageText) && numbersOnPage(fact, pageText) ? result : null;
}

/** The quote is about this fact (names it, or part of it when the page names the rest). */
function supports(fact: ClinicalFact, quote: string, pageText: string): boolean {
  const key = keyWords(fact);
  if (names(fact, key, quote)) return true;
  const quoteWords = new Set(normaliseForMatch(quote).split(' '));
  return key.some((w) => hasWord(quoteWords, w)) && names(fact, key, pageText);
}

const NONE_WORDS = /\b(no|none|nka|nkda|nkma|denies|denied|negative|not)\b/;

/** A none-known statement, or null unless its quote is on the page and says "no" / "none". */
export function verifyNoneKnown(ctx: VerifyContext, statement: ModelNoneKnown): NoneKnown | null {
  const cited = cite(ctx, statement.citation);
  if (!cited || !NONE_WORDS.test(normaliseForMatch(statement.citation.quote))) return null;
  return { section: statement.section, text: statement.text.trim(), recorded: ctx.recorded, sources: [cited.ref] };
}
