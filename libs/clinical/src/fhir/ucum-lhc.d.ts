// The part of @lhncbc/ucum-lhc (NLM's UCUM library, no types of its own) that ucum.ts uses.
declare module '@lhncbc/ucum-lhc' {
  export interface UcumValidation {
    status: 'valid' | 'invalid' | 'error';
    ucumCode: string | null;
    msg: string[];
  }
  export const UcumLhcUtils: {
    getInstance(): { validateUnitString(unit: string, suggest?: boolean): UcumValidation };
  };
}
