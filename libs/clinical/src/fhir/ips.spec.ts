import type {
  AllergyIntolerance,
  Bundle,
  Composition,
  CompositionSection,
  Condition,
  Immunization,
  MedicationStatement,
  Observation,
  Patient,
  Procedure,
  Resource,
} from '@medplum/fhirtypes';
import type { SummaryItem } from '@medfolio/contracts';
import { IPS_ABSENT_UNKNOWN, IPS_SECTIONS, ipsPatient, summaryToIpsBundle } from './ips';
import { corpusSummaries } from './testing/corpus';
import { fhirSchemaErrors, validateIpsBundle } from './testing/validate';

const PATIENT = { id: 'patient-1', given: 'Ada', family: 'Example', birthDate: '1970-05-04' };

let corpus: Map<string, SummaryItem>;
beforeAll(async () => {
  corpus = await corpusSummaries();
}, 60_000);

function composition(bundle: Bundle): Composition {
  return bundle.entry?.[0]?.resource as Composition;
}
function section(bundle: Bundle, code: string): CompositionSection | undefined {
  return composition(bundle).section?.find((s) => s.code?.coding?.some((c) => c.code === code));
}
function entriesOf<T extends Resource>(bundle: Bundle, code: string): T[] {
  const urls = (section(bundle, code)?.entry ?? []).map((e) => e.reference);
  return urls.map((url) => bundle.entry?.find((e) => e.fullUrl === url)?.resource as T);
}
function bundleOf(name: string): Bundle {
  const summary = corpus.get(name);
  if (!summary) throw new Error(`no corpus case ${name}`);
  return summaryToIpsBundle(summary, PATIENT, { now: new Date('2025-02-03T04:05:06Z') });
}

