// Test support: the quality corpus (libs/clinical/quality/corpus) read and summarised as the
// summary service does, in the API's wire shape (SummaryItem), so real-looking records go through
// the formats' tests.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SummaryFact, SummaryItem, SummarySource } from '@medfolio/contracts';
import type { BuiltSummary, ClinicalFact, SourceRef } from '../../model';
import { extractDocument } from '../../extract/extract';
import { LocalEngine } from '../../summarize/local-engine';
import { mergeFacts } from '../../summarize/merge';
import { buildSummary } from '../../summarize/render';
import { readCase } from '../../../quality/run';

export const CORPUS_DIR = join(__dirname, '../../../quality/corpus');
/** The public corpus: HL7's published C-CDA and IPS examples (quality/public/manifest.json). */
export const PUBLIC_DIR = join(__dirname, '../../../quality/public');

const source = (s: SourceRef): SummarySource => ({
  document_id: s.documentId,
  filename: s.filename,
  page: s.page,
  quote: s.quote,
});

function wireFact(fact: ClinicalFact, index: number): SummaryFact {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    text: fact.text,
    category: fact.category,
    status: fact.status ?? null,
    onset: fact.onset ?? null,
    end: fact.end ?? null,
    code: fact.code ? { ...fact.code } : null,
    details:
      fact.details && Object.keys(fact.details).length > 0 ? ({ ...fact.details } as Record<string, string>) : null,
    certainty: fact.certainty ?? null,
    hidden: false,
    edited: false,
    added_by_patient: false,
    sources: fact.sources.map(source),
  };
}

/** A built summary in the API's shape (as the summary service's applyOverrides writes it, no changes). */
export function summaryItemOf(built: BuiltSummary, version = 1): SummaryItem {
  let n = 0;
  return {
    summary: built.text,
    status: 'ready',
    version,
    confirmed_version: version,
    updated_at: '2025-01-02T03:04:05.000Z',
    sections: built.sections.map((s) => ({
      key: s.key,
      title: s.title,
      state: s.state,
      facts: s.facts.map((f) => wireFact(f, ++n)),
      none_known: s.noneKnown ? { text: s.noneKnown.text, sources: s.noneKnown.sources.map(source) } : null,
    })),
    documents: [],
  };
}

/** Every corpus case's summary, by case name (the local engine; structured files through extraction). */
export async function corpusSummaries(): Promise<Map<string, SummaryItem>> {
  const names = (await readdir(CORPUS_DIR, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const engine = new LocalEngine();
  const out = new Map<string, SummaryItem>();
  for (const name of names) {
    const skipped: string[] = [];
    const inputs = await readCase(
      CORPUS_DIR,
      name,
      {
        extract: (file, documentId) =>
          extractDocument({ documentId, filename: file.filename, path: file.path }, { ocr: false }),
      },
      skipped,
    );
    const read = await engine.read(inputs);
    const merged = mergeFacts(read.facts, read.noneKnown);
    out.set(name, summaryItemOf(buildSummary(merged.facts, merged.noneKnown, read.droppedUnsupported)));
  }
  return out;
}

/**
 * Every structured original of the public corpus (C-CDA XML, FHIR JSON; not the printed PDFs), each
 * read on its own as the public scorer does, by "case/file".
 */
export async function publicSummaries(): Promise<Map<string, SummaryItem>> {
  const engine = new LocalEngine();
  const out = new Map<string, SummaryItem>();
  const cases = (await readdir(PUBLIC_DIR, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  for (const name of cases) {
    const files = (await readdir(join(PUBLIC_DIR, name))).filter(
      (f) => /\.(xml|json)$/i.test(f) && f !== 'expected.json',
    );
    for (const file of files.sort()) {
      const extracted = await extractDocument(
        { documentId: `${name}/${file}`, filename: file, path: join(PUBLIC_DIR, name, file) },
        { ocr: false },
      );
      const read = await engine.read([{ ...extracted, uploadedAt: '2025-01-01T00:00:00.000Z' }]);
      const merged = mergeFacts(read.facts, read.noneKnown);
      out.set(`${name}/${file}`, summaryItemOf(buildSummary(merged.facts, merged.noneKnown, read.droppedUnsupported)));
    }
  }
  return out;
}
