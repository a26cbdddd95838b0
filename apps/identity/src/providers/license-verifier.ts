/**
 * A licence registry. The NPPES NPI Registry implements it (NpiRegistryRepository); a state
 * medical board or another country's register could implement it the same way and be chosen by
 * configuration. Implementations only ask: the decisions (name match, one account per licence, the
 * role) are LicenseService's.
 */
export interface LicenseVerifier {
  /** Short name stored with the facts, e.g. 'nppes'. */
  readonly registry: string;
  /** A local check before any request (format, check digit): false → "not found" without asking. */
  isWellFormed(licenseNumber: string): boolean;
  lookUp(licenseNumber: string): Promise<RegistryAnswer>;
}

export type RegistryAnswer =
  | { kind: 'individual'; record: RegistryRecord }
  | { kind: 'organisation' }
  | { kind: 'not-found' }
  /** Unreachable, 5xx, time-out, or an answer we cannot read: "try again later", never "not found". */
  | { kind: 'unavailable'; reason: string };

export interface RegistryRecord {
  number: string;
  firstName: string;
  middleName: string;
  lastName: string;
  credential: string;
  specialty: string;
  state: string;
}

export const LICENSE_VERIFIER = Symbol('LICENSE_VERIFIER');
