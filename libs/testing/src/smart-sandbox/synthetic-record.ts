import type { Resource } from '@medplum/fhirtypes';
import type { SandboxFhirStore } from './fhir-store';

/** The resource types a patient-access sync reads, in the order a synthetic record cycles through them. */
export const SYNTHETIC_TYPES = ['Observation', 'Condition', 'AllergyIntolerance', 'MedicationRequest', 'MedicationStatement', 'Immunization', 'Procedure', 'DocumentReference'] as const;

const LABS = [
  { code: '2345-7', display: 'Glucose [Mass/volume] in Serum or Plasma', unit: 'mg/dL', low: 70, high: 99 },
  { code: '718-7', display: 'Hemoglobin [Mass/volume] in Blood', unit: 'g/dL', low: 13.5, high: 17.5 },
  { code: '2160-0', display: 'Creatinine [Mass/volume] in Serum or Plasma', unit: 'mg/dL', low: 0.7, high: 1.3 },
];

/**
 * Makes `count` resources for one patient (counting a DocumentReference's Binary as its own), cycling
 * through SYNTHETIC_TYPES with plausible codes and dates, and stores them: a record of any size for
 * sync tests and figures. `label` goes into every text so two batches can be told apart.
 */
export async function addSyntheticRecord(store: SandboxFhirStore, patientId: string, count: number, label = 'synthetic'): Promise<Resource[]> {
  const made: Resource[] = [];
  const subject = { reference: `Patient/${patientId}` };
  for (let i = 0; made.length < count; i += 1) {
    const type = SYNTHETIC_TYPES[i % SYNTHETIC_TYPES.length];
    const day = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    if (type === 'DocumentReference') {
      if (made.length + 2 > count) continue;
      const text = `${label} clinic note ${i}`;
      const binary = await store.add({ resourceType: 'Binary', contentType: 'text/plain', securityContext: subject, data: Buffer.from(text).toString('base64') });
      made.push(binary);
      made.push(await store.add({ resourceType: 'DocumentReference', status: 'current', subject, date: `${day}T10:00:00Z`, type: { coding: [{ system: 'http://loinc.org', code: '11506-3', display: 'Progress note' }] }, content: [{ attachment: { contentType: 'text/plain', url: `Binary/${binary.id}`, title: text } }] }));
      continue;
    }
    made.push(await store.add(resourceOf(type, i, day, subject, label)));
  }
  return made;
}

function resourceOf(type: Exclude<(typeof SYNTHETIC_TYPES)[number], 'DocumentReference'>, i: number, day: string, subject: { reference: string }, label: string): Resource {
  switch (type) {
    case 'Observation': {
      const lab = LABS[i % LABS.length] as (typeof LABS)[number];
      const value = Math.round((lab.low + ((i * 7) % 10) * ((lab.high - lab.low) / 6)) * 10) / 10;
      return {
        resourceType: 'Observation',
        status: 'final',
        category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
        code: { coding: [{ system: 'http://loinc.org', code: lab.code, display: lab.display }], text: `${lab.display} (${label})` },
        subject,
        effectiveDateTime: `${day}T08:00:00Z`,
        valueQuantity: { value, unit: lab.unit, system: 'http://unitsofmeasure.org', code: lab.unit },
        referenceRange: [{ low: { value: lab.low, unit: lab.unit }, high: { value: lab.high, unit: lab.unit } }],
      };
    }
    case 'Condition':
      return { resourceType: 'Condition', subject, recordedDate: day, clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] }, code: { coding: [{ system: 'http://snomed.info/sct', code: '38341003', display: 'Hypertensive disorder' }], text: `Hypertension (${label} ${i})` } };
    case 'AllergyIntolerance':
      return { resourceType: 'AllergyIntolerance', patient: subject, recordedDate: day, code: { coding: [{ system: 'http://snomed.info/sct', code: '91936005', display: 'Allergy to penicillin' }], text: `Penicillin (${label} ${i})` } };
    case 'MedicationRequest':
      return { resourceType: 'MedicationRequest', status: 'active', intent: 'order', subject, authoredOn: day, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '314076', display: 'lisinopril 10 MG Oral Tablet' }], text: `Lisinopril 10 mg (${label} ${i})` } };
    case 'MedicationStatement':
      return { resourceType: 'MedicationStatement', status: 'active', subject, effectiveDateTime: day, medicationCodeableConcept: { coding: [{ system: 'http://www.nlm.nih.gov/research/umls/rxnorm', code: '197361', display: 'amlodipine 5 MG Oral Tablet' }], text: `Amlodipine 5 mg (${label} ${i})` } };
    case 'Immunization':
      return { resourceType: 'Immunization', status: 'completed', patient: subject, occurrenceDateTime: day, vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '140', display: 'Influenza, seasonal, injectable, preservative free' }], text: `Flu vaccine (${label} ${i})` } };
    case 'Procedure':
      return { resourceType: 'Procedure', status: 'completed', subject, performedDateTime: day, code: { coding: [{ system: 'http://snomed.info/sct', code: '73761001', display: 'Colonoscopy' }], text: `Colonoscopy (${label} ${i})` } };
  }
}
