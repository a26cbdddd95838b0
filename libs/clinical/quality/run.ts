// The summary quality suite: every case folder holds documents and an expected.json listing the
// facts each summary section should show; this runner reads the documents with an engine, merges and
// builds the summary as the service will, and reports precision and recall per section.
//
//   npm run quality:summary                        the corpus in this folder
//   CLINICAL_QUALITY_DIR=/path npm run quality:summary   documents kept outside the repo (same layout)
//   ... -- --details                               also list what was missed or extra (health data:
//                                                  only on your own screen)
// Then the public corpus (quality/public, public.ts): per mode (pdf, xml, fhir), recall in the right
// section, the share of junk facts, and each document's misses (public, fictional records).
//   ... -- --public-only                           only the public corpus
//   ... -- --no-public                             only the corpus above
//   ... -- --modes=pdf,xml                         the public corpus's modes to read
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import {
  SECTION_KEYS,
  type ClinicalFact,
  type EngineInput,
  type ExtractionResult,
  type SectionKey,
  type SummaryEngine,
} from '../src/model';
import { extractDocument } from '../src/extract/extract';
import { OcrScheduler } from '../src/extract/ocr';
import { LocalEngine } from '../src/summarize/local-engine';
import { createSummaryEngine } from '../src/summarize/openai/factory';
import { summaryEngineSettingsFromEnv } from '../src/summarize/openai/settings';
import { mergeFacts } from '../src/summarize/merge';
import { buildSummary } from '../src/summarize/render';
import { conditionKey, drugKey, parseAllergy } from '../src/summarize/parsers';
import { nameKey } from '../src/summarize/merge';
import { normaliseKey } from '../src/summarize/text';
// public.ts reads matchKey and keysMatch from here when it scores (a cycle, resolved before any call).
import { MODES, belowGoals, formatPublicDetails, formatPublicTable, runPublicCorpus } from './public';

/** A document of another type (.pdf, .xml, .json, .docx...) in a case, for the extractor. */
export interface QualityFile {
  path: string;
  filename: string;
  bytes: Buffer;
}

/** Extraction, wired in by the caller: file -> ExtractionResult (documentId as given). */
export type Extractor = (file: QualityFile, documentId: string) => Promise<ExtractionResult>;

export interface QualityOptions {
  engine?: SummaryEngine;
  extract?: Extractor;
  /** Upload time given to every document (documents without a date of their own fall back to it). */
  uploadedAt?: string;
}

export interface ExpectedItem {
  text: string;
  /** 'active' | 'stopped' | 'resolved': when given, the summary must agree. */
  status?: string;
  /** Additional Categories: the kind of fact (procedure, result, vital, immunization, care_team, note). */
  category?: string;
  code?: string;
  /** For merging cases: the fact must cite at least this many sources. */
  minSources?: number;
}

export interface ExpectedCase {
  description?: string;
  expected: Partial<Record<SectionKey, (string | ExpectedItem)[]>>;
  /** Sections a source says are empty ("No known drug allergies"). */
  noneKnown?: SectionKey[];
}

export interface Counts {
  tp: number;
  fp: number;
  fn: number;
}

export interface CaseResult {
  name: string;
  sections: Record<SectionKey, Counts>;
  missed: string[];
  extra: string[];
  milliseconds: number;
  /** Facts the engine dropped because their citation did not support them (openai engine). */
  droppedUnsupported: number;
  /** Parts the engine could not read (openai engine: chunks whose answer was unusable). */
  problems: number;
}

export interface QualityReport {
  cases: CaseResult[];
  totals: Record<SectionKey, Counts & { precision: number; recall: number }>;
  /** Files not read, with why ("no extractor for .pdf"). */
  skipped: string[];
}

const item = (e: string | ExpectedItem): ExpectedItem => (typeof e === 'string' ? { text: e } : e);
const tokens = (key: string): string[] => key.split(' ').filter(Boolean);

/** The key a section matches by: the engine's own notion of "the same fact", written for expected text. */
export function matchKey(section: SectionKey, text: string, category?: string): string {
  switch (section) {
    case 'current_conditions':
    case 'past_history':
      return conditionKey(text);
    case 'medications':
      return drugKey(text.replace(/\s\d.*$/, ''));
    case 'allergies':
      return parseAllergy(text)?.key ?? normaliseKey(text);
    case 'additional':
      return category === 'result' || category === 'vital'
        ? nameKey({ section, category, text, sources: [] })
        : normaliseKey(text);
  }
}

/** Same key, or every word of the expected key in the produced one ("GI bleed" in "Upper GI bleed (2019)"). */
export function keysMatch(expected: string, produced: string): boolean {
  if (expected === produced) return true;
  const have = new Set(tokens(produced));
  return tokens(expected).length > 0 && tokens(expected).every((t) => have.has(t));
}

