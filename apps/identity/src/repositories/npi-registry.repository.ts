import { isValidNpi } from '../providers/npi';
import type { LicenseVerifier, RegistryAnswer } from '../providers/license-verifier';

/** The parts of an NPPES NPI Registry API (version 2.1) answer we read. */
interface NppesTaxonomy {
  desc?: unknown;
  state?: unknown;
  primary?: unknown;
}
interface NppesResult {
  number?: unknown;
  enumeration_type?: unknown;
  basic?: { first_name?: unknown; middle_name?: unknown; last_name?: unknown; credential?: unknown; status?: unknown };
  taxonomies?: NppesTaxonomy[];
}
interface NppesAnswer {
  result_count?: unknown;
  results?: NppesResult[];
  Errors?: unknown;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The NPPES NPI Registry API (https://npiregistry.cms.hhs.gov/api/?version=2.1&number=...): public,
 * no key. `results[].enumeration_type` is NPI-1 for an individual, NPI-2 for an organisation;
 * `basic` holds the name and credential; `taxonomies[]` the specialties, one marked `primary`, with
 * the licence's state. An unknown number answers `result_count: 0`; a malformed one `Errors`.
 * The base URL is configuration (NPI_REGISTRY_URL), so tests point it at a local stand-in.
 *
 * A repository: the only place identity asks the registry. It reads the answer into a
 * {@link RegistryAnswer}; what the answer means for the claim is LicenseService's.
 */
export class NpiRegistryRepository implements LicenseVerifier {
  readonly registry = 'nppes';

  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
  ) {}

  isWellFormed(licenseNumber: string): boolean {
    return isValidNpi(licenseNumber);
  }

  async lookUp(npi: string): Promise<RegistryAnswer> {
    const url = new URL(this.baseUrl);
    if (!url.searchParams.has('version')) url.searchParams.set('version', '2.1');
    url.searchParams.set('number', npi);
    let answer: NppesAnswer;
    try {
      const response = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'error' });
      if (!response.ok) {
        await response.body?.cancel();
        return { kind: 'unavailable', reason: `registry answered ${response.status}` };
      }
      answer = (await response.json()) as NppesAnswer;
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      return { kind: 'unavailable', reason: name === 'TimeoutError' ? 'registry timed out' : `registry unreachable (${name})` };
    }
    if (!answer || typeof answer !== 'object') return { kind: 'unavailable', reason: 'registry answer unreadable' };
    // A malformed number: we checked the format first, so this is the registry refusing it.
    if (answer.Errors) return { kind: 'not-found' };
    const results = Array.isArray(answer.results) ? answer.results : [];
    const result = results.find((r) => text(r.number) === npi) ?? (results.length === 1 ? results[0] : undefined);
    if (!result) return { kind: 'not-found' };
    if (text(result.enumeration_type) === 'NPI-2') return { kind: 'organisation' };
    if (text(result.enumeration_type) !== 'NPI-1') return { kind: 'not-found' };
    // A deactivated NPI has status other than 'A'.
    if (result.basic?.status !== undefined && text(result.basic.status) !== 'A') return { kind: 'not-found' };
    const taxonomies = Array.isArray(result.taxonomies) ? result.taxonomies : [];
    const primary = taxonomies.find((t) => t.primary === true) ?? taxonomies[0];
    return {
      kind: 'individual',
      record: {
        number: npi,
        firstName: text(result.basic?.first_name),
        middleName: text(result.basic?.middle_name),
        lastName: text(result.basic?.last_name),
        credential: text(result.basic?.credential),
        specialty: text(primary?.desc),
        state: text(primary?.state),
      },
    };
  }
}
