import { numberOf, observationsFromFacts, observationsFromFhir } from './observations';

describe('observations from facts', () => {
  it('reads value, unit, interpretation and date from the details, and splits a blood pressure', () => {
    const observations = observationsFromFacts([
      {
        category: 'result',
        text: 'Hemoglobin A1c: 7.4 %',
        details: { value: '7.4', unit: '%', interpretation: 'High' },
        recorded: '2024-02-01',
        sources: [{ documentId: 'doc-1', filename: 'labs.pdf', page: 2 }],
      },
      {
        category: 'vital',
        text: 'BP 134/82',
        details: { value: '134/82', unit: 'mmHg' },
        onset: '2024-02-01',
        sources: [{ document_id: 'doc-2', filename: 'visit.pdf', page: null }],
      },
      { category: 'result', text: 'Urine culture: no growth', details: { value: 'no growth' }, sources: [] },
      { category: 'medication', text: 'Metformin 500 mg', details: { dose: '500 mg' }, sources: [] },
    ]);
    expect(observations).toEqual([
      {
        code: null,
        name: 'Hemoglobin A1c',
        category: 'result',
        value: 7.4,
        unit: '%',
        interpretation: 'H',
        date: '2024-02-01',
        source: { document_id: 'doc-1', filename: 'labs.pdf', page: 2 },
      },
      {
        code: { system: 'LOINC', code: '8480-6' },
        name: 'Systolic blood pressure',
        category: 'vital',
        value: 134,
        unit: 'mmHg',
        date: '2024-02-01',
        source: { document_id: 'doc-2', filename: 'visit.pdf' },
      },
      {
        code: { system: 'LOINC', code: '8462-4' },
        name: 'Diastolic blood pressure',
        category: 'vital',
        value: 82,
        unit: 'mmHg',
        date: '2024-02-01',
        source: { document_id: 'doc-2', filename: 'visit.pdf' },
      },
      { code: null, name: 'Urine culture', category: 'result', value: null, text: 'no growth', source: {} },
    ]);
  });
});

describe('observations from FHIR', () => {
  it('reads valueQuantity, referenceRange, interpretation and effectiveDateTime; a comparator makes text', () => {
    const [glucose, troponin] = observationsFromFhir({
      resourceType: 'Bundle',
      entry: [
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: {
              coding: [
                { system: 'http://loinc.org', code: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma' },
              ],
            },
            valueQuantity: { value: 6.3, unit: 'mmol/L', system: 'http://unitsofmeasure.org', code: 'mmol/L' },
            referenceRange: [{ low: { value: 3.9, unit: 'mmol/L' }, high: { value: 5.5, unit: 'mmol/L' } }],
            interpretation: [{ coding: [{ code: 'H' }] }],
            effectiveDateTime: '2024-05-02T08:30:00+10:00',
          },
        },
        {
          resource: {
            resourceType: 'Observation',
            status: 'final',
            code: { text: 'Troponin I', coding: [{ system: 'http://loinc.org', code: '10839-9' }] },
            valueQuantity: { value: 0.01, comparator: '<', unit: 'ng/mL' },
            effectiveDateTime: '2024-05-02',
          },
        },
        { resource: { resourceType: 'Observation', status: 'entered-in-error', code: { text: 'x' }, valueInteger: 1 } },
        { resource: { resourceType: 'Condition', code: { text: 'Asthma' } } },
      ],
    });
    expect(glucose).toMatchObject({
      code: { system: 'LOINC', code: '2345-7' },
      value: 6.3,
      unit: 'mmol/L',
      range: { low: 3.9, high: 5.5, unit: 'mmol/L' },
      interpretation: 'H',
      date: '2024-05-02',
    });
    expect(troponin).toMatchObject({ name: 'Troponin I', value: null, text: '< 0.01', unit: 'ng/mL' });
  });

  it('takes only plain numbers as numbers', () => {
    expect(['13.2', '-1', '.5', '1e3', '7,4', '> 5', '', 'abc'].map(numberOf)).toEqual([
      13.2,
      -1,
      0.5,
      1000,
      null,
      null,
      null,
      null,
    ]);
  });
});
