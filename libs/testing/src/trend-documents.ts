import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's public corpus (HL7's C-CDA examples, IPS Bundles): libs/clinical/quality/public. */
const PUBLIC = path.join(__dirname, '../../clinical/quality/public');

/** One glucose result added to a corpus record, as the test expects to see it again. */
export interface AddedGlucose {
  date: string;
  value: number;
  unit: string;
  low: number;
  high: number;
}

/** In the C-CDA: 100 mg/dL on 2024-03-01 (reference 70–99, flagged H by the source). */
export const CCDA_GLUCOSE: AddedGlucose = { date: '2024-03-01', value: 100, unit: 'mg/dL', low: 70, high: 99 };
/** In the FHIR Bundle: 7 mmol/L on 2024-06-01 (reference 3.9–5.5, flagged H), 126.11 mg/dL. */
export const FHIR_GLUCOSE: AddedGlucose = { date: '2024-06-01', value: 7, unit: 'mmol/L', low: 3.9, high: 5.5 };

/**
 * Two records of one patient from the corpus, for health trends: HL7's example CCD with a serum
 * glucose (LOINC 2345-7) in mg/dL added to its Results section, and the IPS example Bundle with the
 * same test in mmol/L added as an Observation. The rest of each record is as the corpus has it.
 */
export function trendDocuments(): { ccda: Buffer; fhir: Buffer } {
  const ccd = readFileSync(path.join(PUBLIC, 'hl7-ccd', 'ccd.xml'), 'utf8');
  const results = ccd.indexOf('code="30954-2"');
  const afterText = ccd.indexOf('</text>', results) + '</text>'.length;
  if (results < 0 || afterText < results) throw new Error('the corpus CCD has no Results section');
  const g = CCDA_GLUCOSE;
  const day = g.date.replace(/-/g, '');
  const entry = `
          <entry typeCode="DRIV"><organizer classCode="BATTERY" moodCode="EVN">
            <templateId root="2.16.840.1.113883.10.20.22.4.1"/><code code="24323-8" codeSystem="2.16.840.1.113883.6.1" displayName="Comprehensive metabolic panel"/>
            <statusCode code="completed"/><effectiveTime value="${day}"/>
            <component><observation classCode="OBS" moodCode="EVN">
              <templateId root="2.16.840.1.113883.10.20.22.4.2"/>
              <code code="2345-7" codeSystem="2.16.840.1.113883.6.1" displayName="Glucose [Mass/volume] in Serum or Plasma"/>
              <statusCode code="completed"/><effectiveTime value="${day}"/>
              <value xsi:type="PQ" value="${g.value}" unit="${g.unit}"/>
              <interpretationCode code="H" codeSystem="2.16.840.1.113883.5.83" displayName="High"/>
              <referenceRange><observationRange><value xsi:type="IVL_PQ"><low value="${g.low}" unit="${g.unit}"/><high value="${g.high}" unit="${g.unit}"/></value></observationRange></referenceRange>
            </observation></component>
          </organizer></entry>`;
  const ccda = ccd.slice(0, afterText) + entry + ccd.slice(afterText);

  const bundle = JSON.parse(readFileSync(path.join(PUBLIC, 'fhir-ips-example-01', 'ips-bundle.json'), 'utf8')) as { entry: unknown[] };
  const f = FHIR_GLUCOSE;
  const quantity = (value: number) => ({ value, unit: f.unit, system: 'http://unitsofmeasure.org', code: f.unit });
  bundle.entry.push({
    fullUrl: 'urn:uuid:5b2f4a1e-8c1d-4c3e-9a55-0f6b2c7d9e31',
    resource: {
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '2345-7', display: 'Glucose [Moles/volume] in Serum or Plasma' }], text: 'Glucose' },
      effectiveDateTime: f.date,
      valueQuantity: quantity(f.value),
      interpretation: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation', code: 'H' }] }],
      referenceRange: [{ low: quantity(f.low), high: quantity(f.high) }],
    },
  });
  return { ccda: Buffer.from(ccda), fhir: Buffer.from(JSON.stringify(bundle, null, 1)) };
}
