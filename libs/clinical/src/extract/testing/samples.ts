// Structured records written for the tests (invented patient, no real person), shaped like what
// patient portals export: a C-CDA CCD and a FHIR R4 document Bundle (International Patient Summary).

export const CCDA_CCD = `<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="CDA.xsl"?>
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <templateId root="2.16.840.1.113883.10.20.22.1.2"/>
  <code code="34133-9" codeSystem="2.16.840.1.113883.6.1" displayName="Summarization of Episode Note"/>
  <title>Continuity of Care Document</title>
  <effectiveTime value="20240315103000-0500"/>
  <component><structuredBody>
    <component><section>
      <templateId root="2.16.840.1.113883.10.20.22.2.5.1"/>
      <code code="11450-4" codeSystem="2.16.840.1.113883.6.1"/>
      <title>Problems</title>
      <text><table><tbody>
        <tr><td ID="prob1">Type 2 diabetes mellitus</td><td>Active</td></tr>
        <tr><td ID="prob2">Pneumonia</td><td>Resolved</td></tr>
        <tr><td ID="prob3">Essential hypertension</td><td>Active</td></tr>
      </tbody></table></text>
      <entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/>
        <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
          <text><reference value="#prob1"/></text>
          <effectiveTime><low value="20190402"/></effectiveTime>
          <value xsi:type="CD" code="44054006" codeSystem="2.16.840.1.113883.6.96" displayName="Type 2 diabetes mellitus">
            <translation code="E11.9" codeSystem="2.16.840.1.113883.6.90" displayName="Type 2 diabetes mellitus without complications"/>
          </value>
          <entryRelationship typeCode="REFR"><observation classCode="OBS" moodCode="EVN">
            <code code="33999-4" codeSystem="2.16.840.1.113883.6.1" displayName="Status"/>
            <value xsi:type="CD" code="55561003" codeSystem="2.16.840.1.113883.6.96" displayName="Active"/>
          </observation></entryRelationship>
        </observation></entryRelationship>
      </act></entry>
      <entry><act classCode="ACT" moodCode="EVN"><statusCode code="completed"/>
        <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
          <text><reference value="#prob2"/></text>
          <effectiveTime><low value="201801"/><high value="201802"/></effectiveTime>
          <value xsi:type="CD" code="233604007" codeSystem="2.16.840.1.113883.6.96"><originalText><reference value="#prob2"/></originalText></value>
        </observation></entryRelationship>
      </act></entry>
      <entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/>
        <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
          <value xsi:type="CD" code="I10" codeSystem="2.16.840.1.113883.6.90"><originalText><reference value="#prob3"/></originalText></value>
        </observation></entryRelationship>
      </act></entry>
    </section></component>
    <component><section>
      <templateId root="2.16.840.1.113883.10.20.22.2.1.1"/>
      <code code="10160-0" codeSystem="2.16.840.1.113883.6.1"/>
      <title>Medications</title>
      <text><list><item ID="med1">Metformin 500 mg tablet, by mouth twice daily</item><item ID="med2">Amoxicillin 500 mg capsule (completed course)</item></list></text>
      <entry><substanceAdministration classCode="SBADM" moodCode="EVN">
        <text><reference value="#med1"/></text>
        <statusCode code="active"/>
        <effectiveTime xsi:type="IVL_TS"><low value="20190402"/></effectiveTime>
        <effectiveTime xsi:type="PIVL_TS" institutionSpecified="true" operator="A"><period value="12" unit="h"/></effectiveTime>
        <routeCode code="C38288" codeSystem="2.16.840.1.113883.3.26.1.1" displayName="Oral"/>
        <doseQuantity value="1"/>
        <consumable><manufacturedProduct><manufacturedMaterial>
          <code code="861007" codeSystem="2.16.840.1.113883.6.88" displayName="Metformin hydrochloride 500 MG Oral Tablet"/>
        </manufacturedMaterial></manufacturedProduct></consumable>
      </substanceAdministration></entry>
      <entry><substanceAdministration classCode="SBADM" moodCode="EVN">
        <text><reference value="#med2"/></text>
        <statusCode code="active"/>
        <effectiveTime xsi:type="IVL_TS"><low value="20180110"/><high value="20180117"/></effectiveTime>
        <consumable><manufacturedProduct><manufacturedMaterial>
          <code code="308191" codeSystem="2.16.840.1.113883.6.88"><originalText><reference value="#med2"/></originalText></code>
        </manufacturedMaterial></manufacturedProduct></consumable>
      </substanceAdministration></entry>
    </section></component>
    <component><section>
      <templateId root="2.16.840.1.113883.10.20.22.2.6.1"/>
      <code code="48765-2" codeSystem="2.16.840.1.113883.6.1"/>
      <title>Allergies</title>
      <text><paragraph ID="all1">Penicillin: hives, moderate</paragraph></text>
      <entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/>
        <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
          <text><reference value="#all1"/></text>
          <value xsi:type="CD" code="416098002" codeSystem="2.16.840.1.113883.6.96" displayName="Drug allergy"/>
          <participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT">
            <code code="7980" codeSystem="2.16.840.1.113883.6.88" displayName="Penicillin G"/>
          </playingEntity></participantRole></participant>
          <entryRelationship typeCode="MFST" inversionInd="true"><observation classCode="OBS" moodCode="EVN">
            <value xsi:type="CD" code="247472004" codeSystem="2.16.840.1.113883.6.96" displayName="Hives"/>
            <entryRelationship typeCode="SUBJ" inversionInd="true"><observation classCode="OBS" moodCode="EVN">
              <code code="SEV" codeSystem="2.16.840.1.113883.5.4"/>
              <value xsi:type="CD" code="6736007" codeSystem="2.16.840.1.113883.6.96" displayName="Moderate"/>
            </observation></entryRelationship>
          </observation></entryRelationship>
        </observation></entryRelationship>
      </act></entry>
    </section></component>
    <component><section>
      <templateId root="2.16.840.1.113883.10.20.22.2.2.1"/>
      <code code="11369-6" codeSystem="2.16.840.1.113883.6.1"/>
      <title>Immunizations</title>
      <text>Influenza vaccine, 2023-10-01</text>
      <entry><substanceAdministration classCode="SBADM" moodCode="EVN" negationInd="false">
        <effectiveTime value="20231001"/>
        <consumable><manufacturedProduct><manufacturedMaterial>
          <code code="141" codeSystem="2.16.840.1.113883.12.292" displayName="Influenza, seasonal, injectable"/>
        </manufacturedMaterial></manufacturedProduct></consumable>
      </substanceAdministration></entry>
    </section></component>
    <component><section>
      <templateId root="2.16.840.1.113883.10.20.22.2.3.1"/>
      <code code="30954-2" codeSystem="2.16.840.1.113883.6.1"/>
      <title>Results</title>
      <text>HbA1c 7.2 % (high)</text>
      <entry><organizer classCode="BATTERY" moodCode="EVN"><component><observation classCode="OBS" moodCode="EVN">
        <code code="4548-4" codeSystem="2.16.840.1.113883.6.1" displayName="Hemoglobin A1c/Hemoglobin.total in Blood"/>
        <effectiveTime value="20240301"/>
        <value xsi:type="PQ" value="7.2" unit="%"/>
        <interpretationCode code="H" codeSystem="2.16.840.1.113883.5.83" displayName="High"/>
      </observation></component></organizer></entry>
    </section></component>
    <component><section>
      <code code="10164-2" codeSystem="2.16.840.1.113883.6.1"/>
      <title>History of present illness</title>
      <text><paragraph>Seen for routine diabetes review.</paragraph></text>
    </section></component>
  </structuredBody></component>
</ClinicalDocument>
`;

