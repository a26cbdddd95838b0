import type { SectionKey, SummaryDocument, SummaryFact, SummaryItem, SummarySection } from '../../api/summary';
import { StrokeIcon } from '../../components/StrokeIcon';

/** The five sections in the order a doctor reads them (the contract's keys). */
export const SECTION_ORDER: readonly SectionKey[] = [
  'current_conditions',
  'past_history',
  'medications',
  'allergies',
  'additional',
];

/** Small inline SVG paths (nothing fetched, no icon font). */
const ICON_PATHS = {
  conditions: 'M3 12h4l2-5 4 10 2-5h6',
  history: 'M12 7v5l3 2M3 12a9 9 0 1 0 3-6.7M3 4v4h4',
  medications: 'M10.5 4.5a4.95 4.95 0 0 1 7 7l-6 6a4.95 4.95 0 0 1-7-7zM7.5 9.5l7 7',
  allergies: 'M12 3l8 4v5c0 5-3.5 8-8 9-4.5-1-8-4-8-9V7zM12 9v4M12 16h.01',
  additional: 'M9 4h6v3H9zM7 5H5v16h14V5h-2M9 12h6M9 16h6',
  general: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 11v5M12 8h.01',
} as const;

type IconKey = keyof typeof ICON_PATHS;

interface SectionLook {
  icon: IconKey;
  description: string;
}

/** Each known section's icon and description (spec section 2); any other title is general information. */
const LOOKS: Record<SectionKey, SectionLook> = {
  current_conditions: { icon: 'conditions', description: 'Health problems you are living with now' },
  past_history: { icon: 'history', description: 'Illnesses and conditions from the past' },
  medications: { icon: 'medications', description: 'Medicines you take, with dose and how often' },
  allergies: { icon: 'allergies', description: 'Allergies and reactions to medicines, foods or other things' },
  additional: {
    icon: 'additional',
    description: 'Procedures and operations, vaccinations, test results, vital signs and other notes',
  },
};

const TITLES: Record<string, SectionKey> = {
  'current medical conditions': 'current_conditions',
  'past medical history': 'past_history',
  medications: 'medications',
  allergies: 'allergies',
  'additional categories': 'additional',
};

export const GENERAL_DESCRIPTION = 'General medical information';

/** The icon and description of a section, by its key or else its title; unknown ones get the general look. */
export function lookOf(section: Pick<SummarySection, 'key' | 'title'>): SectionLook {
  const key = (LOOKS as Partial<Record<string, SectionLook>>)[section.key]
    ? section.key
    : TITLES[section.title.trim().replace(/:$/, '').toLowerCase()];
  return key ? LOOKS[key] : { icon: 'general', description: GENERAL_DESCRIPTION };
}

export function SectionIcon({ icon }: { icon: IconKey }) {
  return (
    <StrokeIcon>
      <path d={ICON_PATHS[icon]} />
    </StrokeIcon>
  );
}

/** Known sections first, in their order; any others after them as they came. */
export function orderedSections(sections: readonly SummarySection[]): SummarySection[] {
  const rank = (section: SummarySection) => {
    const index = SECTION_ORDER.indexOf(section.key);
    return index === -1 ? SECTION_ORDER.length : index;
  };
  return sections
    .map((section, index) => ({ section, index }))
    .sort((a, b) => rank(a.section) - rank(b.section) || a.index - b.index)
    .map(({ section }) => section);
}

/** A source as people cite it: "labs.pdf, page 2" (or just the name when the page is not known). */
export function sourceLabel(source: { filename: string; page: number | null }): string {
  return source.page ? `${source.filename}, page ${source.page}` : source.filename;
}

/** The badge of a fact that is not simply current: "stopped 2024-03", "resolved", "status unknown". */
export function statusBadge(fact: Pick<SummaryFact, 'status' | 'end'>): string | null {
  if (!fact.status || fact.status === 'active') return null;
  if (fact.status === 'unknown') return 'status unknown';
  return fact.end ? `${fact.status} ${fact.end}` : fact.status;
}

/** The state line while the summary is being built: "Reading 2 of 3 documents…", and which are left. */
export function progressOf(documents: readonly SummaryDocument[]): { line: string; waiting: string[] } {
  const done = documents.filter((document) => document.state === 'read' || document.state === 'unreadable').length;
  const total = documents.length;
  const waiting = documents
    .filter((document) => document.state === 'pending' || document.state === 'processing')
    .map((document) => document.filename);
  if (total === 0) return { line: 'Reading your documents…', waiting };
  return {
    line: `Reading ${Math.min(done + 1, total)} of ${total} ${total === 1 ? 'document' : 'documents'}…`,
    waiting,
  };
}

/** Per-document problems in plain words: "scan.png could not be read: the scan is unclear". */
export function problemsOf(documents: readonly SummaryDocument[]): string[] {
  return documents.flatMap((document) => {
    if (document.state === 'unreadable') {
      return [
        document.problems.length
          ? `${document.filename} could not be read: ${document.problems.join('; ')}`
          : `${document.filename} could not be read.`,
      ];
    }
    return document.problems.map((problem) => `${document.filename}: ${problem}`);
  });
}

/** A fact's text may be at most this long, after trimming. */
export const FACT_MAX = 300;

/** The message for a fact's text the server would refuse, or null when it is fine. */
export function factTextError(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed) return 'Text is required';
  if (trimmed.length > FACT_MAX) return `Limit exceeded (${FACT_MAX} characters)`;
  return null;
}

export function isConfirmed(summary: Pick<SummaryItem, 'version' | 'confirmed_version'>): boolean {
  return summary.version > 0 && summary.confirmed_version === summary.version;
}
