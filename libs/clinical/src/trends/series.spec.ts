import type { Observation } from './observations';
import { buildSeries } from './series';

const obs = (o: Omit<Partial<Observation>, 'code'> & { code: string; value: number; date: string }): Observation => ({
  name: o.name ?? 'Test',
  category: o.category ?? 'result',
  unit: o.unit,
  range: o.range,
  interpretation: o.interpretation,
  source: o.source ?? { document_id: 'doc-1', filename: 'a.xml' },
  value: o.value,
  date: o.date,
  code: { system: 'LOINC', code: o.code },
});

describe('series', () => {
  it('puts equivalent codes of one test on one line, in the most common unit, by date', () => {
    const series = buildSeries([
      obs({ code: '2345-7', name: 'GLUCOSE:MCNC:PT:SER/PLAS:QN', value: 100, unit: 'mg/dL', date: '2024-03-01' }),
      obs({ code: '2339-0', name: 'Glucose [Mass/volume] in Blood', value: 110, unit: 'mg/dL', date: '2023-01-10' }),
      obs({ code: '2345-7', value: 7, unit: 'mmol/L', date: '2024-06-01', source: { document_id: 'doc-2' } }),
      obs({ code: '718-7', name: 'Hemoglobin', value: 13.2, unit: 'g/dL', date: '2024-01-01' }),
    ]);
    expect(series.map((s) => [s.key, s.name, s.unit, s.points.length])).toEqual([
      ['glucose', 'Glucose', 'mg/dL', 3],
      ['hemoglobin', 'Hemoglobin', 'g/dL', 1],
    ]);
    const glucose = series[0];
    expect(glucose?.points.map((p) => [p.date, p.value, p.original])).toEqual([
      ['2023-01-10', 110, { value: 110, unit: 'mg/dL' }],
      ['2024-03-01', 100, { value: 100, unit: 'mg/dL' }],
      ['2024-06-01', 126.11, { value: 7, unit: 'mmol/L' }],
    ]);
    expect(glucose?.codes.map((c) => c.code).sort()).toEqual(['2339-0', '2345-7']);
  });

  it('on a tie of units, takes the unit of the earliest point, whatever order the observations come in', () => {
    const mg = obs({ code: '2345-7', value: 100, unit: 'mg/dL', date: '2024-03-01' });
    const mmol = obs({ code: '2345-7', value: 7, unit: 'mmol/L', date: '2024-06-01', source: { document_id: 'doc-2' } });
    for (const order of [[mg, mmol], [mmol, mg]]) {
      const [glucose] = buildSeries(order);
      expect(glucose?.unit).toBe('mg/dL');
      expect(glucose?.points.map((p) => p.value)).toEqual([100, 126.11]);
    }
  });

  it('groups the table of equivalents: A1c, LDL, eGFR, weight', () => {
    const series = buildSeries([
      obs({ code: '4548-4', value: 7.1, unit: '%', date: '2024-01-01' }),
      obs({ code: '17856-6', value: 6.8, unit: '%', date: '2024-05-01' }),
      ...['13457-7', '18262-6', '2089-1'].map((code, i) =>
        obs({ code, value: 100 + i, unit: 'mg/dL', date: `2024-0${i + 1}-02` }),
      ),
      ...['33914-3', '48642-3', '48643-1', '62238-1', '98979-8'].map((code, i) =>
        obs({ code, value: 60 + i, unit: 'mL/min/{1.73_m2}', date: `2024-0${i + 1}-03` }),
      ),
      obs({ code: '29463-7', value: 80, unit: 'kg', date: '2024-01-01', category: 'vital' }),
      obs({ code: '3141-9', value: 180, unit: '[lb_av]', date: '2024-02-01', category: 'vital' }),
      obs({ code: '3141-9', value: 81, unit: 'kg', date: '2024-03-01', category: 'vital' }),
    ]);
    expect(series.map((s) => [s.key, s.unit, s.points.length])).toEqual([
      ['hba1c', '%', 2],
      ['ldl', 'mg/dL', 3],
      ['weight', 'kg', 3],
      ['egfr', 'mL/min/{1.73_m2}', 5],
    ]);
    expect(series.find((s) => s.key === 'weight')?.points.map((p) => p.value)).toEqual([80, 81.65, 81]);
  });

  it('keeps A1c in mmol/mol apart from A1c in % (they are not proportional), under the same name', () => {
    const series = buildSeries([
      obs({ code: '4548-4', value: 7.1, unit: '%', date: '2024-01-01' }),
      obs({ code: '4548-4', value: 6.9, unit: '%', date: '2024-02-01' }),
      obs({ code: '59261-8', value: 53, unit: 'mmol/mol', date: '2024-03-01' }),
    ]);
    expect(series.map((s) => [s.name, s.unit, s.points.map((p) => p.value)])).toEqual([
      ['Hemoglobin A1c', '%', [7.1, 6.9]],
      ['Hemoglobin A1c', 'mmol/mol', [53]],
    ]);
  });

  it('shows the same result from two documents once, citing both', () => {
    const [series] = buildSeries([
      obs({
        code: '2089-1',
        value: 130,
        unit: 'mg/dL',
        date: '2024-01-05',
        source: { document_id: 'a', filename: 'ccd.xml' },
      }),
      obs({
        code: '2089-1',
        value: 130,
        unit: 'mg/dL',
        date: '2024-01-05',
        source: { document_id: 'b', filename: 'ips.json' },
      }),
      obs({
        code: '2089-1',
        value: 130,
        unit: 'mg/dL',
        date: '2024-01-05',
        source: { document_id: 'b', filename: 'ips.json' },
      }),
      obs({ code: '2089-1', value: 131, unit: 'mg/dL', date: '2024-01-05', source: { document_id: 'c' } }),
      obs({ code: '2089-1', value: 130, unit: 'mg/dL', date: '2024-02-05', source: { document_id: 'c' } }),
    ]);
    expect(series?.points.map((p) => [p.date, p.value, p.sources.map((s) => s.document_id)])).toEqual([
      ['2024-01-05', 130, ['a', 'b']],
      ['2024-01-05', 131, ['c']],
      ['2024-02-05', 130, ['c']],
    ]);
  });

  it("flags from the source's interpretation, else from the range, converted to the series' unit", () => {
    const [series] = buildSeries([
      obs({ code: '2345-7', value: 90, unit: 'mg/dL', date: '2024-01-01', range: { low: 70, high: 99 } }),
      obs({
        code: '2345-7',
        value: 140,
        unit: 'mg/dL',
        date: '2024-02-01',
        range: { low: 70, high: 99, unit: 'mg/dL' },
      }),
      obs({
        code: '2345-7',
        value: 3.5,
        unit: 'mmol/L',
        date: '2024-03-01',
        range: { low: 3.9, high: 5.5, unit: 'mmol/L' },
      }),
      obs({
        code: '2345-7',
        value: 95,
        unit: 'mg/dL',
        date: '2024-04-01',
        range: { low: 70, high: 99 },
        interpretation: 'H',
      }),
      obs({ code: '2345-7', value: 95, unit: 'mg/dL', date: '2024-05-01', interpretation: 'LX' }),
      obs({ code: '2345-7', value: 95, unit: 'mg/dL', date: '2024-06-01', range: { text: '<100' } }),
    ]);
    expect(series?.points.map((p) => [p.date, p.flag, p.flag_from])).toEqual([
      ['2024-01-01', 'normal', 'range'],
      ['2024-02-01', 'high', 'range'],
      ['2024-03-01', 'low', 'range'],
      ['2024-04-01', 'high', 'source'],
      ['2024-05-01', 'low', 'source'],
      ['2024-06-01', null, null],
    ]);
    expect(series?.points[2]?.range).toEqual({ low: 70.26, high: 99.09, text: null });
    expect(series?.points[5]?.range).toEqual({ low: null, high: null, text: '<100' });
  });

  it('leaves text values out and puts uncoded results under their name or the table', () => {
    const series = buildSeries([
      { name: 'Hemoglobin A1c', category: 'result', value: 7.4, unit: '%', date: '2024-01-01', code: null, source: {} },
      {
        name: 'Urine culture',
        category: 'result',
        value: null,
        text: 'No growth',
        date: '2024-01-01',
        code: null,
        source: {},
      },
      { name: 'Ferritin', category: 'result', value: 40, unit: 'ng/mL', date: '2024-01-01', code: null, source: {} },
    ]);
    expect(series.map((s) => [s.key, s.name])).toEqual([
      ['hba1c', 'Hemoglobin A1c'],
      ['name:ferritin', 'Ferritin'],
    ]);
  });
});
