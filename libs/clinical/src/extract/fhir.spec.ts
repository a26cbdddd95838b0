import { FHIR_IPS_BUNDLE } from './testing/samples';
import { recordingLogger, structuredReader } from './testing/context';

describe('FHIR R4', () => {
  const read = structuredReader('fhir', 'ips.json');

  it('reads an IPS document Bundle: conditions, medications, none-known allergies, immunizations, vitals, procedures', async () => {
    const part = await read(FHIR_IPS_BUNDLE);
    expect(part.problems).toEqual([]);
    expect(part.documentDate).toBe('2024-05-20');
    const by = (category: string) => part.facts.filter((f) => f.category === category);
    expect(by('condition')).toEqual([
      expect.objectContaining({
        section: 'current_conditions',
        text: 'Asthma',
        status: 'active',
        onset: '2010',
        code: { system: 'SNOMED CT', code: '195967001', display: 'Asthma' },
      }),
      expect.objectContaining({
        section: 'past_history',
        text: 'Fracture of the left wrist',
        status: 'resolved',
        onset: '2015-06-01',
        end: '2015-08-15',
        code: { system: 'ICD-10-CM', code: 'S52.5' },
      }),
    ]);
    expect(by('medication')).toEqual([
      // The drug comes from the referenced Medication resource.
      expect.objectContaining({
        text: 'Salbutamol 100 MCG/ACTUAT inhaler, 2 puffs as needed',
        status: 'active',
        code: expect.objectContaining({ system: 'RxNorm', code: '745679' }),
        onset: '2010-03-01',
      }),
      expect.objectContaining({ text: 'Prednisolone 5 mg tablets, 8 tablets daily for 5 days', status: 'stopped' }),
    ]);
    expect(by('allergy')).toEqual([]);
    expect(part.noneKnown).toEqual([
      {
        section: 'allergies',
        text: 'No known allergies',
        sources: [expect.objectContaining({ filename: 'ips.json', page: null })],
      },
    ]);
    expect(by('immunization')).toEqual([
      expect.objectContaining({
        text: 'COVID-19 vaccine',
        code: expect.objectContaining({ system: 'CVX', code: '208' }),
        onset: '2021-04-10',
      }),
    ]);
    expect(by('vital')).toEqual([
      expect.objectContaining({
        text: 'Blood pressure panel: Systolic blood pressure 128 mmHg, Diastolic blood pressure 82 mmHg',
        details: { value: '128/82', unit: 'mmHg' },
      }),
    ]);
    expect(by('procedure')).toEqual([
      expect.objectContaining({ section: 'additional', text: 'Appendectomy', onset: '2005-07' }),
    ]);
    expect(by('procedure')[0]).not.toHaveProperty('status');
    expect(part.texts).toEqual([
      { filename: 'ips.json', page: null, text: '## Active Problems\nAsthma, since 2010', ocr: false },
    ]);
    for (const f of part.facts) expect(f.sources[0].quote.length).toBeGreaterThan(0);
  });

  it('reads a single resource, with allergy reaction and severity', async () => {
    const allergy = {
      resourceType: 'AllergyIntolerance',
      clinicalStatus: { coding: [{ code: 'active' }] },
      code: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '2670', display: 'Codeine' }] },
      reaction: [{ manifestation: [{ text: 'Nausea' }, { coding: [{ display: 'Vomiting' }] }], severity: 'moderate' }],
    };
    const part = await read(JSON.stringify(allergy));
    expect(part.facts).toEqual([
      expect.objectContaining({
        section: 'allergies',
        category: 'allergy',
        text: 'Codeine',
        status: 'active',
        details: { reaction: 'Nausea, Vomiting', severity: 'moderate' },
        code: { system: 'RxNorm', code: '2670', display: 'Codeine' },
      }),
    ]);
  });

  it('leaves out refuted conditions and marks provisional ones as possible', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'Condition',
            verificationStatus: { coding: [{ code: 'refuted' }] },
            code: { text: 'Tuberculosis' },
          },
        },
        {
          resource: {
            resourceType: 'Condition',
            verificationStatus: { coding: [{ code: 'provisional' }] },
            code: { text: 'Pneumonia' },
          },
        },
        { resource: { resourceType: 'Condition' } },
        { resource: 'not an object' },
      ],
    };
    const part = await read(JSON.stringify(bundle));
    expect(part.facts).toEqual([
      expect.objectContaining({ text: 'Pneumonia', certainty: 'possible', status: 'unknown' }),
    ]);
  });

  it('reads an IPS "no known procedures" as neither a procedure nor an empty past medical history', async () => {
    const procedure = {
      resourceType: 'Procedure',
      status: 'completed',
      code: {
        coding: [
          {
            system: 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips',
            code: 'no-known-procedures',
            display: 'No known procedures',
          },
        ],
      },
    };
    const part = await read(JSON.stringify(procedure));
    expect(part.facts).toEqual([]);
    expect(part.noneKnown).toEqual([]);
  });

  it("shows a lab Observation coded by LOINC's fully specified name as the test a doctor reads", async () => {
    const observation = {
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ code: 'laboratory' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '2028-9', display: 'CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN' }] },
      valueQuantity: { value: 24, unit: 'mmol/L' },
    };
    const part = await read(JSON.stringify(observation));
    expect(part.facts).toEqual([expect.objectContaining({ category: 'result', text: 'Carbon dioxide: 24 mmol/L' })]);
  });

  it('says a JSON file that is not FHIR is not a record, and a damaged one is damaged', async () => {
    expect((await read('{"name": "shopping list", "items": ["milk"]}')).problems).toEqual([
      { filename: 'ips.json', reason: 'This JSON file is not a health record that can be read (it is not FHIR).' },
    ]);
    expect((await read('{"resourceType": "Bundle", "entry": [')).problems[0].reason).toBe(
      'This JSON file is damaged and could not be read.',
    );
    expect((await read('{"resourceType": "Spaceship"}')).problems[0].reason).toMatch(/not FHIR/);
  });

  it('logs no clinical text', async () => {
    const logger = recordingLogger();
    await read(FHIR_IPS_BUNDLE, logger);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toMatch(/Asthma|Salbutamol|wrist/i);
  });

  it('reads a section narrative only where its entries were not read as coded facts, and names concepts plainly', async () => {
    const narrative = (rows: string) =>
      `<div xmlns="http://www.w3.org/1999/xhtml"><table><thead><tr><th>Medication</th><th>Strength</th><th>Form</th></tr></thead><tbody>${rows}</tbody></table></div>`;
    const bundle = {
      resourceType: 'Bundle',
      type: 'document',
      entry: [
        {
          fullUrl: 'urn:uuid:c1',
          resource: {
            resourceType: 'Composition',
            date: '2024-05-20',
            section: [
              {
                title: 'Medication',
                text: { div: narrative('<tr><td>Anastrozole</td><td>1 mg</td><td>tablet</td></tr>') },
                entry: [{ reference: 'urn:uuid:m1' }],
              },
              {
                // Its entry is not in the Bundle: the narrative is all there is.
                title: 'Problems',
                text: { div: '<div xmlns="http://www.w3.org/1999/xhtml">Gout</div>' },
                entry: [{ reference: 'urn:uuid:missing' }],
              },
            ],
          },
        },
        {
          fullUrl: 'urn:uuid:m1',
          resource: {
            resourceType: 'MedicationStatement',
            status: 'active',
            medicationCodeableConcept: {
              coding: [
                {
                  system: 'http://snomed.info/sct',
                  code: '108774000',
                  display: 'Product containing anastrozole (medicinal product)',
                },
              ],
            },
          },
        },
      ],
    };
    const part = await read(JSON.stringify(bundle));
    expect(part.facts.map((f) => f.text)).toEqual(['anastrozole']);
    expect(part.texts.map((t) => [t.text.split('\n')[0], t.coveredByFacts === true])).toEqual([
      ['## Medication', true],
      ['## Problems', false],
    ]);
  });

  it('reads a medication contained in its statement ("#id")', async () => {
    const bundle = {
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        {
          resource: {
            resourceType: 'MedicationStatement',
            status: 'active',
            contained: [
              {
                resourceType: 'Medication',
                id: 'metformin',
                code: { coding: [{ system: 'http://snomed.info/sct', code: '109081006' }], text: 'Metformin' },
              },
            ],
            medicationReference: { reference: '#metformin' },
            dosage: [{ text: '500mg twice daily' }],
          },
        },
      ],
    };
    const part = await read(JSON.stringify(bundle));
    expect(part.facts).toEqual([
      expect.objectContaining({ section: 'medications', text: 'Metformin, 500mg twice daily' }),
    ]);
  });
});
