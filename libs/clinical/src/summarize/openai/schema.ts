// The answer the summary model must give for one chunk of pages, in one place: the zod schema
// validates the answer, and the strict JSON schema sent as `response_format` is derived from it
// (every property required, absent values as null, no additional properties).
import { zodResponseFormat } from 'openai/helpers/zod';
import { z } from 'zod';
import { FACT_CATEGORIES, SECTION_KEYS } from '../../model';

const nullableText = z.string().nullable();

const Citation = z
  .object({
    page: z.number().int().describe('The page number shown in the "=== Page N ===" label the quote is on.'),
    quote: z.string().describe('Words copied exactly from that page (one line or sentence, at most 200 characters).'),
  })
  .strict();

const Fact = z
  .object({
    section: z.enum(SECTION_KEYS),
    category: z.enum(FACT_CATEGORIES),
    text: z
      .string()
      .describe('What a doctor reads, in the words of the document: "Metformin 500 mg by mouth twice daily".'),
    status: z.enum(['active', 'resolved', 'stopped', 'unknown']),
    certainty: z.enum(['confirmed', 'possible']),
    onset: nullableText.describe('ISO date, possibly partial ("2016", "2016-04"), only when written.'),
    end: nullableText.describe('ISO date, possibly partial, only when written.'),
    details: z
      .object({
        dose: nullableText,
        route: nullableText,
        frequency: nullableText,
        reaction: nullableText,
        severity: nullableText,
        value: nullableText,
        unit: nullableText,
        interpretation: nullableText,
      })
      .strict(),
    code: z
      .object({ system: z.string(), code: z.string() })
      .strict()
      .nullable()
      .describe('Only a code written in the text (ICD-10-CM, SNOMED CT, RxNorm, LOINC, CVX), never one looked up.'),
    citation: Citation,
  })
  .strict();

const NoneKnownStatement = z
  .object({
    section: z.enum(SECTION_KEYS),
    text: z.string().describe('The statement as written: "No known drug allergies".'),
    citation: Citation,
  })
  .strict();

export const ChunkAnswer = z.object({ facts: z.array(Fact), noneKnown: z.array(NoneKnownStatement) }).strict();

export type ChunkAnswer = z.infer<typeof ChunkAnswer>;
export type ModelFact = ChunkAnswer['facts'][number];
export type ModelNoneKnown = ChunkAnswer['noneKnown'][number];

/** `response_format` for Chat Completions: structured output with the strict JSON schema. */
export const CHUNK_RESPONSE_FORMAT = {
  type: 'json_schema' as const,
  json_schema: zodResponseFormat(ChunkAnswer, 'clinical_facts').json_schema,
};
