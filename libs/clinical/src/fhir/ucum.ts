// Units as UCUM (https://ucum.org), the unit system FHIR Quantities and the R4 vital-sign profiles
// require: what records print ("bpm", "mmHg", "°F", "lb", "K/uL") mapped to a UCUM code, then checked
// by NLM's UCUM library (@lhncbc/ucum-lhc). A unit that is not UCUM after that stays text only.
import { UcumLhcUtils } from '@lhncbc/ucum-lhc';

export const UCUM_SYSTEM = 'http://unitsofmeasure.org';

/**
 * Spellings records use that are not UCUM, or are UCUM for something else ("K/uL" is kelvin per
 * microlitre in UCUM; on a lab report it is thousands per microlitre), as UCUM. Keys are compared
 * case-insensitively, after spaces are taken out.
 */
const SPELLINGS: Record<string, string> = {
  bpm: '/min',
  'beats/min': '/min',
  'beats/minute': '/min',
  '/minute': '/min',
  'breaths/min': '/min',
  'breaths/minute': '/min',
  'br/min': '/min',
  rpm: '/min',
  mmhg: 'mm[Hg]',
  '°f': '[degF]',
  degf: '[degF]',
  'deg f': '[degF]',
  f: '[degF]',
  '°c': 'Cel',
  degc: 'Cel',
  c: 'Cel',
  lb: '[lb_av]',
  lbs: '[lb_av]',
  pound: '[lb_av]',
  pounds: '[lb_av]',
  oz: '[oz_av]',
  in: '[in_i]',
  inch: '[in_i]',
  inches: '[in_i]',
  '"': '[in_i]',
  ft: '[ft_i]',
  'kg/m²': 'kg/m2',
  'k/ul': '10*3/uL',
  'k/mm3': '10*3/uL',
  'x10e3/ul': '10*3/uL',
  'x10^3/ul': '10*3/uL',
  '10^3/ul': '10*3/uL',
  'thou/ul': '10*3/uL',
  'm/ul': '10*6/uL',
  'x10e6/ul': '10*6/uL',
  'x10^6/ul': '10*6/uL',
  '10^6/ul': '10*6/uL',
  'miu/l': 'm[IU]/L',
  'miu/ml': 'm[IU]/mL',
  'uiu/ml': 'u[IU]/mL',
  'µiu/ml': 'u[IU]/mL',
  'iu/l': '[IU]/L',
  'iu/ml': '[IU]/mL',
  'meq/l': 'meq/L',
  mcg: 'ug',
  'mcg/dl': 'ug/dL',
  'mcg/ml': 'ug/mL',
  'mcg/l': 'ug/L',
  'µg/dl': 'ug/dL',
  'µg/ml': 'ug/mL',
  'µg/l': 'ug/L',
  'ml/min/1.73m2': 'mL/min/{1.73_m2}',
  'ml/min/1.73m²': 'mL/min/{1.73_m2}',
  'ml/min/1.73': 'mL/min/{1.73_m2}',
  sec: 's',
  secs: 's',
  seconds: 's',
  fl: 'fL',
  'mm/hr': 'mm/h',
  'mm/hour': 'mm/h',
  'cells/ul': '/uL',
  '/hpf': '/[HPF]',
  '/lpf': '/[LPF]',
};

let utils: ReturnType<typeof UcumLhcUtils.getInstance> | null = null;
const known = new Map<string, string | null>();

/** The UCUM code for a unit as a record prints it, or null when it is not (or not surely) UCUM. */
export function ucumCode(unit: string | null | undefined): string | null {
  const text = unit?.trim();
  if (!text) return null;
  const cached = known.get(text);
  if (cached !== undefined) return cached;
  const candidate = SPELLINGS[text.replace(/\s+/g, '').toLowerCase()] ?? SPELLINGS[text.toLowerCase()] ?? text;
  utils ??= UcumLhcUtils.getInstance();
  const result = utils.validateUnitString(candidate, false);
  // Only a unit the library takes as written: it may rewrite what it reads ("1.73m2" as 1.(73.m2)).
  const code = result.status === 'valid' && result.ucumCode === candidate ? candidate : null;
  known.set(text, code);
  return code;
}
