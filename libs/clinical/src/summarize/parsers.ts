// Reading one item (a list line, a table row, a phrase) into the parts of a fact.
import { ALLERGENS, BRANDS, CONDITIONS, DRUGS, FREQUENCIES, PRN, ROUTES, type Concept } from './vocabulary';
import { displayCase, findDates, normaliseKey } from './text';

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// One alternation per vocabulary, longest terms first so "type 2 diabetes mellitus" beats "diabetes".
function alternation(terms: string[]): string {
  return [...new Set(terms)]
    .sort((a, b) => b.length - a.length || a.localeCompare(b))
    .map(escape)
    .join('|');
}

const TERM_TO_CONCEPT = new Map<string, Concept>();
for (const concept of CONDITIONS) {
  for (const term of [...concept.terms, concept.display]) TERM_TO_CONCEPT.set(normaliseKey(term), concept);
}
const ABBREVIATION_TO_CONCEPT = new Map<string, Concept>();
for (const concept of CONDITIONS) for (const a of concept.abbreviations ?? []) ABBREVIATION_TO_CONCEPT.set(a, concept);

// Lower-case terms of 4+ letters match in any case; abbreviations only as written (capitals).
const CONDITION_TERMS = new RegExp(
  `(?<![\\w-])(${alternation(CONDITIONS.flatMap((c) => c.terms).filter((t) => t.length > 4 || !ABBREVIATION_TO_CONCEPT.has(t.toUpperCase())))})(?![\\w-])`,
  'gi',
);
const CONDITION_ABBREVIATIONS = new RegExp(
  `(?<![\\w-])(${alternation([...ABBREVIATION_TO_CONCEPT.keys()])})(?![\\w-])`,
  'g',
);

/** The vocabulary's concept for a whole item ("HTN", "Essential hypertension"), if it is one. */
export function conceptOf(item: string): Concept | undefined {
  const trimmed = item.trim();
  return ABBREVIATION_TO_CONCEPT.get(trimmed) ?? TERM_TO_CONCEPT.get(normaliseKey(trimmed));
}

/**
 * The key a condition is matched by: its concept when the text is one ("HTN"), or names exactly one
 * ("Acute on chronic HFrEF, EF 30%" -> heart failure); else its normalised words.
 */
export function conditionKey(text: string): string {
  const whole = conceptOf(text);
  if (whole) return normaliseKey(whole.display);
  const named = new Set(findConditions(text).map((m) => m.concept.display));
  const [only] = named;
  if (named.size === 1 && only) return normaliseKey(only);
  return normaliseKey(text.replace(/,?\s*unspecified\b/i, ''));
}

export interface Mention {
  concept: Concept;
  start: number;
  end: number;
}

