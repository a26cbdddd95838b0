import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { observationsFromCcda, observationsFromFhir, type Observation } from './observations';
import { buildSeries } from './series';

// The public corpus (quality/public): HL7's C-CDA examples and the IPS / AU PS FHIR Bundles, each
// file read on its own, all as if one patient had uploaded them.
const PUBLIC = join(__dirname, '../../quality/public');

function corpus(): Observation[] {
  const out: Observation[] = [];
  for (const dir of readdirSync(PUBLIC, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const file of readdirSync(join(PUBLIC, dir.name)).sort()) {
      const text = readFileSync(join(PUBLIC, dir.name, file), 'utf8');
      const source = { document_id: dir.name, filename: file };
      if (file.endsWith('.xml')) out.push(...observationsFromCcda(text, source));
      else if (file.endsWith('.json') && file !== 'expected.json') out.push(...observationsFromFhir(text, source));
    }
  }
  return out;
}

describe('trends from the public corpus', () => {
  const observations = corpus();
  const series = buildSeries(observations);
  const byKey = (key: string) => series.find((s) => s.key === key);

  it('reads the results and vital signs of the C-CDA documents and the FHIR Observations', () => {
    const numeric = observations.filter((o) => o.value !== null);
    const points = series.reduce((n, s) => n + s.points.length, 0);
    console.log(
      `trends corpus: ${observations.length} observations (${numeric.length} numeric), ${series.length} series, ${points} points`,
    );
    expect(observations.length).toBe(137);
    expect(numeric.length).toBe(110);
    expect(series.length).toBe(26);
    expect(points).toBe(65);
    // Every document with a Results or Vital Signs section gives some, and so do both AU Bundles.
    const documents = new Set(observations.map((o) => o.source.document_id));
    for (const name of [
      'hl7-ccd',
      'hl7-ccd-2',
      'hl7-discharge-summary',
      'hl7-history-and-physical',
      'fhir-au-ps-referral',
      'fhir-au-ps-provider-summary',
      'fhir-ips-example-01',
    ])
      expect(documents.has(name)).toBe(true);
  });

  it('keeps the C-CDA value, unit, range, interpretation and date as the source gave them', () => {
    const hemoglobin = observations.find((o) => o.source.document_id === 'hl7-ccd' && o.code?.code === '718-7');
    expect(hemoglobin).toEqual({
      code: { system: 'LOINC', code: '718-7', display: 'Hemoglobin' },
      name: 'Hemoglobin',
      category: 'result',
      value: 13.2,
      unit: 'g/dL',
      range: { low: 12, high: 15.5, unit: 'g/dL' },
      interpretation: 'N',
      date: '2008-03-19',
      source: { document_id: 'hl7-ccd', filename: 'ccd.xml' },
    });
  });

  it("splits a FHIR blood pressure into its components and keeps a range's text", () => {
    const au = observations.filter((o) => o.source.document_id === 'fhir-au-ps-provider-summary');
    expect(
      au.filter((o) => ['8480-6', '8462-4'].includes(o.code?.code ?? '')).map((o) => [o.code?.code, o.value, o.unit]),
    ).toEqual([
      ['8480-6', 120, 'mmHg'],
      ['8462-4', 80, 'mmHg'],
    ]);
    const leucocytes = observations.find((o) => o.code?.code === '30405-5');
    expect([leucocytes?.value, leucocytes?.unit, leucocytes?.range]).toEqual([370, '10*6/L', { text: '<10' }]);
  });

  it('puts the same measure from several documents on one line, each value once with all its citations', () => {
    const systolic = byKey('systolic');
    expect([systolic?.unit, systolic?.ucum]).toEqual(['mmHg', 'mm[Hg]']);
    expect(systolic?.points.map((p) => p.date)).toEqual([...(systolic?.points.map((p) => p.date) ?? [])].sort());
    // HL7's examples repeat one patient's vitals: 128 mmHg on 2011-09-01 in five documents.
    const shared = systolic?.points.find((p) => p.date === '2011-09-01');
    expect(shared?.value).toBe(128);
    expect(shared?.sources.map((s) => s.document_id).sort()).toEqual([
      'hl7-ccd',
      'hl7-consultation-note',
      'hl7-progress-note',
      'hl7-referral-note',
      'hl7-transfer-summary',
    ]);
    // Eight readings from nine documents, in one unit.
    expect(systolic?.points.length).toBe(8);
    // Platelets 123 (low): flagged by the source ("LX" in the CCD).
    const platelets = byKey('platelets');
    expect(platelets?.points.find((p) => p.date === '2008-03-19')).toMatchObject({
      value: 123,
      flag: 'low',
      flag_from: 'source',
      interpretation: 'LX',
    });
    // Reports writing 10+3/ul join 10*9/L.
    expect(platelets?.points.some((p) => p.original.unit === '10+3/ul')).toBe(true);
    // The key measures the corpus has come first, by name.
    expect(series.slice(0, 4).map((s) => s.name)).toEqual([
      'Hemoglobin A1c',
      'Blood pressure (systolic)',
      'Blood pressure (diastolic)',
      'Body weight',
    ]);
  });
});
