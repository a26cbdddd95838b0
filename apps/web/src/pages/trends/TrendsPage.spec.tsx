import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TrendPoint, TrendSeries, TrendsReply } from '@medfolio/contracts';
import { fakeServer } from '../../test/fake-server';
import { nth } from '../../test/nth';
import { renderPage } from '../../test/render';
import { clearTokens, storeTokens } from '../../session/tokens';
import { displayUnit, formatPointDate, newestFirst, pointTime, rangeText, withUnit } from './format';
import TrendsPage from './TrendsPage';

const DOC = '5b0c1c9e-0000-4000-8000-00000000000a';
const PDF = '5b0c1c9e-0000-4000-8000-00000000000b';

const point = (overrides: Partial<TrendPoint>): TrendPoint => ({
  date: '2020-01-01',
  value: 1,
  original: { value: overrides.value ?? 1, unit: 'mg/dL' },
  range: null,
  flag: null,
  flag_from: null,
  interpretation: null,
  sources: [{ document_id: DOC, filename: 'clinic-a.xml', page: null }],
  ...overrides,
});

const ldl: TrendSeries = {
  key: 'ldl',
  name: 'LDL cholesterol',
  category: 'result',
  unit: 'mg/dL',
  ucum: 'mg/dL',
  codes: [{ system: 'LOINC', code: '13457-7' }],
  points: [
    point({
      date: '2019-03-04',
      value: 96,
      range: { low: null, high: 100, text: '<100' },
      flag: 'normal',
      flag_from: 'range',
    }),
    // The same test from a second clinic in mmol/L, converted: flagged by the record itself.
    point({
      date: '2021-06-22',
      value: 162.4,
      original: { value: 4.2, unit: 'mmol/L' },
      range: { low: null, high: 100, text: '<2.6 mmol/L' },
      flag: 'high',
      flag_from: 'source',
      interpretation: 'H',
      sources: [{ document_id: PDF, filename: 'labs.pdf', page: 2 }],
    }),
    point({ date: null, value: 120, sources: [{ document_id: null, filename: null, page: null }] }),
  ],
};

const a1c: TrendSeries = {
  key: 'hba1c',
  name: 'Hemoglobin A1c',
  category: 'result',
  unit: '%',
  ucum: '%',
  codes: [{ system: 'LOINC', code: '4548-4' }],
  points: [
    point({
      date: '2018',
      value: 6.1,
      original: { value: 6.1, unit: '%' },
      range: { low: 4, high: 5.6, text: '4.0-5.6' },
      flag: 'high',
      flag_from: 'range',
    }),
  ],
};

const full: TrendsReply = {
  access: 'full',
  series: [a1c, ldl],
  locked: [],
  timeline: [
    {
      date: '2021-02-01',
      kind: 'medication',
      change: 'stopped',
      title: 'Metformin 500 mg',
      detail: 'twice a day',
      sources: [{ document_id: DOC, filename: 'clinic-a.xml', page: null }],
    },
    { date: '2015-05', kind: 'condition', change: 'diagnosed', title: 'Type 2 diabetes', detail: null, sources: [] },
  ],
  generated_at: '2026-01-01T00:00:00Z',
};

beforeEach(() => storeTokens({ access: 'a', refresh: 'r' }));
afterEach(() => {
  clearTokens();
  jest.restoreAllMocks();
});

