import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { buildSeries, type ClinicalFact, type Observation } from '@medfolio/clinical';
import { TRENDS_CSV_COLUMNS, type SummarySectionItem } from '@medfolio/contracts';
import {
  buildTimeline,
  csvCell,
  factObservationsByDocument,
  gate,
  medicationChanges,
  observationsOfRecord,
  toTrendSeries,
  trendsCsv,
  withFetchedFrom,
} from './trends-model';

const PUBLIC = join(__dirname, '../../../../libs/clinical/quality/public');
const read = (dir: string, file: string) => readFileSync(join(PUBLIC, dir, file), 'utf8');

/** The corpus's CCD (C-CDA, glucose-free) and the AU referral Bundle (FHIR), as two documents of one patient. */
function twoDocuments(): Observation[] {
  return [
    ...observationsOfRecord({ kind: 'ccda', text: read('hl7-ccd', 'ccd.xml') }, { document_id: 'doc-ccda', filename: 'ccd.xml' }),
    ...observationsOfRecord({ kind: 'fhir', text: read('fhir-au-ps-referral', 'ps-bundle.json') }, { document_id: 'doc-fhir', filename: 'ps-bundle.json' }),
  ];
}

const glucose = (value: number, unit: string, date: string, document_id: string, range?: Observation['range']): Observation => ({
  code: { system: 'LOINC', code: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma' },
  name: 'Glucose',
  category: 'result',
  value,
  unit,
  ...(range ? { range } : {}),
  date,
  source: { document_id, filename: `${document_id}.xml` },
});

describe('trends model', () => {
  it("names where a fetched document's points came from, and leaves uploads' points as they are", () => {
    const fetched = new Map([['doc-fetched', { source: 'Springfield General Hospital via MyChart', uploadedAt: new Date('2026-11-27T23:30:00Z') }]]);
    const points = [glucose(5.4, 'mmol/L', '2026-11-01', 'doc-fetched'), glucose(99, 'mg/dL', '2026-10-01', 'doc-upload')];
    const [series] = buildSeries(points).map((s) => toTrendSeries(s, fetched));
    const sources = series?.points.flatMap((p) => p.sources) ?? [];
    expect(sources).toContainEqual({ document_id: 'doc-fetched', filename: 'doc-fetched.xml', page: null, fetched_from: 'Springfield General Hospital via MyChart, fetched 27 Nov 2026' });
    expect(sources).toContainEqual({ document_id: 'doc-upload', filename: 'doc-upload.xml', page: null });
    expect(withFetchedFrom({ document_id: null, filename: null, page: null }, fetched)).toEqual({ document_id: null, filename: null, page: null });
  });

  it('reads observations from a record, and none from one that does not parse', () => {
    const list = twoDocuments();
    expect(list.filter((o) => o.source.document_id === 'doc-ccda').length).toBeGreaterThan(5);
    expect(list.filter((o) => o.source.document_id === 'doc-fhir').length).toBeGreaterThan(5);
    expect(observationsOfRecord({ kind: 'ccda', text: '<ClinicalDocument' }, {})).toEqual([]);
    expect(observationsOfRecord({ kind: 'fhir', text: '{"resourceType":' }, {})).toEqual([]);
    expect(observationsOfRecord(null, {})).toEqual([]);
  });

  it('gates by plan: full shows every series and the timeline; a preview the first key measure, the rest locked by name and count', () => {
    const series = buildSeries(twoDocuments()).map((s) => toTrendSeries(s));
    expect(series.length).toBeGreaterThan(3);
    const timeline = [{ date: '2020-01-01', kind: 'visit' as const, change: 'recorded' as const, title: 'Visit', detail: null, sources: [] }];
    const now = new Date('2026-01-02T03:04:05Z');
    const full = gate(series, timeline, true, now);
    expect(full).toEqual({ access: 'full', series, locked: [], timeline, generated_at: '2026-01-02T03:04:05.000Z' });
    const preview = gate(series, timeline, false, now);
    expect(preview.access).toBe('preview');
    expect(preview.timeline).toEqual([]);
    expect(preview.series).toHaveLength(1);
    // The first key measure with points: the corpus's A1c leads the table's order.
    expect(preview.series[0]?.key).toBe(series[0]?.key);
    expect(preview.series[0]?.points.length).toBeGreaterThan(0);
    expect(preview.locked.map((l) => l.key)).toEqual(series.slice(1).map((s) => s.key));
    expect(preview.locked.every((l, i) => l.points === series[i + 1]?.points.length && !('values' in l))).toBe(true);
    // Nothing of a locked series' values leaves in a preview.
    const lockedValues = series.slice(1).flatMap((s) => s.points.map((p) => p.value));
    expect(JSON.stringify(preview.locked)).not.toMatch(/"value"/);
    expect(lockedValues.length).toBeGreaterThan(0);
    expect(gate([], [], false, now)).toMatchObject({ series: [], locked: [] });
  });

  it('puts glucose in mg/dL and mmol/L from two documents on one line, and exports both rows with the converted value', () => {
    const observations = [
      glucose(100, 'mg/dL', '2024-03-01', 'doc-a', { low: 70, high: 99, unit: 'mg/dL' }),
      glucose(7, 'mmol/L', '2024-06-01', 'doc-b', { low: 3.9, high: 5.5, unit: 'mmol/L' }),
    ];
    const [series] = buildSeries(observations).map((s) => toTrendSeries(s));
    expect(series).toMatchObject({ key: 'glucose', unit: 'mg/dL', ucum: 'mg/dL' });
    expect(series?.points.map((p) => [p.date, p.value, p.flag, p.sources[0]?.document_id])).toEqual([
      ['2024-03-01', 100, 'high', 'doc-a'],
      ['2024-06-01', 126.11, 'high', 'doc-b'],
    ]);
    const { content, rows } = trendsCsv(observations);
    expect(rows).toBe(2);
    expect(content.endsWith('\r\n')).toBe(true);
    const parsed = parse(content, { columns: true }) as Record<string, string>[];
    expect(Object.keys(parsed[0] ?? {})).toEqual([...TRENDS_CSV_COLUMNS]);
    expect(parsed.map((r) => [r['date'], r['test'], r['value'], r['unit'], r['value_in_series_unit'], r['series_unit'], r['low'], r['high'], r['flag'], r['code_system'], r['code'], r['document_id']])).toEqual([
      ['2024-03-01', 'Glucose', '100', 'mg/dL', '100', 'mg/dL', '70', '99', 'high', 'LOINC', '2345-7', 'doc-a'],
      ['2024-06-01', 'Glucose', '7', 'mmol/L', '126.11', 'mg/dL', '3.9', '5.5', 'high', 'LOINC', '2345-7', 'doc-b'],
    ]);
  });

  it('exports every corpus observation, text values too, one row each, parseable by an RFC 4180 reader', () => {
    const observations = twoDocuments();
    const { content, rows } = trendsCsv(observations);
    const parsed = parse(content, { columns: true }) as Record<string, string>[];
    expect(rows).toBe(observations.length);
    expect(parsed).toHaveLength(observations.length);
    // A value that is text ("Positive") is kept as the source wrote it, with no series value.
    const text = parsed.find((r) => r['value'] === 'Positive');
    expect(text?.['value_in_series_unit']).toBe('');
    // Numeric rows carry their series' unit.
    expect(parsed.filter((r) => r['value_in_series_unit'] !== '').every((r) => r['series_unit'] !== undefined)).toBe(true);
  });

  it('quotes cells as RFC 4180 says and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const start of ['+', '-', '@', '\t']) expect(csvCell(`${start}cmd`).replace(/^"/, '')).toMatch(/^'/);
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(null)).toBe('');
    const evil: Observation = { ...glucose(5, 'mmol/L', '2024-01-01', 'doc-x'), name: '=cmd|"/c calc"!A1', source: { document_id: 'doc-x', filename: '@evil.xml' } };
    const parsed = parse(trendsCsv([evil]).content, { columns: true }) as Record<string, string>[];
    expect(parsed[0]?.['test']).toBe(`'=cmd|"/c calc"!A1`);
    expect(parsed[0]?.['document_filename']).toBe("'@evil.xml");
  });

  it("takes results of facts by each fact's document, leaving out documents read as records", () => {
    const fact = (documentId: string, text: string, value: string, unit: string): ClinicalFact => ({
      section: 'additional',
      category: 'result',
      text,
      details: { value, unit },
      onset: '2024-02-02',
      sources: [{ documentId, filename: `${documentId}.pdf`, page: 2, quote: text }],
    });
    const byDocument = factObservationsByDocument(
      [fact('pdf-1', 'LDL cholesterol: 3.1 mmol/L', '3.1', 'mmol/L'), fact('ccda-1', 'Glucose: 5 mmol/L', '5', 'mmol/L'), { ...fact('pdf-1', 'Metformin', '', ''), category: 'medication' }],
      new Set(['ccda-1']),
    );
    expect([...byDocument.keys()]).toEqual(['pdf-1']);
    expect(byDocument.get('pdf-1')).toEqual([
      { code: null, name: 'LDL cholesterol', category: 'result', value: 3.1, unit: 'mmol/L', date: '2024-02-02', source: { document_id: 'pdf-1', filename: 'pdf-1.pdf', page: 2 } },
    ]);
  });

  it('builds the timeline: diagnosed, started, stopped, changed, recorded and visits, newest first, hidden facts left out', () => {
    const source = (id: string) => ({ document_id: id, filename: `${id}.xml`, page: null, quote: '' });
    const base = { code: null, details: null, certainty: null, edited: false, added_by_patient: false } as const;
    const sections: SummarySectionItem[] = [
      {
        key: 'current_conditions',
        title: 'Current Medical Conditions',
        state: 'facts',
        none_known: null,
        facts: [
          { ...base, id: 'c1', text: 'Type 2 diabetes', category: 'condition', status: 'active', onset: '2019-04', end: null, hidden: false, sources: [source('d1')] },
          { ...base, id: 'c2', text: 'Secret condition', category: 'condition', status: 'active', onset: '2020', end: null, hidden: true, sources: [source('d1')] },
        ],
      },
      {
        key: 'medications',
        title: 'Medications',
        state: 'facts',
        none_known: null,
        facts: [
          { ...base, id: 'm1', text: 'Metformin', category: 'medication', status: 'stopped', onset: '2019-05-01', end: '2023-01-10', hidden: false, details: { dose: '500 mg' }, sources: [source('d2')] },
          { ...base, id: 'p1', text: 'Appendectomy', category: 'procedure', status: null, onset: null, end: null, hidden: false, sources: [source('d2')] },
        ],
      },
    ];
    const changes = medicationChanges([
      { section: 'medications', category: 'medication', text: 'Metformin', details: { dose: '500 mg' }, recorded: '2019-05-01', sources: [{ documentId: 'd1', filename: 'd1.xml', page: null, quote: '' }] },
      { section: 'medications', category: 'medication', text: 'Metformin', details: { dose: '1000 mg' }, recorded: '2021-08-01', sources: [{ documentId: 'd2', filename: 'd2.xml', page: null, quote: '' }] },
    ]);
    expect(changes).toEqual([
      { date: '2021-08-01', kind: 'medication', change: 'changed', title: 'Metformin', detail: '500 mg → 1000 mg', sources: [
        { document_id: 'd1', filename: 'd1.xml', page: null },
        { document_id: 'd2', filename: 'd2.xml', page: null },
      ] },
    ]);
    const timeline = buildTimeline(sections, [{ documentId: 'd1', filename: 'd1.xml', documentDate: '2022-03-04' }, { documentId: 'd2', filename: 'd2.xml', documentDate: null }], changes);
    expect(timeline.map((e) => [e.date, e.kind, e.change, e.title])).toEqual([
      ['2023-01-10', 'medication', 'stopped', 'Metformin'],
      ['2022-03-04', 'visit', 'recorded', 'Visit'],
      ['2021-08-01', 'medication', 'changed', 'Metformin'],
      ['2019-05-01', 'medication', 'started', 'Metformin'],
      ['2019-04', 'condition', 'diagnosed', 'Type 2 diabetes'],
      [null, 'procedure', 'recorded', 'Appendectomy'],
    ]);
    expect(timeline.find((e) => e.change === 'started')?.detail).toBe('500 mg');
    expect(timeline[0]?.sources).toEqual([{ document_id: 'd2', filename: 'd2.xml', page: null }]);
  });
});
