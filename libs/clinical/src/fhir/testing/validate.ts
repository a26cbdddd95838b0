// Checks for FHIR output in tests: the official FHIR R4 JSON schema (data/, see data/NOTICE.md) and
// the IPS document rules that apply to what we send. Test support only (never shipped).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Ajv, { type ValidateFunction } from 'ajv';
import type { Bundle, Composition, CompositionSection, Resource } from '@medplum/fhirtypes';
import { IPS_DOCUMENT_CODE, IPS_SECTIONS, LOINC } from '../ips';

let compiled: { ajv: Ajv; byType: Map<string, ValidateFunction> } | null = null;

function validator(): { ajv: Ajv; byType: Map<string, ValidateFunction> } {
  if (compiled) return compiled;
  const schema = JSON.parse(
    gunzipSync(readFileSync(join(__dirname, 'data/fhir.schema.json.gz'))).toString('utf8'),
  ) as Record<string, unknown>;
  // The schema is draft-06 and names itself with draft-04's "id"; ajv wants "$id".
  const { id: _id, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  ajv.addSchema({ ...rest, $id: 'fhir' });
  compiled = { ajv, byType: new Map() };
  return compiled;
}

/** Schema errors of one resource ("Bundle/entry/3/resource/code: must be object"); [] when valid. */
export function fhirSchemaErrors(resource: Resource | Record<string, unknown>): string[] {
  const { ajv, byType } = validator();
  const type = String((resource as { resourceType?: unknown }).resourceType ?? '');
  let validate = byType.get(type);
  if (!validate) {
    // An unknown resourceType fails the whole schema's oneOf, which says so.
    validate = ajv.getSchema(`fhir#/definitions/${type}`)
      ? ajv.compile({ $ref: `fhir#/definitions/${type}` })
      : ajv.compile({ $ref: 'fhir' });
    byType.set(type, validate);
  }
  if (validate(resource)) return [];
  return (validate.errors ?? []).map(
    (e) => `${type}${e.instancePath}: ${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** Every `reference` string anywhere in a value. */
function referencesIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) referencesIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'reference' && typeof v === 'string') out.push(v);
      else referencesIn(v, out);
    }
  }
  return out;
}

const ENTRY_TYPES: Partial<Record<string, string[]>> = {
  [IPS_SECTIONS.problems.code]: ['Condition'],
  [IPS_SECTIONS.pastIllness.code]: ['Condition'],
  [IPS_SECTIONS.medications.code]: ['MedicationStatement', 'MedicationRequest'],
  [IPS_SECTIONS.allergies.code]: ['AllergyIntolerance'],
  [IPS_SECTIONS.immunizations.code]: ['Immunization'],
  [IPS_SECTIONS.procedures.code]: ['Procedure'],
  [IPS_SECTIONS.results.code]: ['Observation', 'DiagnosticReport'],
  [IPS_SECTIONS.vitalSigns.code]: ['Observation'],
};

/**
 * The IPS document rules that apply to our Bundles: a document Bundle with identifier and timestamp;
 * the Composition first, typed 60591-5, with subject, author, title and date; unique fullUrls; every
 * reference resolves inside the Bundle and every resource is referenced; the three required sections
 * (problems, medications, allergies) present; each section has a narrative and either entries or an
 * emptyReason (never both, cmp-2), entries of the section's resource types. [] when all hold.
 */
export function ipsProblems(bundle: Bundle): string[] {
  const problems: string[] = [];
  if (bundle.resourceType !== 'Bundle') return ['not a Bundle'];
  if (bundle.type !== 'document') problems.push(`Bundle.type is ${bundle.type}, not document`);
  if (!bundle.identifier?.system || !bundle.identifier.value)
    problems.push('Bundle.identifier needs system and value (bdl-9)');
  if (!bundle.timestamp) problems.push('Bundle.timestamp missing (bdl-10)');
  const entries = bundle.entry ?? [];
  const urls = entries.map((e) => e.fullUrl);
  if (urls.some((u) => !u)) problems.push('an entry has no fullUrl');
  if (new Set(urls).size !== urls.length) problems.push('fullUrls are not unique (bdl-7)');
  const byUrl = new Map(entries.map((e) => [e.fullUrl ?? '', e.resource]));

  const composition = entries[0]?.resource as Composition | undefined;
  if (composition?.resourceType !== 'Composition')
    return [...problems, 'the first entry is not a Composition (bdl-11)'];
  if (!composition.type.coding?.some((c) => c.system === LOINC && c.code === IPS_DOCUMENT_CODE))
    problems.push('Composition.type is not LOINC 60591-5');
  if (!composition.title || !composition.date || !(composition.author?.length ?? 0))
    problems.push('Composition needs title, date and author');
  const subject = composition.subject?.reference ? byUrl.get(composition.subject.reference) : undefined;
  if (subject?.resourceType !== 'Patient')
    problems.push('Composition.subject does not point to a Patient in the Bundle');

  const referenced = new Set<string>();
  for (const entry of entries) {
    for (const ref of referencesIn(entry.resource)) {
      referenced.add(ref);
      if (!byUrl.has(ref)) problems.push(`${entry.resource?.resourceType} refers to ${ref}, not in the Bundle`);
    }
  }
  for (const entry of entries.slice(1)) {
    if (entry.fullUrl && !referenced.has(entry.fullUrl))
      problems.push(`${entry.resource?.resourceType} ${entry.fullUrl} is not referenced`);
  }

  const sections: CompositionSection[] = composition.section ?? [];
  const codeOf = (s: CompositionSection): string | undefined => s.code?.coding?.find((c) => c.system === LOINC)?.code;
  for (const required of [IPS_SECTIONS.problems, IPS_SECTIONS.medications, IPS_SECTIONS.allergies]) {
    if (!sections.some((s) => codeOf(s) === required.code))
      problems.push(`required section ${required.code} (${required.title}) missing`);
  }
  const codes = sections.map(codeOf);
  if (new Set(codes).size !== codes.length) problems.push('a section appears twice');
  for (const section of sections) {
    const code = codeOf(section) ?? '?';
    if (!section.title) problems.push(`section ${code} has no title`);
    if (!section.text?.div?.startsWith('<div xmlns="http://www.w3.org/1999/xhtml">'))
      problems.push(`section ${code} has no XHTML narrative`);
    const hasEntries = (section.entry?.length ?? 0) > 0;
    if (hasEntries && section.emptyReason) problems.push(`section ${code} has entries and an emptyReason (cmp-2)`);
    const allowed = ENTRY_TYPES[code];
    if (allowed && !hasEntries && !section.emptyReason)
      problems.push(`section ${code} has neither entries nor an emptyReason`);
    for (const ref of section.entry ?? []) {
      const type = byUrl.get(ref.reference ?? '')?.resourceType;
      if (allowed && type && !allowed.includes(type)) problems.push(`section ${code} lists a ${type}`);
    }
  }
  return problems;
}

/** Schema errors of the Bundle and of each resource in it, then the IPS rules: [] when all is well. */
export function validateIpsBundle(bundle: Bundle): string[] {
  const errors = fhirSchemaErrors(bundle);
  for (const entry of bundle.entry ?? []) if (entry.resource) errors.push(...fhirSchemaErrors(entry.resource));
  return [...errors, ...ipsProblems(bundle)];
}