describe('the Trends page', () => {
  it('shows each series as a table (caption, date, value, range, flag in words, source) beside its chart, key measures first', async () => {
    const server = fakeServer({ 'GET /api/trends/': () => ({ body: full }) });
    renderPage(<TrendsPage />, { path: '/trends' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Health trends' })).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/trends/')?.authorization).toBe('Bearer a');

    const tables = screen.getAllByRole('table');
    expect(tables.map((t) => within(t).getByText((_, el) => el?.tagName === 'CAPTION').textContent)).toEqual([
      'Hemoglobin A1c (%)',
      'LDL cholesterol (mg/dL)',
    ]);
    const ldlTable = screen.getByRole('table', { name: 'LDL cholesterol (mg/dL)' });
    expect(
      within(ldlTable)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Value', 'Reference range', 'Flag', 'Source']);
    // Newest first, undated last; the converted value says what the source reported.
    const rows = within(ldlTable).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      formatPointDate('2021-06-22'),
      formatPointDate('2019-03-04'),
      'Date not given',
    ]);
    const high = nth(rows, 0);
    expect(within(high).getByText('162.4 mg/dL')).toBeInTheDocument();
    expect(within(high).getByText('reported as 4.2 mmol/L')).toBeInTheDocument();
    expect(within(high).getByText('up to 100 mg/dL')).toBeInTheDocument();
    expect(high.querySelector('[data-flag="high"]')).toHaveTextContent('▲ High');
    expect(within(high).getByText('as the record says (H)')).toBeInTheDocument();
    expect(within(nth(rows, 1)).getByText('In range')).toBeInTheDocument();
    expect(within(nth(rows, 2)).getByText('a document')).toBeInTheDocument();

    // The chart (loaded on demand): the out-of-range value is a triangle with its letter, the band is shaded, the axis in mg/dL.
    const charts = await screen.findAllByTestId('trend-chart');
    const ldlChart = nth(charts, 1);
    expect(ldlChart).toHaveAccessibleName(
      /^LDL cholesterol \(mg\/dL\): 2 values from .* 1 out of range, reference range shaded/,
    );
    const marks = within(ldlChart as unknown as HTMLElement).getAllByTestId('trend-mark');
    expect(marks.map((m) => m.getAttribute('data-flag'))).toEqual(['normal', 'high']);
    expect(nth(marks, 1).querySelector('path')).not.toBeNull();
    expect(nth(marks, 1)).toHaveTextContent('H');
    expect(nth(marks, 0).querySelector('circle')).not.toBeNull();
    expect(ldlChart.querySelector('[data-testid="reference-band"]')).not.toBeNull();
    expect(ldlChart).toHaveTextContent('mg/dL');
    expect(screen.getAllByText('One value has no date: only in the table.')).toHaveLength(1);
  });

  it('opens a cited document in the preview, at its page', async () => {
    fakeServer({
      'GET /api/trends/': () => ({ body: full }),
      [`GET /api/get-document-download-link/${PDF}/`]: () => ({
        body: {
          download_url: '/api/files/documents/labs?sig=s',
          filename: 'labs.pdf',
          expires_at: '2026-11-24T10:05:00.000Z',
        },
      }),
      'GET /api/files/documents/labs': () => ({ text: '%PDF-1.4', headers: { 'content-type': 'application/pdf' } }),
    });
    URL.createObjectURL = jest.fn(() => 'blob:https://localhost/labs');
    URL.revokeObjectURL = jest.fn();
    renderPage(<TrendsPage />, { path: '/trends' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Open labs.pdf, page 2' }));
    expect(await screen.findByLabelText('Preview of labs.pdf')).toHaveAttribute(
      'data',
      'blob:https://localhost/labs#page=2',
    );
    expect(screen.getByRole('heading', { name: 'labs.pdf, page 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
  });

  it('lists the timeline newest first with its sources', async () => {
    fakeServer({ 'GET /api/trends/': () => ({ body: full }) });
    renderPage(<TrendsPage />, { path: '/trends' });
    const timeline = await screen.findByTestId('timeline');
    const items = within(timeline)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === timeline);
    expect(items.map((li) => li.querySelector('p.font-medium')?.textContent)).toEqual([
      'Stopped: Metformin 500 mg',
      'Diagnosed: Type 2 diabetes',
    ]);
    expect(within(nth(items, 0)).getByRole('button', { name: 'Open clinic-a.xml' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Show'), 'condition');
    expect(within(timeline).queryByText('Stopped: Metformin 500 mg')).not.toBeInTheDocument();
  });

  it('in a preview, shows the first series and an upgrade prompt naming the locked tests, with no timeline', async () => {
    fakeServer({
      'GET /api/trends/': () => ({
        body: {
          access: 'preview',
          series: [a1c],
          locked: [
            { key: 'ldl', name: 'LDL cholesterol', points: 3 },
            { key: 'weight', name: 'Body weight', points: 1 },
          ],
          timeline: [],
          generated_at: '2026-01-01T00:00:00Z',
        },
      }),
    });
    renderPage(<TrendsPage />, { path: '/trends' });
    expect(await screen.findByRole('table', { name: 'Hemoglobin A1c (%)' })).toBeInTheDocument();
    expect(screen.getAllByRole('table')).toHaveLength(1);
    const prompt = screen.getByTestId('trends-upgrade');
    expect(within(prompt).getByRole('heading', { name: '2 more tests in your records' })).toBeInTheDocument();
    expect(within(prompt).getByRole('list', { name: 'Tests in the full view' })).toHaveTextContent(
      'LDL cholesterol (3 values)',
    );
    expect(within(prompt).getByRole('list', { name: 'Tests in the full view' })).toHaveTextContent(
      'Body weight (1 value)',
    );
    expect(within(prompt).getByRole('link', { name: 'See Plus and Family' })).toHaveAttribute('href', '/membership');
    expect(screen.queryByRole('heading', { name: 'Timeline' })).not.toBeInTheDocument();
  });

  it('downloads the CSV with the bearer token under the server’s file name', async () => {
    const server = fakeServer({
      'GET /api/trends/': () => ({ body: full }),
      'GET /api/trends/export.csv': () => ({
        text: 'date,test\r\n2021-06-22,LDL\r\n',
        headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="medfolio-trends.csv"' },
      }),
    });
    const saved: { name: string; blob: Blob }[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      saved.push({ name: '', blob });
      return 'blob:https://localhost/csv';
    });
    URL.revokeObjectURL = jest.fn();
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      const last = saved.at(-1);
      if (last) last.name = this.download;
    });
    renderPage(<TrendsPage />, { path: '/trends' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect(await screen.findByText('Your results are downloading as medfolio-trends.csv.')).toBeInTheDocument();
    expect(server.calls.find((c) => c.path === '/api/trends/export.csv')?.authorization).toBe('Bearer a');
    expect(saved).toHaveLength(1);
    expect(nth(saved, 0).name).toBe('medfolio-trends.csv');
    expect(await nth(saved, 0).blob.text()).toBe('date,test\r\n2021-06-22,LDL\r\n');
  });

  it('says when there is nothing yet, and when the trends cannot be loaded', async () => {
    fakeServer({
      'GET /api/trends/': () => ({
        body: { access: 'full', series: [], locked: [], timeline: [], generated_at: '2026-01-01T00:00:00Z' },
      }),
    });
    const first = renderPage(<TrendsPage />, { path: '/trends' });
    expect(await screen.findByRole('heading', { name: 'No results or vital signs yet' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download CSV' })).not.toBeInTheDocument();
    first.unmount();

    fakeServer({
      'GET /api/trends/': () => ({
        status: 503,
        body: { message: 'The summary service is not answering.', code: 'UPSTREAM_UNAVAILABLE' },
      }),
    });
    renderPage(<TrendsPage />, { path: '/trends' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The summary service is not answering.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('trend formatting', () => {
  it('keeps dates as partial as the source gave them', () => {
    expect(formatPointDate('2018')).toBe('2018');
    expect(formatPointDate('2018-03', 'en-GB')).toBe('Mar 2018');
    expect(formatPointDate('2018-03-04', 'en-GB')).toBe('4 Mar 2018');
    expect(pointTime('2018-03')).toBe(Date.UTC(2018, 2, 1));
    expect(pointTime('not a date')).toBeNull();
  });

  it('says a range in words, whichever bounds it has', () => {
    expect(rangeText({ low: 4, high: 5.6, text: null }, '%')).toBe('4–5.6%');
    expect(rangeText({ low: 60, high: null, text: null }, 'mL/min/1.73m2')).toBe('60 mL/min/1.73m² or more');
    expect(rangeText({ low: null, high: null, text: 'negative' }, null)).toBe('negative');
    expect(rangeText(null, 'mg/dL')).toBeNull();
  });

  it('shows UCUM units as a patient reads them', () => {
    expect(displayUnit('mm[Hg]')).toBe('mmHg');
    expect(displayUnit('10*9/L')).toBe('10⁹/L');
    expect(displayUnit('10*3/uL')).toBe('10³/µL');
    expect(displayUnit('kg/m2')).toBe('kg/m²');
    expect(displayUnit('mL/min/{1.73_m2}')).toBe('mL/min/1.73 m²');
    expect(displayUnit('mg/dL')).toBe('mg/dL');
    expect(withUnit(80, 'mm[Hg]')).toBe('80 mmHg');
  });

  it('orders a table newest first, undated last', () => {
    const points = [point({ date: '2019' }), point({ date: null, value: 2 }), point({ date: '2021-01-05', value: 3 })];
    expect(newestFirst(points).map((p) => p.date)).toEqual(['2021-01-05', '2019', null]);
  });
});
