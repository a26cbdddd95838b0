// Unit conversion with UCUM (NLM's @lhncbc/ucum-lhc, already a dependency of the IPS export). A unit
// as a record prints it ("mmHg", "lbs", "K/uL") is first brought to its UCUM code by the IPS export's
// own table (../fhir/ucum.ts), then converted by the library. Mass to amount of substance (mg/dL to
// mmol/L) needs the substance's molecular weight, which the caller passes (MOLECULAR_WEIGHTS).
import { UcumLhcUtils } from '@lhncbc/ucum-lhc';
import { ucumCode } from '../fhir/ucum';

/** The part of the library's converter used here (its own type declaration covers validation only). */
interface UcumConverter {
  convertUnitTo(
    from: string,
    value: number,
    to: string,
    options?: { suggest?: boolean; molecularWeight?: number },
  ): { status: 'succeeded' | 'failed' | 'error'; toVal: number | null; msg: string[] };
}

let converter: UcumConverter | null = null;
function ucum(): UcumConverter {
  converter ??= UcumLhcUtils.getInstance() as unknown as UcumConverter;
  return converter;
}

/** Molecular weights (g/mol) of the analytes whose mass and molar units both appear on reports. */
export const MOLECULAR_WEIGHTS = {
  glucose: 180.16,
  cholesterol: 386.65,
  triglycerides: 885.7,
  creatinine: 113.12,
} as const;

/** The UCUM code of a unit as written, or null when it is not UCUM (after the usual spellings). */
export function toUcum(unit: string | null | undefined): string | null {
  // UCUM has no spaces ("1.73 m2" is "1.73m2"); the library logs a unit it refuses for one. "10+3/ul"
  // is how some reports write 10^3/uL.
  return unit ? ucumCode(unit.replace(/\s+/g, '').replace(/^10\+(\d+)\//, '10^$1/')) : null;
}

/**
 * `value` in `from` expressed in `to`, or null when either unit is not UCUM or they do not convert
 * (not commensurable, or mass/molar without a molecular weight). Units are read as records write them.
 */
export function convertUnit(
  value: number,
  from: string | null | undefined,
  to: string | null | undefined,
  options: { molecularWeight?: number } = {},
): number | null {
  const [a, b] = [toUcum(from), toUcum(to)];
  if (!a || !b) return null;
  if (a === b) return value;
  const result = ucum().convertUnitTo(
    a,
    value,
    b,
    options.molecularWeight ? { molecularWeight: options.molecularWeight } : {},
  );
  return result.status === 'succeeded' && typeof result.toVal === 'number' && Number.isFinite(result.toVal)
    ? result.toVal
    : null;
}

/** Whether two units convert into each other (with the molecular weight, when given). */
export function convertible(
  from: string | null | undefined,
  to: string | null | undefined,
  options: { molecularWeight?: number } = {},
): boolean {
  return convertUnit(1, from, to, options) !== null;
}