/** Conditions the vocabulary knows, wherever they appear in a text. */
export function findConditions(text: string): Mention[] {
  const found: Mention[] = [];
  for (const pattern of [CONDITION_TERMS, CONDITION_ABBREVIATIONS]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const concept =
        pattern === CONDITION_TERMS
          ? TERM_TO_CONCEPT.get(normaliseKey(m[1] ?? ''))
          : ABBREVIATION_TO_CONCEPT.get(m[1] ?? '');
      const start = m.index;
      const end = start + m[0].length;
      if (concept && !found.some((f) => start < f.end && f.start < end)) found.push({ concept, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

const DRUG_NAMES = new RegExp(`(?<![\\w-])(${alternation([...DRUGS, ...Object.keys(BRANDS)])})(?![\\w-])`, 'gi');

export interface DrugMention {
  start: number;
  end: number;
}

/** Drug names the vocabulary knows, wherever they appear in prose. */
export function findDrugs(text: string): DrugMention[] {
  const found: DrugMention[] = [];
  DRUG_NAMES.lastIndex = 0;
  for (let m = DRUG_NAMES.exec(text); m; m = DRUG_NAMES.exec(text))
    found.push({ start: m.index, end: m.index + m[0].length });
  return found;
}

// Salts and forms that do not make a different drug for matching ("metoprolol succinate ER" = "metoprolol").
const NOT_THE_DRUG = new Set([
  'succinate',
  'tartrate',
  'hydrochloride',
  'hcl',
  'sodium',
  'potassium',
  'calcium',
  'besylate',
  'maleate',
  'mesylate',
  'er',
  'xl',
  'sr',
  'dr',
  'cr',
  'la',
  'xr',
  'ec',
  'hfa',
  'extended',
  'release',
  'delayed',
  'immediate',
  'oral',
  'tablet',
  'tablets',
  'tab',
  'tabs',
  'capsule',
  'capsules',
  'cap',
  'caps',
  'solution',
  'suspension',
  'injection',
  'inhaler',
  'pen',
  'chewable',
  'disintegrating',
  'odt',
  'cream',
  'ointment',
  'patch',
  'aerosol',
  'powder',
  'spray',
  'drops',
]);

/** The key two spellings of one drug share: generic name, no salt or form ("Toprol XL" -> "metoprolol"). */
export function drugKey(name: string): string {
  const key = normaliseKey(name);
  const brand = BRANDS[key] ?? BRANDS[key.split(' ')[0] ?? ''];
  if (brand) return normaliseKey(brand);
  const words = key.split(' ');
  // The first word is always the drug ("potassium chloride" keeps "potassium").
  return [words[0], ...words.slice(1).filter((w) => !NOT_THE_DRUG.has(w) && !/^\d/.test(w))].join(' ');
}

const DOSE =
  /(\d+(?:[.,]\d+)?(?:\s*(?:-|to|\/)\s*\d+(?:\.\d+)?)?)\s*(mg|mcg|µg|ug|g|gm|grams?|ml|l|units?|u|iu|meq|mmol|%|puffs?|tabs?|tablets?|caps?|capsules?|drops?|sprays?|patch(?:es)?|applications?|vials?)\b(?:\s*\/\s*(\d+(?:\.\d+)?\s*)?(ml|hr|h|actuation|act|dose|kg|spray))?/i;
const FORM_WORD =
  /\b(tablets?|tabs?|capsules?|caps?|solution|suspension|injection|inhaler|pen|patch|cream|ointment|aerosol|powder|spray|drops|syrup|liquid|gel|lotion|nebulizer|hfa)\b/i;
const STOPPED =
  /\b(stop(ped)?|discontinue[ds]?|d\/c'?d?|dc'?d|held|hold(ing)?|no longer (taking|using|on)|not taking|completed|ceased|expired)\b/i;
const LEAD = /^\s*(take|takes|taking|use|uses|using|inject|apply|inhale|patient (takes|is taking)|on)\s+/i;

export interface MedParts {
  name: string;
  key: string;
  dose?: string;
  route?: string;
  frequency?: string;
  stopped: boolean;
}

/** A medication line: "Metformin 500 mg PO BID", "LISINOPRIL 10 MG TABLET | 1 tab | oral | daily | Active". */
export function parseMedication(text: string): MedParts | null {
  // "2 (two) times daily" as Epic writes it.
  const line = text
    .replace(/(\d)\s*\([a-z]+\)\s*/gi, '$1 ')
    .replace(/\s+/g, ' ')
    .replace(LEAD, '')
    .trim();
  // The name: words before the first number, form word, route or frequency.
  let cut = [
    line.search(/\s\d|\s\.\d|\(/),
    line.search(FORM_WORD),
    ...ROUTES.map(([r]) => line.search(r)),
    ...FREQUENCIES.map(([r]) => line.search(r)),
    line.search(PRN),
    line.search(/[,:;|]|\s-\s/),
    line.search(STOPPED),
  ]
    .filter((i) => i > 0)
    .reduce((a, b) => Math.min(a, b), line.length);
  let name = line
    .slice(0, cut)
    .replace(/[\s,;:-]+$/, '')
    .trim();
  if (!/[a-z]{3}/i.test(name) || name.split(' ').length > 6) return null;
  let key = drugKey(name);
  // A product named in brackets after the drug ("Insulin (Humulin N)"): when the vocabulary does not
  // know it as a brand of that very drug, it is part of what the patient takes (Humulin N and Humulin R
  // are two insulins, not one).
  const product = /^\(([A-Z][A-Za-z]*(?: [A-Za-z][A-Za-z]*){0,2})\)/.exec(line.slice(cut));
  if (product?.[1] && ![FORM_WORD, PRN, STOPPED, ...ROUTES.map(([r]) => r)].some((re) => re.test(product[1] ?? ''))) {
    const known = BRANDS[normaliseKey(product[1])];
    if (!known || drugKey(known) !== key) {
      name = `${name} (${product[1]})`;
      key = `${key} ${normaliseKey(product[1])}`;
      cut += product[0].length;
    }
  }
  const rest = line.slice(cut);
  const dose = DOSE.exec(rest)?.[0]
    .replace(/\s+/g, ' ')
    .replace(/\btabs?\b/i, 'tablet');
  const route = ROUTES.find(([r]) => r.test(rest))?.[1];
  const freqMatch = FREQUENCIES.map(([r, shown]) => {
    const m = r.exec(rest);
    return m ? shown.replace('$1', m[1] ?? '') : undefined;
  }).find((f) => f);
  const prn = PRN.test(rest);
  const frequency = freqMatch && prn ? `${freqMatch} as needed` : (freqMatch ?? (prn ? 'as needed' : undefined));
  return {
    name: displayCase(name),
    key,
    ...(dose ? { dose: dose.toLowerCase().replace(/\bml\b/, 'mL') } : {}),
    ...(route ? { route } : {}),
    ...(frequency ? { frequency } : {}),
    stopped: STOPPED.test(rest) || /^\s*(stop|discontinue|do not take)\b/i.test(text),
  };
}

/** "Metformin 500 mg by mouth twice daily". */
export function medicationText(parts: MedParts): string {
  return [parts.name, parts.dose, parts.route, parts.frequency].filter(Boolean).join(' ');
}

export interface AllergyParts {
  allergen: string;
  key: string;
  reaction?: string;
  severity?: string;
}

const SEVERITY = /\b(mild|moderate|severe|life[- ]threatening)\b/i;

/** "Penicillin (hives)", "Sulfa - rash", "PCN: anaphylaxis", "Codeine | Nausea | Mild". */
export function parseAllergy(text: string, cells?: { reaction?: string; severity?: string }): AllergyParts | null {
  const line = text.replace(/\s+/g, ' ').trim();
  const m = /^(.+?)(?:\s*[(:]\s*|\s+[-–—]\s+|\s*,\s*)(.+?)\)?\.?$/.exec(line);
  const allergen = (m ? (m[1] ?? '') : line)
    .replace(/\b(allergy|allergic|intolerance)\b/gi, '')
    .replace(/[\s.,;:]+$/, '')
    .trim();
  if (!/[a-z]{2}/i.test(allergen)) return null;
  const key = normaliseKey(allergen);
  const known = ALLERGENS[key];
  const brand = BRANDS[key];
  const rawReaction = cells?.reaction ?? m?.[2];
  const reaction = rawReaction?.replace(/^(reaction|causes?)\s*:?\s*/i, '').trim();
  const severity = cells?.severity ?? SEVERITY.exec(line)?.[1];
  return {
    allergen: known ?? displayCase(allergen),
    key: known ? normaliseKey(known) : brand ? normaliseKey(brand) : key,
    ...(reaction ? { reaction: reaction.toLowerCase() } : {}),
    ...(severity ? { severity: severity.toLowerCase() } : {}),
  };
}

const ICD10 = /\b([A-TV-Z]\d{2}(?:\.\d{1,4}[A-Z]?)?)\b/;

export interface ConditionParts {
  text: string;
  key: string;
  icd10?: string;
  onset?: string;
  end?: string;
}

/** A condition item: "Essential hypertension (I10) - diagnosed 2015", "DM2", "Hyperlipidemia, unspecified". */
/**
 * Punctuation left at the end of a name once dates and status words are gone, but not a bracket
 * that closes one the name opened: "Pneumococcal conjugate vaccine (PCV20)" keeps its ")".
 */
export function trimTrailingPunctuation(text: string): string {
  let out = text;
  for (;;) {
    const last = out.at(-1);
    if (last === undefined) return out;
    if (/[\s,;:.?(-]/.test(last)) out = out.slice(0, -1);
    else if (last === ')' && out.split('(').length < out.split(')').length) out = out.slice(0, -1);
    else return out;
  }
}

export function parseCondition(item: string): ConditionParts | null {
  // Epic's risk-adjustment tags ("(HCC)", "(CMS-HCC)") are billing marks, not part of the name.
  let text = item.replace(/\((CMS[-/ ]?HCC|HHS[-/ ]?HCC|HCC|CMS code)\)/gi, ' ');
  const code =
    /[([]\s*(?:icd-?10(?:-cm)?\s*:?\s*)?([A-TV-Z]\d{2}(?:\.\d{1,4}[A-Z]?)?)\s*[)\]]|\bicd-?10(?:-cm)?\s*:?\s*([A-TV-Z]\d{2}(?:\.\d{1,4}[A-Z]?)?)/i.exec(
      text,
    );
  if (code) text = text.replace(code[0], ' ');
  const dates = findDates(text);
  let onset: string | undefined;
  let end: string | undefined;
  for (const d of dates) {
    const before = text.slice(Math.max(0, d.index - 20), d.index);
    if (/\bresolved|\bended|\buntil|\bto\s*$/i.test(before)) end = d.iso;
    else if (!onset) onset = d.iso;
  }
  // Dates, their labels and status words are not part of the name; so is a bracket holding a date
  // ("(onset Apr 14, 2007)", "[authored Mar 16, 1998]").
  text = text
    .replace(/\([^()]*\b(19|20)\d{2}\b[^()]*\)|\[[^[\]]*\b(19|20)\d{2}\b[^[\]]*\]/g, ' ')
    .replace(
      /\(?\b(since|diagnosed|dx|onset|resolved|started|noted)\b[^()]*?\b(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{4}|\d{4})\)?/gi,
      ' ',
    )
    .replace(/\(\s*(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{4}|\d{4})\s*\)/g, ' ')
    .replace(/\s[-–—]\s.*$/, '')
    // A bare date at the end is the onset, read above ("Kidney stone 2016").
    .replace(/(?<!\b\w+ed),?\s+(\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{1,2}\/\d{4}|(19|20)\d{2})\s*$/, '')
    .replace(
      /\b(active|chronic|resolved|inactive|stable|controlled|well[- ]controlled|uncontrolled|in remission|historical|unspecified|confirmed)\s*\)?\s*$/gi,
      '',
    )
    .replace(/\(\s*\)/g, '')
    .replace(
      /^\W*(personal history of|history of|hx of|h\/o|s\/p|status post|possible|probable|suspected|questionable|rule out|r\/o|remote|prior|previous)\s+/i,
      '',
    )
    .replace(/^[\s,;:.-]+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  text = trimTrailingPunctuation(text);
  if (!/[a-z]{3}|[A-Z]{2}/.test(text)) return null;
  const concept = conceptOf(text);
  const icd10 = code?.[1] ?? code?.[2];
  return {
    text: concept ? concept.display : displayCase(text),
    key: conditionKey(text),
    ...(icd10 && ICD10.test(icd10.toUpperCase()) ? { icd10: icd10.toUpperCase() } : {}),
    ...(onset ? { onset } : {}),
    ...(end ? { end } : {}),
  };
}