describe('summaryToIpsBundle on the quality corpus', () => {
  it('makes a Bundle for every case that is valid against the FHIR R4 schema and the IPS rules', () => {
    expect(corpus.size).toBeGreaterThanOrEqual(19);
    const failures: Record<string, string[]> = {};
    let resources = 0;
    for (const [name, summary] of corpus) {
      const bundle = summaryToIpsBundle(summary, PATIENT);
      resources += bundle.entry?.length ?? 0;
      const errors = validateIpsBundle(bundle);
      if (errors.length > 0) failures[name] = errors.slice(0, 5);
    }
    expect(failures).toEqual({});
    expect(resources).toBeGreaterThan(100);
  });

  it('keeps the codes the records gave (SNOMED, RxNorm, CVX, LOINC) and the text always', () => {
    const bundle = bundleOf('portal-ccd');
    const problems = entriesOf<Condition>(bundle, IPS_SECTIONS.problems.code);
    expect(problems.find((c) => c.code?.text === 'Type 2 diabetes mellitus')?.code?.coding).toEqual([
      { system: 'http://snomed.info/sct', code: '44054006', display: 'Type 2 diabetes mellitus' },
    ]);
    expect(problems.find((c) => c.code?.text === 'Type 2 diabetes mellitus')?.onsetDateTime).toBe('2019-04-02');
    const meds = entriesOf<MedicationStatement>(bundle, IPS_SECTIONS.medications.code);
    const metformin = meds.find((m) => m.medicationCodeableConcept?.coding?.[0]?.code === '861007');
    expect(metformin?.medicationCodeableConcept?.coding?.[0]?.system).toBe(
      'http://www.nlm.nih.gov/research/umls/rxnorm',
    );
    expect(metformin?.status).toBe('active');
    expect(meds.find((m) => m.medicationCodeableConcept?.coding?.[0]?.code === '308191')?.status).toBe('stopped');
    const allergy = entriesOf<AllergyIntolerance>(bundle, IPS_SECTIONS.allergies.code)[0];
    expect(allergy?.reaction?.[0]).toEqual({ manifestation: [{ text: 'Hives' }], severity: 'moderate' });
    const past = entriesOf<Condition>(bundle, IPS_SECTIONS.pastIllness.code);
    expect(past[0]?.clinicalStatus?.coding?.[0]?.code).toBe('resolved');
    expect(past[0]?.abatementDateTime).toBe('2018-02');
    expect(entriesOf<Immunization>(bundle, IPS_SECTIONS.immunizations.code)[0]?.vaccineCode.coding?.[0]).toMatchObject({
      system: 'http://hl7.org/fhir/sid/cvx',
      code: '141',
    });
    const a1c = entriesOf<Observation>(bundle, IPS_SECTIONS.results.code)[0];
    expect(a1c?.code.coding?.[0]).toMatchObject({ system: 'http://loinc.org', code: '4548-4' });
    expect(a1c?.valueQuantity).toEqual({ value: 7.2, unit: '%', system: 'http://unitsofmeasure.org', code: '%' });
    // The model keeps no performing laboratory: performer says so, as the IPS results profile permits.
    expect(a1c?.performer).toEqual([
      { extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }] },
    ]);
  });

  it('says "none known" with the IPS codes and "not recorded" with an emptyReason', () => {
    const noneKnown = bundleOf('urgent-care-none-known');
    const nka = entriesOf<AllergyIntolerance>(noneKnown, IPS_SECTIONS.allergies.code);
    expect(nka).toHaveLength(1);
    expect(nka[0]?.code?.coding).toEqual([
      { system: IPS_ABSENT_UNKNOWN, code: 'no-known-allergies', display: 'No known allergies' },
    ]);
    expect(section(noneKnown, IPS_SECTIONS.pastIllness.code)?.emptyReason?.coding?.[0]?.code).toBe('nilknown');
    // Vital signs as UCUM Quantities with the LOINC code of R4's vital-sign profiles; blood pressure
    // 122/78 as the panel with systolic and diastolic components.
    const vitals = entriesOf<Observation>(noneKnown, IPS_SECTIONS.vitalSigns.code);
    const heartRate = vitals.find((v) => v.code.text === 'Heart rate');
    expect(heartRate?.code.coding).toEqual([{ system: 'http://loinc.org', code: '8867-4', display: 'Heart rate' }]);
    expect(heartRate?.valueQuantity).toEqual({
      value: 84,
      unit: 'bpm',
      system: 'http://unitsofmeasure.org',
      code: '/min',
    });
    const bp = vitals.find((v) => v.code.text === 'Blood pressure');
    expect(bp?.code.coding?.[0]?.code).toBe('85354-9');
    expect(bp?.valueString).toBeUndefined();
    expect(
      bp?.component?.map((c) => [c.code.coding?.[0]?.code, c.valueQuantity?.value, c.valueQuantity?.code]),
    ).toEqual([
      ['8480-6', 122, 'mm[Hg]'],
      ['8462-4', 78, 'mm[Hg]'],
    ]);

    const labOnly = bundleOf('lab-report');
    for (const required of [IPS_SECTIONS.problems, IPS_SECTIONS.medications, IPS_SECTIONS.allergies]) {
      const s = section(labOnly, required.code);
      expect(s?.entry).toBeUndefined();
      expect(s?.emptyReason?.coding?.[0]?.code).toBe('unavailable');
      expect(s?.text?.div).toContain('Not recorded');
    }
    expect(section(labOnly, IPS_SECTIONS.pastIllness.code)).toBeUndefined();
    expect(entriesOf<Observation>(labOnly, IPS_SECTIONS.results.code).length).toBeGreaterThanOrEqual(10);
  });
});