/** A C-CDA whose allergy section says there are none (negated observation with a nullFlavor substance). */
export const CCDA_NO_ALLERGIES = `<?xml version="1.0"?>
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <effectiveTime value="2022"/>
  <component><structuredBody><component><section>
    <code code="48765-2" codeSystem="2.16.840.1.113883.6.1"/>
    <title>Allergies</title>
    <text>No known allergies</text>
    <entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/>
      <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN" negationInd="true">
        <value xsi:type="CD" code="419199007" codeSystem="2.16.840.1.113883.6.96" displayName="Allergy to substance"/>
        <participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT"><code nullFlavor="NA"/></playingEntity></participantRole></participant>
      </observation></entryRelationship>
    </act></entry>
  </section></component></structuredBody></component>
</ClinicalDocument>
`;

/** Classic XXE: an external entity pointing at a local file. */
export const XXE = `<?xml version="1.0"?>
<!DOCTYPE ClinicalDocument [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<ClinicalDocument xmlns="urn:hl7-org:v3"><title>&xxe;</title></ClinicalDocument>
`;

/** Billion laughs: nested entities that expand to gigabytes. */
export const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<ClinicalDocument xmlns="urn:hl7-org:v3"><title>&lol9;</title></ClinicalDocument>
`;

const SCT = 'http://snomed.info/sct';

/** An IPS-style FHIR R4 document Bundle. */
export const FHIR_IPS_BUNDLE = JSON.stringify({
  resourceType: 'Bundle',
  type: 'document',
  entry: [
    {
      fullUrl: 'urn:uuid:comp-1',
      resource: {
        resourceType: 'Composition',
        status: 'final',
        date: '2024-05-20T09:00:00Z',
        title: 'Patient Summary',
        type: { coding: [{ system: 'http://loinc.org', code: '60591-5' }] },
        section: [
          {
            title: 'Active Problems',
            text: {
              status: 'generated',
              div: '<div xmlns="http://www.w3.org/1999/xhtml"><p>Asthma, since 2010</p></div>',
            },
          },
        ],
      },
    },
    {
      fullUrl: 'urn:uuid:cond-1',
      resource: {
        resourceType: 'Condition',
        clinicalStatus: {
          coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }],
        },
        code: { coding: [{ system: SCT, code: '195967001', display: 'Asthma' }] },
        onsetDateTime: '2010',
      },
    },
    {
      fullUrl: 'urn:uuid:cond-2',
      resource: {
        resourceType: 'Condition',
        clinicalStatus: { coding: [{ code: 'resolved' }] },
        code: {
          coding: [{ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'S52.5' }],
          text: 'Fracture of the left wrist',
        },
        onsetDateTime: '2015-06-01',
        abatementDateTime: '2015-08-15',
      },
    },
    {
      fullUrl: 'urn:uuid:med-1',
      resource: {
        resourceType: 'Medication',
        code: {
          coding: [
            {
              system: 'http://www.nlm.nih.gov/research/umls/rxnorm',
              code: '745679',
              display: 'Salbutamol 100 MCG/ACTUAT inhaler',
            },
          ],
        },
      },
    },
    {
      fullUrl: 'urn:uuid:ms-1',
      resource: {
        resourceType: 'MedicationStatement',
        status: 'active',
        medicationReference: { reference: 'urn:uuid:med-1' },
        effectivePeriod: { start: '2010-03-01' },
        dosage: [{ text: '2 puffs as needed' }],
      },
    },
    {
      fullUrl: 'urn:uuid:ms-2',
      resource: {
        resourceType: 'MedicationRequest',
        status: 'completed',
        medicationCodeableConcept: { text: 'Prednisolone 5 mg tablets' },
        dosageInstruction: [{ text: '8 tablets daily for 5 days' }],
      },
    },
    {
      fullUrl: 'urn:uuid:all-1',
      resource: {
        resourceType: 'AllergyIntolerance',
        code: {
          coding: [
            {
              system: 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips',
              code: 'no-known-allergies',
              display: 'No known allergies',
            },
          ],
        },
      },
    },
    {
      fullUrl: 'urn:uuid:imm-1',
      resource: {
        resourceType: 'Immunization',
        status: 'completed',
        vaccineCode: { coding: [{ system: 'http://hl7.org/fhir/sid/cvx', code: '208', display: 'COVID-19 vaccine' }] },
        occurrenceDateTime: '2021-04-10',
      },
    },
    {
      fullUrl: 'urn:uuid:obs-1',
      resource: {
        resourceType: 'Observation',
        status: 'final',
        category: [{ coding: [{ code: 'vital-signs' }] }],
        code: { coding: [{ system: 'http://loinc.org', code: '85354-9', display: 'Blood pressure panel' }] },
        effectiveDateTime: '2024-05-19',
        component: [
          {
            code: { coding: [{ system: 'http://loinc.org', code: '8480-6', display: 'Systolic blood pressure' }] },
            valueQuantity: { value: 128, unit: 'mmHg' },
          },
          {
            code: { coding: [{ system: 'http://loinc.org', code: '8462-4', display: 'Diastolic blood pressure' }] },
            valueQuantity: { value: 82, unit: 'mmHg' },
          },
        ],
      },
    },
    {
      fullUrl: 'urn:uuid:proc-1',
      resource: {
        resourceType: 'Procedure',
        status: 'completed',
        code: { text: 'Appendectomy' },
        performedDateTime: '2005-07',
      },
    },
  ],
});
