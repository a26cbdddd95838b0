// The summary: five sections in the spec's order, each with its state, and the spec's text
// (a bold heading line per section, then one fact per line).
import {
  FACT_CATEGORIES,
  SECTION_KEYS,
  SECTION_TITLES,
  type BuiltSummary,
  type ClinicalFact,
  type NoneKnown,
  type SummarySection,
} from '../model';
import { dateKey } from './text';

const statusRank = (fact: ClinicalFact): number =>
  fact.status === 'active' ? 0 : fact.status === 'resolved' || fact.status === 'stopped' ? 2 : 1;
const factDate = (fact: ClinicalFact): string => dateKey(fact.onset ?? fact.recorded);

// Additional Categories are grouped by kind, in the issue's order.
const categoryRank = (fact: ClinicalFact): number => FACT_CATEGORIES.indexOf(fact.category);

/** Active first, then newest first, then by text: the same facts always give the same order. */
export function compareFacts(a: ClinicalFact, b: ClinicalFact): number {
  return (
    categoryRank(a) - categoryRank(b) ||
    statusRank(a) - statusRank(b) ||
    factDate(b).localeCompare(factDate(a)) ||
    a.text.localeCompare(b.text)
  );
}

const CATEGORY_LABELS: Partial<Record<ClinicalFact['category'], string>> = {
  immunization: 'Immunization',
  procedure: 'Procedure',
  result: 'Result',
  vital: 'Vital sign',
  care_team: 'Care team',
};

/** One line of the summary text for a fact: "- Type 2 diabetes mellitus (since 2015)". */
export function factLine(fact: ClinicalFact): string {
  const label = CATEGORY_LABELS[fact.category];
  let text = label ? `${label}: ${fact.text}` : fact.text;
  if (fact.category === 'allergy') {
    const reaction = [
      fact.details?.reaction,
      fact.details?.severity && fact.details.severity !== fact.details.reaction ? fact.details.severity : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    if (reaction) text += ` (${reaction})`;
  }
  const notes: string[] = [];
  if (fact.certainty === 'possible') notes.push('possible');
  if (fact.status === 'stopped') notes.push(fact.end ? `stopped ${fact.end}` : 'stopped');
  else if (fact.status === 'resolved') notes.push(fact.end ? `resolved ${fact.end}` : 'resolved');
  if (fact.category === 'condition' && fact.onset) notes.push(`since ${fact.onset}`);
  else if ((fact.category === 'immunization' || fact.category === 'procedure') && fact.onset) notes.push(fact.onset);
  else if ((fact.category === 'result' || fact.category === 'vital') && fact.recorded)
    notes.push(dateKey(fact.recorded));
  return `- ${text}${notes.length ? ` (${notes.join(', ')})` : ''}`;
}

/** Sections and text from merged facts (mergeFacts) and none-known statements. */
export function buildSummary(facts: ClinicalFact[], noneKnown: NoneKnown[] = [], droppedUnsupported = 0): BuiltSummary {
  const sections: SummarySection[] = SECTION_KEYS.map((key) => {
    const own = facts.filter((f) => f.section === key).sort(compareFacts);
    const none = noneKnown.find((n) => n.section === key);
    const title = SECTION_TITLES[key];
    if (own.length === 0)
      return none
        ? { key, title, state: 'none_known', facts: [], noneKnown: none }
        : { key, title, state: 'not_recorded', facts: [] };
    // Facts recorded as late as the "none known" or later override it; a newer one stays beside
    // the older facts (shown as a note) instead of silently erasing them.
    const latestFact =
      own
        .map((f) => dateKey(f.recorded))
        .sort()
        .at(-1) ?? '';
    const newerNone = none && dateKey(none.recorded) > latestFact ? none : undefined;
    return { key, title, state: 'facts', facts: own, ...(newerNone ? { noneKnown: newerNone } : {}) };
  });
  const text = sections
    .map((section) => {
      const lines = [`**${section.title}:**`];
      if (section.state === 'not_recorded') lines.push('Not recorded');
      else if (section.state === 'none_known') lines.push(`None known (${section.noneKnown?.text ?? ''})`);
      else {
        lines.push(...section.facts.map(factLine));
        if (section.noneKnown)
          lines.push(
            `- Note: a newer record (${dateKey(section.noneKnown.recorded)}) says none known (${section.noneKnown.text}); the entries above come from older records`,
          );
      }
      return lines.join('\n');
    })
    .join('\n\n');
  return { sections, text, droppedUnsupported };
}
