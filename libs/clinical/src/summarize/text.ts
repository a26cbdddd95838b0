// Small text helpers shared by the engine, the merge and the quality runner.

const MAX_QUOTE = 200;

/** Lower case, accents off, punctuation to spaces, single spaces: what two spellings must share to match. */
export function normaliseKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]s\b/g, 's')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The line a fact came from, as a citation: whitespace collapsed, at most 200 characters. */
export function quoteOf(line: string): string {
  const text = line.replace(/\s+/g, ' ').trim();
  return text.length <= MAX_QUOTE ? text : `${text.slice(0, MAX_QUOTE - 1)}…`;
}

/** "METFORMIN ER" -> "Metformin ER"; mixed case is kept as the clinic wrote it. */
export function displayCase(text: string): string {
  const letters = text.replace(/[^A-Za-z]/g, '');
  if (letters.length > 3 && letters === letters.toUpperCase()) {
    const lower = text
      .toLowerCase()
      .replace(/\b(er|xl|sr|dr|hcl|hfa|ii|iii|iv|copd|gerd|hiv|ckd)\b/g, (m) => m.toUpperCase());
    return lower.charAt(0).toUpperCase() + lower.slice(1);
  }
  // Tall-man drug names ("metFORMIN", "amLODIPine") read as ordinary words.
  if (/^[a-z]{2,}[A-Z]{2,}/.test(text)) {
    const word = /^\S+/.exec(text)?.[0] ?? '';
    return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase() + text.slice(word.length);
  }
  // "eGFR", "pH" keep their small first letter.
  if (/^[a-z][A-Z]/.test(text)) return text;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';

const pad = (n: number): string => String(n).padStart(2, '0');

function fullYear(y: string): number {
  const n = Number(y);
  if (y.length === 4) return n;
  // Two-digit years pivot at 50 (a fixed rule, so the same text always gives the same date).
  return n < 50 ? 2000 + n : 1900 + n;
}

function valid(year: number, month: number, day?: number): boolean {
  return year >= 1900 && year <= 2100 && month >= 1 && month <= 12 && (day === undefined || (day >= 1 && day <= 31));
}

interface DateMatch {
  iso: string;
  index: number;
  length: number;
}

const DATE_PATTERNS: [RegExp, (m: RegExpExecArray) => string | null][] = [
  [/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g, (m) => iso(Number(m[1]), Number(m[2]), Number(m[3]))],
  [/\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/g, (m) => iso(fullYear(m[3] ?? ''), Number(m[1]), Number(m[2]))],
  [
    new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi'),
    (m) => iso(Number(m[3]), monthOf(m[1] ?? ''), Number(m[2])),
  ],
  [
    new RegExp(`\\b(\\d{1,2})\\s+${MONTH}\\s+(\\d{4})\\b`, 'gi'),
    (m) => iso(Number(m[3]), monthOf(m[2] ?? ''), Number(m[1])),
  ],
  [new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'gi'), (m) => isoMonth(Number(m[2]), monthOf(m[1] ?? ''))],
  [/\b(\d{1,2})\/(\d{4})\b/g, (m) => isoMonth(Number(m[2]), Number(m[1]))],
  [/\b(19[5-9]\d|20[0-4]\d)\b/g, (m) => m[1] ?? ''],
];

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;
}

function iso(year: number, month: number, day: number): string | null {
  return valid(year, month, day) ? `${year}-${pad(month)}-${pad(day)}` : null;
}

function isoMonth(year: number, month: number): string | null {
  return valid(year, month) ? `${year}-${pad(month)}` : null;
}

/** Every date in a text, most precise reading first where two overlap, in reading order. */
export function findDates(text: string): DateMatch[] {
  const found: DateMatch[] = [];
  for (const [pattern, toIso] of DATE_PATTERNS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const value = toIso(m);
      const at = m.index;
      const end = at + m[0].length;
      const overlaps = found.some((f) => at < f.index + f.length && f.index < end);
      if (value && !overlaps) found.push({ iso: value, index: m.index, length: m[0].length });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

export function firstDate(text: string): string | undefined {
  return findDates(text)[0]?.iso;
}

// Labels of the date a document was written, best first (a discharge date beats an admission date).
const HEADER_DATE_LABELS = [
  /\b(discharge date|date of discharge|discharged)\b/i,
  /\b(date of service|dos|service date|visit date|date of visit|encounter date|appointment date|note date)\b/i,
  /\b(report date|reported|date reported|result date|collected|collection date|date collected)\b/i,
  /\b(date of letter|letter date|referral date|printed|print date|generated|as of)\b/i,
  /^\s*(date|dated)\b/i,
];

/** The date a document's header gives for when it was written ("Date of Service: 03/14/2024"). */
export function headerDate(lines: string[]): string | undefined {
  const head = lines.slice(0, 40);
  for (const label of HEADER_DATE_LABELS) {
    for (const line of head) {
      const m = label.exec(line);
      if (!m) continue;
      // The date after the label on the same line (a DOB on the same line comes before it, or is labelled).
      const after = line.slice(m.index + m[0].length);
      const date = findDates(after)[0];
      if (date && date.iso.length === 10 && !/\b(dob|birth)\b/i.test(after.slice(0, date.index))) return date.iso;
    }
  }
  return undefined;
}

/** Comparable form of a partial ISO date ("2019" < "2019-04" < "2019-04-02"). */
export function dateKey(value: string | undefined): string {
  return value ? value.slice(0, 10) : '';
}
