/**
 * The endpoint directory in the SMART App Launch 2.2 "User-access Brands" format: a FHIR Bundle of
 * Organizations (brands and their facilities, `partOf` a brand) naming Endpoints (`address` = the
 * FHIR base URL, `connectionType` hl7-fhir-rest). Parsed once; searched by name, alias and city.
 */

/** One connectable endpoint, with what the search shows and the base URL (never shown, never taken from a user). */
export interface DirectoryEntry {
  id: string;
  name: string;
  aliases: string[];
  locations: string[];
  portal: string | null;
  fhirBaseUrl: string;
  /** Lower-case text the search looks in. */
  searchText: string;
}

interface FhirReference {
  reference?: string;
}
interface FhirOrganization {
  resourceType: 'Organization';
  id?: string;
  name?: string;
  alias?: string[];
  address?: { city?: string; state?: string }[];
  endpoint?: FhirReference[];
  partOf?: FhirReference;
}
interface FhirEndpoint {
  resourceType: 'Endpoint';
  id?: string;
  name?: string;
  status?: string;
  address?: string;
  connectionType?: { system?: string; code?: string };
}
interface BundleEntry {
  fullUrl?: string;
  resource?: { resourceType?: string; id?: string };
}

/** A directory that cannot be used: the message names what is wrong (never a value beyond the entry's id). */
export class DirectoryError extends Error {}

const MAX_ENTRIES = 100_000;
const ID = /^[A-Za-z0-9.-]{1,64}$/;

/** Reads a User-access Brands Bundle into directory entries (one per active FHIR REST Endpoint an Organization names). */
export function parseBrandsBundle(bundle: unknown): DirectoryEntry[] {
  if (!isObject(bundle) || bundle['resourceType'] !== 'Bundle' || !Array.isArray(bundle['entry'])) {
    throw new DirectoryError('The endpoint directory must be a FHIR Bundle with entries (SMART User-access Brands)');
  }
  const entries = bundle['entry'] as BundleEntry[];
  if (entries.length > MAX_ENTRIES) throw new DirectoryError(`The endpoint directory has more than ${MAX_ENTRIES} entries`);
  const byReference = new Map<string, FhirOrganization | FhirEndpoint>();
  for (const entry of entries) {
    const resource = entry.resource;
    if (!isObject(resource) || (resource.resourceType !== 'Organization' && resource.resourceType !== 'Endpoint')) continue;
    const typed = resource as FhirOrganization | FhirEndpoint;
    if (typed.id) byReference.set(`${typed.resourceType}/${typed.id}`, typed);
    if (entry.fullUrl) byReference.set(entry.fullUrl, typed);
  }
  const organizations = [...new Set(byReference.values())].filter((r): r is FhirOrganization => r.resourceType === 'Organization');
  const endpointsOf = (organization: FhirOrganization, depth = 0): FhirEndpoint[] => {
    const own = (organization.endpoint ?? []).map((ref) => byReference.get(ref.reference ?? '')).filter((r): r is FhirEndpoint => r?.resourceType === 'Endpoint');
    if (own.length > 0 || depth > 5 || !organization.partOf?.reference) return own;
    const brand = byReference.get(organization.partOf.reference);
    return brand?.resourceType === 'Organization' ? endpointsOf(brand, depth + 1) : [];
  };
  const result = new Map<string, DirectoryEntry>();
  for (const organization of organizations) {
    for (const endpoint of endpointsOf(organization)) {
      if (!usable(endpoint)) continue;
      const id = endpoint.id as string;
      const name = organization.name?.trim() || endpoint.name?.trim() || id;
      const aliases = (organization.alias ?? []).filter((a) => typeof a === 'string' && a.trim()).map((a) => a.trim());
      const locations = (organization.address ?? []).map((a) => [a.city, a.state].filter(Boolean).join(', ')).filter(Boolean);
      const existing = result.get(id);
      if (existing) {
        // One endpoint shared by a brand's facilities: one entry, every name searchable.
        existing.aliases = unique([...existing.aliases, ...(name === existing.name ? [] : [name]), ...aliases]);
        existing.locations = unique([...existing.locations, ...locations]);
        existing.searchText = searchText(existing);
        continue;
      }
      const entry: DirectoryEntry = { id, name, aliases, locations: unique(locations), portal: endpoint.name?.trim() || null, fhirBaseUrl: (endpoint.address as string).replace(/\/+$/, ''), searchText: '' };
      entry.searchText = searchText(entry);
      result.set(id, entry);
    }
  }
  if (result.size === 0) throw new DirectoryError('The endpoint directory names no usable Endpoint (active, hl7-fhir-rest, an http(s) address, an id)');
  return [...result.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Entries whose name, aliases, portal or locations contain every word of `q` (case- and accent-insensitive). */
export function searchDirectory(entries: readonly DirectoryEntry[], q: string | undefined, limit: number): DirectoryEntry[] {
  const words = fold(q ?? '').split(/\s+/).filter(Boolean);
  return entries.filter((entry) => words.every((word) => entry.searchText.includes(word))).slice(0, limit);
}

function usable(endpoint: FhirEndpoint): boolean {
  if (!endpoint.id || !ID.test(endpoint.id)) return false;
  if (endpoint.status && endpoint.status !== 'active') return false;
  if (endpoint.connectionType?.code && endpoint.connectionType.code !== 'hl7-fhir-rest') return false;
  return typeof endpoint.address === 'string' && /^https?:\/\/[^\s]+$/.test(endpoint.address);
}

function searchText(entry: Pick<DirectoryEntry, 'name' | 'aliases' | 'locations' | 'portal'>): string {
  return fold([entry.name, ...entry.aliases, ...entry.locations, entry.portal ?? ''].join(' '));
}

function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