function scoreSection(
  section: SectionKey,
  expected: ExpectedItem[],
  facts: ClinicalFact[],
  noneKnownExpected: boolean,
  noneKnownProduced: boolean,
  missed: string[],
  extra: string[],
): Counts {
  const counts: Counts = { tp: 0, fp: 0, fn: 0 };
  const unused = new Set(facts.map((_, i) => i));
  for (const want of expected) {
    const key = matchKey(section, want.text, want.category);
    const candidates = [...unused].filter((i) => {
      const fact = facts[i];
      if (!fact) return false;
      if (want.category && fact.category !== want.category) return false;
      return keysMatch(key, matchKey(section, fact.text, fact.category));
    });
    // Prefer the exact key, then the first in summary order.
    const exact = candidates.find((i) => {
      const f = facts[i];
      return f !== undefined && matchKey(section, f.text, f.category) === key;
    });
    const found = exact ?? candidates[0];
    const fact = found === undefined ? undefined : facts[found];
    const ok =
      fact !== undefined &&
      (!want.status || fact.status === want.status) &&
      (!want.code || !fact.code || fact.code.code === want.code) &&
      (!want.minSources || fact.sources.length >= want.minSources);
    if (found !== undefined) unused.delete(found);
    if (ok) counts.tp++;
    else {
      counts.fn++;
      missed.push(
        `${section}: ${want.text}${want.status ? ` [${want.status}]` : ''}${fact ? ` (found as "${fact.text}" ${fact.status ?? ''}, ${fact.sources.length} source(s))` : ''}`,
      );
      // A fact found with the wrong status or too few sources is also a wrong fact shown.
      if (fact) counts.fp++;
    }
  }
  for (const i of unused) {
    counts.fp++;
    const fact = facts[i];
    if (fact) extra.push(`${section}: ${fact.text}${fact.status ? ` [${fact.status}]` : ''}`);
  }
  // "None known" counts as one statement of the section.
  if (noneKnownExpected && noneKnownProduced) counts.tp++;
  else if (noneKnownExpected) {
    counts.fn++;
    missed.push(`${section}: none known`);
  } else if (noneKnownProduced) {
    counts.fp++;
    extra.push(`${section}: none known`);
  }
  return counts;
}

/** The case folders of a corpus, by name (optionally only those named). */
export async function caseNames(dir: string, only?: string[]): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && (!only || only.includes(e.name)))
    .map((e) => e.name)
    .sort();
}

/** A case's truth (expected.json), or null with the reason added to `skipped`. */
export async function readExpected(dir: string, name: string, skipped: string[]): Promise<ExpectedCase | null> {
  try {
    return JSON.parse(await readFile(join(dir, name, 'expected.json'), 'utf8')) as ExpectedCase;
  } catch {
    skipped.push(`skipped case ${name}: no readable expected.json`);
    return null;
  }
}

export async function readCase(
  dir: string,
  name: string,
  options: QualityOptions,
  skipped: string[],
): Promise<EngineInput[]> {
  const uploadedAt = options.uploadedAt ?? '2025-01-01T00:00:00.000Z';
  const inputs: EngineInput[] = [];
  for (const filename of (await readdir(join(dir, name))).sort()) {
    if (filename === 'expected.json' || filename.startsWith('.')) continue;
    const path = join(dir, name, filename);
    const documentId = `${name}/${filename}`;
    if (extname(filename).toLowerCase() === '.txt') {
      // Pages are separated by form feeds, as PDF text extraction writes them.
      const pages = (await readFile(path, 'utf8')).split('\f');
      inputs.push({
        documentId,
        filename,
        texts: pages.map((text, i) => ({ filename, page: pages.length > 1 ? i + 1 : null, text, ocr: false })),
        facts: [],
        noneKnown: [],
        problems: [],
        uploadedAt,
      });
    } else if (options.extract) {
      inputs.push({
        ...(await options.extract({ path, filename, bytes: await readFile(path) }, documentId)),
        uploadedAt,
      });
    } else {
      skipped.push(
        `skipped ${documentId}: no extractor for ${extname(filename) || 'files without an extension'} (pass runQuality an extract function)`,
      );
    }
  }
  return inputs;
}