describe('summaryToIpsBundle on edge cases', () => {
  const base = (): SummaryItem => {
    const summary = structuredClone(corpus.get('urgent-care-none-known') as SummaryItem);
    return summary;
  };

  it('leaves hidden facts out, sends the patient’s own facts as text, and escapes the narrative', () => {
    const summary = base();
    const conditions = summary.sections.find((s) => s.key === 'current_conditions');
    if (!conditions?.facts[0]) throw new Error('the case has a condition');
    conditions.facts[0].hidden = true;
    conditions.facts.push({
      ...conditions.facts[0],
      id: '00000000-0000-4000-8000-999999999999',
      text: 'Asthma <since childhood> & "mild"',
      hidden: false,
      added_by_patient: true,
      code: null,
      sources: [],
    });
    const bundle = summaryToIpsBundle(summary, { id: 'p' });
    expect(validateIpsBundle(bundle)).toEqual([]);
    const problems = entriesOf<Condition>(bundle, IPS_SECTIONS.problems.code);
    expect(problems.map((c) => c.code?.text)).toEqual(['Asthma <since childhood> & "mild"']);
    expect(problems[0]?.code?.coding).toBeUndefined();
    expect(JSON.stringify(bundle)).not.toContain('Sinusitis');
    expect(section(bundle, IPS_SECTIONS.problems.code)?.text?.div).toContain(
      'Asthma &lt;since childhood&gt; &amp; &quot;mild&quot;',
    );
    // No name: the IPS's anonymous name (ips-pat-1 needs a text); unknown birth date: data-absent-reason.
    const patient = bundle.entry?.find((e) => e.resource?.resourceType === 'Patient')?.resource as Patient & {
      _birthDate?: unknown;
    };
    expect(patient.name).toEqual([{ use: 'anonymous', text: 'Anonymous' }]);
    expect(patient.birthDate).toBeUndefined();
    expect(patient._birthDate).toEqual({
      extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'unknown' }],
    });
  });

  it('notes where a fact fetched from a hospital or a clinic came from, and nothing for an upload', () => {
    const summary = base();
    const conditions = summary.sections.find((s) => s.key === 'current_conditions');
    const fact = conditions?.facts[0];
    if (!fact?.sources[0]) throw new Error('the case has a cited condition');
    const fromHospital = 'Springfield General Hospital via MyChart, fetched 27 Nov 2026';
    fact.sources = [{ ...fact.sources[0], fetched_from: fromHospital }, { ...fact.sources[0], fetched_from: fromHospital }];
    const bundle = summaryToIpsBundle(summary, { id: 'p' });
    expect(validateIpsBundle(bundle)).toEqual([]);
    const [problem] = entriesOf<Condition>(bundle, IPS_SECTIONS.problems.code);
    expect(problem?.note).toEqual([{ text: `Source: ${fromHospital}` }]);
    const allergies = entriesOf<AllergyIntolerance>(bundle, IPS_SECTIONS.allergies.code);
    expect(allergies.every((a) => a.note === undefined || !a.note.some((n) => n.text?.startsWith('Source:')))).toBe(true);
  });

  it('exports procedures as Procedure resources, never as past illnesses, wherever the summary holds them', () => {
    const summary = base();
    const past = summary.sections.find((s) => s.key === 'past_history');
    const additional = summary.sections.find((s) => s.key === 'additional');
    if (!past || !additional?.facts[0]) throw new Error('the case has past history and additional facts');
    const procedureFact = (id: string, text: string, onset: string) => ({
      ...additional.facts[0]!,
      id,
      text,
      category: 'procedure' as const,
      status: null,
      onset,
      details: null,
      code: null,
      hidden: false,
    });
    // A summary built before procedures moved to Additional Categories had them in past history, resolved.
    Object.assign(past, {
      state: 'facts',
      none_known: null,
      facts: [
        {
          ...procedureFact('00000000-0000-4000-8000-000000000001', 'Electrocardiogram', '2019-01-02'),
          status: 'resolved',
        },
      ],
    });
    additional.facts.push(procedureFact('00000000-0000-4000-8000-000000000002', 'Oxygen therapy', '2019-01-03'));
    const bundle = summaryToIpsBundle(summary, PATIENT);
    expect(validateIpsBundle(bundle)).toEqual([]);
    expect(section(bundle, IPS_SECTIONS.pastIllness.code)).toBeUndefined();
    const procedures = entriesOf<Procedure>(bundle, IPS_SECTIONS.procedures.code);
    expect(procedures.map((p) => [p.resourceType, p.code?.text, p.performedDateTime])).toEqual([
      ['Procedure', 'Electrocardiogram', '2019-01-02'],
      ['Procedure', 'Oxygen therapy', '2019-01-03'],
    ]);
    const conditions = bundle.entry?.filter((e) => e.resource?.resourceType === 'Condition') ?? [];
    expect(JSON.stringify(conditions)).not.toMatch(/Electrocardiogram|Oxygen therapy/);
  });

  it('gives every section "not recorded" for an empty summary, still a valid IPS', () => {
    const summary = base();
    for (const s of summary.sections) Object.assign(s, { state: 'not_recorded', facts: [], none_known: null });
    const bundle = summaryToIpsBundle(summary, PATIENT);
    expect(validateIpsBundle(bundle)).toEqual([]);
    expect(composition(bundle).section?.map((s) => s.code?.coding?.[0]?.code)).toEqual([
      '11450-4',
      '10160-0',
      '48765-2',
    ]);
    // Not confirmed by the patient: no attester.
    summary.confirmed_version = null;
    expect(composition(summaryToIpsBundle(summary, PATIENT)).attester).toBeUndefined();
  });

  it('drops dates FHIR cannot hold instead of sending them', () => {
    const summary = base();
    const med = summary.sections.find((s) => s.key === 'medications')?.facts[0];
    if (!med) throw new Error('the case has a medication');
    med.onset = 'last spring';
    med.end = '2024-13-40';
    const bundle = summaryToIpsBundle(summary, PATIENT);
    expect(validateIpsBundle(bundle)).toEqual([]);
    const statement = entriesOf<MedicationStatement>(
      bundle,
      IPS_SECTIONS.medications.code,
    )[0] as MedicationStatement & { _effectiveDateTime?: unknown };
    expect(statement.effectivePeriod).toBeUndefined();
    expect(statement._effectiveDateTime).toBeDefined();
  });
});

