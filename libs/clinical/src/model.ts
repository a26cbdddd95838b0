// The clinical model shared by extraction (files -> text and structured facts) and the summary
// engines (text and facts -> a cited, sectioned summary). Plain data: JSON-serialisable, so the
// summary service can store it as it is.

/** The five sections of a summary, in the order they are shown (spec section 2, "Summary page"). */
export const SECTION_KEYS = ['current_conditions', 'past_history', 'medications', 'allergies', 'additional'] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export const SECTION_TITLES: Record<SectionKey, string> = {
  current_conditions: 'Current Medical Conditions',
  past_history: 'Past Medical History',
  medications: 'Medications',
  allergies: 'Allergies',
  additional: 'Additional Categories',
};

/** Where a fact came from: what the patient (or a doctor) clicks to open the source. */
export interface SourceRef {
  documentId: string;
  /** The uploaded file's name; for a file inside a zip, "records.zip › ccd.xml". */
  filename: string;
  /** 1-based page for paged formats (PDF); null where a document has no pages. */
  page: number | null;
  /** The short source text the fact was read from (at most 200 characters). */
  quote: string;
}

/** The kinds of fact, in the order Additional Categories shows them. */
export const FACT_CATEGORIES = [
  'condition',
  'medication',
  'allergy',
  'immunization',
  'procedure',
  'result',
  'vital',
  'care_team',
  'note',
] as const;
export type FactCategory = (typeof FACT_CATEGORIES)[number];

export type FactStatus = 'active' | 'resolved' | 'stopped' | 'unknown';

export interface Code {
  /** 'RxNorm' | 'SNOMED CT' | 'ICD-10-CM' | 'LOINC' | 'CVX' | 'NDC' | another system's name. */
  system: string;
  code: string;
  display?: string;
}

export interface ClinicalFact {
  section: SectionKey;
  category: FactCategory;
  /** What a doctor reads: "Metformin 500 mg by mouth twice daily", "Type 2 diabetes mellitus". */
  text: string;
  /** Medications: dose, route, frequency. Allergies: reaction, severity. Results/vitals: value, unit. */
  details?: Partial<Record<'dose' | 'route' | 'frequency' | 'reaction' | 'severity' | 'value' | 'unit' | 'interpretation', string>>;
  code?: Code;
  status?: FactStatus;
  /** ISO 8601 date, possibly partial ("2019", "2019-04", "2019-04-02"). */
  onset?: string;
  end?: string;
  /** When the source recorded this fact (the entry's or the document's date): newer wins on conflict. */
  recorded?: string;
  /** 'possible' for uncertain statements ("possible pneumonia", "rule out ..."). */
  certainty?: 'confirmed' | 'possible';
  sources: SourceRef[];
}

/** A section a source explicitly states is empty, e.g. "No known drug allergies". */
export interface NoneKnown {
  section: SectionKey;
  text: string;
  /** When the source said so (as ClinicalFact.recorded): facts recorded later override it. */
  recorded?: string;
  sources: SourceRef[];
}

/** One unit of readable text with its place in the document. */
export interface ExtractedText {
  /** As in SourceRef.filename. */
  filename: string;
  page: number | null;
  text: string;
  /** True when the text came from OCR (scan or photo). */
  ocr: boolean;
  /** OCR mean confidence, 0-100. */
  confidence?: number;
  /**
   * A structured record's section narrative whose entries were read as facts (C-CDA): kept as text,
   * but engines do not read facts from it again (that listed each problem and drug twice). Also a
   * section that holds none of the summary's facts (a plan, goals, encounters, a nullFlavor section):
   * its table headings and rows are not conditions or medicines.
   */
  coveredByFacts?: boolean;
}

/** A part of a document that could not be read, with a reason the patient can understand. */
export interface ExtractionProblem {
  filename: string;
  reason: string;
}

/** Everything extraction got out of one uploaded document. */
export interface ExtractionResult {
  documentId: string;
  filename: string;
  /** Free text, page by page (PDF text layer or OCR, images, Word, files inside zips). */
  texts: ExtractedText[];
  /** Structured facts read from C-CDA or FHIR (codes kept). */
  facts: ClinicalFact[];
  noneKnown: NoneKnown[];
  /** When the record was written, where the document says (C-CDA effectiveTime, FHIR Composition.date). */
  documentDate?: string;
  problems: ExtractionProblem[];
}

/** What an engine is given for one document. */
export interface EngineInput extends ExtractionResult {
  /** ISO timestamp of the upload: the fallback date for "newer wins". */
  uploadedAt: string;
}

export type SectionState = 'facts' | 'none_known' | 'not_recorded';

export interface SummarySection {
  key: SectionKey;
  title: string;
  /** facts: facts found; none_known: a source says there are none; not_recorded: nothing found. */
  state: SectionState;
  facts: ClinicalFact[];
  noneKnown?: NoneKnown;
}

export interface BuiltSummary {
  sections: SummarySection[];
  /** The spec's shape: the text with bold section headings ("**Medications:**\n..."). */
  text: string;
  /** Facts an engine produced that their cited source did not support, dropped (openai engine). */
  droppedUnsupported: number;
}

/** Two engines behind one interface: 'local' (default, offline, deterministic) and 'openai'. */
export interface SummaryEngine {
  readonly name: 'local' | 'openai';
  /** Facts and none-known statements from each document, before they are merged. */
  read(
    inputs: EngineInput[],
    signal?: AbortSignal,
  ): Promise<{
    facts: ClinicalFact[];
    noneKnown: NoneKnown[];
    droppedUnsupported: number;
    /** Parts the engine could not read (openai: a chunk whose answer was unusable), for the patient to see. */
    problems?: ExtractionProblem[];
  }>;
}
