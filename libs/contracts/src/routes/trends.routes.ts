import { TRENDS_SUBJECTS } from '../trends';
import { handled, ownRead } from './route';

/** Health trends: the patient's results and vital signs over time, and their CSV. */
export const TREND_ROUTES = {
  trendsGet: ownRead(TRENDS_SUBJECTS.get, '/api/trends/', 'trends',
    "The signed-in patient's lab results and vital signs as series over time, and a timeline of conditions, medicines, procedures and visits", 'TrendsReply', {
      description:
        'One series per test: equivalent LOINC codes on one line, values converted to the most common unit with UCUM (glucose in mg/dL and mmol/L on one axis), ' +
        'points by date with the reference range, an out-of-range flag (the source\'s interpretation, else computed from the range) and the documents that gave them. ' +
        'Key measures first (A1c, LDL, blood pressure, weight, BMI, eGFR, glucose...). Plus and Family plans: `access` full, every series and the timeline. ' +
        'Other plans: `access` preview, the first key measure series with points, the others in `locked` (names and point counts), no timeline. Every read is audited.',
      onBehalf: 'view',
    }),
  trendsExport: handled({
    onBehalf: 'view',
    method: 'GET', path: '/api/trends/export.csv', tag: 'trends', auth: 'bearer', rateLimit: 'per-client',
    summary: "Every lab result and vital sign of the signed-in patient as CSV (any plan)",
    description:
      'RFC 4180 CSV (UTF-8, CRLF), one row per observation as each document gave it: date, test, value, unit, value in the series unit, series unit, ' +
      'low, high, flag, interpretation, code system, code, document filename, document id, page. Cells a spreadsheet would read as a formula ' +
      "(starting with = + - @) are prefixed with '. Not limited by plan: the data is the patient's own. Every export is audited.",
    reply: {
      status: 200,
      media: { type: 'text/csv', schema: 'binary' },
      headers: { 'content-disposition': 'attachment; filename="medfolio-trends.csv"', 'cache-control': 'no-store' },
    },
    errors: {},
  }),
};