describe('the validators the tests rely on', () => {
  it('catch a broken Bundle: bad date, dangling reference, missing required section, both entries and emptyReason', () => {
    const bundle = bundleOf('portal-ccd');
    expect(validateIpsBundle(bundle)).toEqual([]);
    const broken = structuredClone(bundle);
    const comp = composition(broken);
    comp.section = comp.section?.filter((s) => s.code?.coding?.[0]?.code !== IPS_SECTIONS.allergies.code);
    const first = comp.section?.[0];
    if (first) first.emptyReason = { text: 'x' };
    const condition = broken.entry?.find((e) => e.resource?.resourceType === 'Condition')?.resource as Condition;
    condition.onsetDateTime = '2019-4-2';
    condition.subject = { reference: 'urn:uuid:00000000-0000-0000-0000-000000000000' };
    const errors = validateIpsBundle(broken).join('\n');
    expect(errors).toMatch(/Condition\/onsetDateTime: must match pattern/);
    expect(errors).toMatch(/refers to urn:uuid:00000000-0000-0000-0000-000000000000, not in the Bundle/);
    expect(errors).toMatch(/required section 48765-2/);
    expect(errors).toMatch(/entries and an emptyReason/);
    expect(errors).toMatch(/AllergyIntolerance .* is not referenced/);
    expect(fhirSchemaErrors({ resourceType: 'Bundle', type: 'not-a-type' }).join()).toMatch(
      /must be equal to one of the allowed values/,
    );
    expect(fhirSchemaErrors({ resourceType: 'NoSuchResource' })).not.toEqual([]);
  });
});

describe('ipsPatient', () => {
  const dar = (code: string): unknown => ({
    extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: code }],
  });

  it('names the patient (given, family, text) with the birth date and id (ips-pat-1 holds)', () => {
    expect(ipsPatient({ id: 'p-1', given: 'Ada  Maria', family: 'Example', birthDate: '1970-05-04' })).toEqual({
      resourceType: 'Patient',
      identifier: [{ system: 'urn:medfolio:patient', value: 'p-1' }],
      name: [{ family: 'Example', given: ['Ada', 'Maria'], text: 'Ada Maria Example' }],
      birthDate: '1970-05-04',
    });
    expect(ipsPatient({ family: 'Example', birthDate: '1970' })).toMatchObject({
      name: [{ family: 'Example', text: 'Example' }],
      birthDate: '1970',
    });
  });

  it('an anonymous summary carries the anonymous name, a masked birth date and no id, whatever is passed', () => {
    const anonymous = ipsPatient({
      id: 'p-1',
      given: 'Ada',
      family: 'Example',
      birthDate: '1970-05-04',
      anonymous: true,
    });
    expect(anonymous).toEqual({
      resourceType: 'Patient',
      name: [{ use: 'anonymous', text: 'Anonymous' }],
      _birthDate: dar('masked'),
    });
    expect(JSON.stringify(anonymous)).not.toMatch(/Ada|Example|1970|p-1/);
  });

  it('without a name it is anonymous too, and an unknown birth date is "unknown"', () => {
    expect(ipsPatient({ id: null, given: null, family: null, birthDate: 'not a date' })).toEqual({
      resourceType: 'Patient',
      name: [{ use: 'anonymous', text: 'Anonymous' }],
      _birthDate: dar('unknown'),
    });
  });
});