export async function runQuality(dir: string, options: QualityOptions = {}): Promise<QualityReport> {
  const engine: SummaryEngine = options.engine ?? new LocalEngine();
  const skipped: string[] = [];
  const cases: CaseResult[] = [];
  for (const name of await caseNames(dir)) {
    const expected = await readExpected(dir, name, skipped);
    if (!expected) continue;
    const inputs = await readCase(dir, name, options, skipped);
    const started = performance.now();
    const read = await engine.read(inputs);
    const merged = mergeFacts(read.facts, read.noneKnown);
    const summary = buildSummary(merged.facts, merged.noneKnown, read.droppedUnsupported);
    const milliseconds = performance.now() - started;
    const missed: string[] = [];
    const extra: string[] = [];
    const sections = Object.fromEntries(
      summary.sections.map((s) => [
        s.key,
        scoreSection(
          s.key,
          (expected.expected[s.key] ?? []).map(item),
          s.facts,
          (expected.noneKnown ?? []).includes(s.key),
          s.state === 'none_known',
          missed,
          extra,
        ),
      ]),
    ) as Record<SectionKey, Counts>;
    cases.push({
      name,
      sections,
      missed,
      extra,
      milliseconds,
      droppedUnsupported: read.droppedUnsupported,
      problems: read.problems?.length ?? 0,
    });
  }
  const totals = Object.fromEntries(
    SECTION_KEYS.map((key) => {
      const sum = cases.reduce(
        (acc, c) => ({
          tp: acc.tp + c.sections[key].tp,
          fp: acc.fp + c.sections[key].fp,
          fn: acc.fn + c.sections[key].fn,
        }),
        { tp: 0, fp: 0, fn: 0 },
      );
      return [
        key,
        {
          ...sum,
          precision: sum.tp + sum.fp ? sum.tp / (sum.tp + sum.fp) : 1,
          recall: sum.tp + sum.fn ? sum.tp / (sum.tp + sum.fn) : 1,
        },
      ];
    }),
  ) as QualityReport['totals'];
  return { cases, totals, skipped };
}

const pct = (n: number): string => (Number.isFinite(n) ? `${(n * 100).toFixed(0)} %` : '–');

/** A Markdown table of precision and recall per section (what the README shows). */
export function formatTable(report: QualityReport): string {
  const rows = [
    '| Section | Precision | Recall | Found right | Wrong or extra | Missed |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const key of SECTION_KEYS) {
    const t = report.totals[key];
    rows.push(`| ${key} | ${pct(t.precision)} | ${pct(t.recall)} | ${t.tp} | ${t.fp} | ${t.fn} |`);
  }
  const all = SECTION_KEYS.reduce(
    (a, k) => ({ tp: a.tp + report.totals[k].tp, fp: a.fp + report.totals[k].fp, fn: a.fn + report.totals[k].fn }),
    { tp: 0, fp: 0, fn: 0 },
  );
  rows.push(
    `| all | ${pct(all.tp / (all.tp + all.fp))} | ${pct(all.tp / (all.tp + all.fn))} | ${all.tp} | ${all.fp} | ${all.fn} |`,
  );
  return rows.join('\n');
}

async function main(): Promise<void> {
  const dir = process.env['CLINICAL_QUALITY_DIR'] ?? join(__dirname, 'corpus');
  const details = process.argv.includes('--details');
  // The engine the service would use: OPENAI_API_KEY (and OPENAI_BASE_URL, SUMMARY_MODEL) measure the openai engine.
  const engine = createSummaryEngine(summaryEngineSettingsFromEnv());
  // Files other than .txt (PDF, scans, Word, zip, C-CDA, FHIR) go through the product's own extraction.
  const ocr = new OcrScheduler({ concurrency: 1 });
  const extract: Extractor = (file, documentId) =>
    extractDocument({ documentId, filename: file.filename, path: file.path }, { ocrScheduler: ocr });
  const publicOnly = process.argv.includes('--public-only');
  try {
    if (!publicOnly) {
      const report = await runQuality(dir, { engine, extract });
      console.log(`Summary quality: ${report.cases.length} case(s), ${engine.name} engine\n`);
      console.log(formatTable(report));
      for (const line of report.skipped) console.log(line);
      for (const c of report.cases) {
        const checks =
          engine.name === 'openai'
            ? `, ${c.droppedUnsupported} dropped unsupported, ${c.problems} chunk(s) unusable`
            : '';
        console.log(`\n${c.name}: ${c.milliseconds.toFixed(1)} ms${checks}`);
        if (details)
          for (const line of [...c.missed.map((m) => `  missed  ${m}`), ...c.extra.map((e) => `  extra   ${e}`)])
            console.log(line);
      }
    }
    if (!process.argv.includes('--no-public')) {
      const asked = process.argv
        .find((a) => a.startsWith('--modes='))
        ?.slice('--modes='.length)
        .split(',');
      const modes = asked ? MODES.filter((m) => asked.includes(m)) : MODES;
      const report = await runPublicCorpus(join(__dirname, 'public'), { engine, extract, modes });
      console.log(
        `\nPublic corpus (quality/public, manifest.json): ${new Set(report.cases.map((c) => c.name)).size} document(s), ${engine.name} engine; recall in the right section, junk among the facts of Conditions, Past history, Medications and Allergies\n`,
      );
      console.log(formatPublicTable(report));
      const below = belowGoals(report);
      console.log(
        below.length
          ? `\nBelow the goals (public.ts GOALS):\n  ${below.join('\n  ')}`
          : '\nEvery mode meets its goals (public.ts GOALS).',
      );
      for (const line of report.skipped) console.log(line);
      console.log(formatPublicDetails(report, details));
    }
  } finally {
    await ocr.shutdown();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
