// The C-CDA R2.1 templates as vendors fill them: names in translations, in the narrative (through
// originalText references) or in a participant's playing entity; negations; statuses; procedures.
// Fixtures: HL7's C-CDA-Examples (testing/fixtures/hl7-ccda, README there) and small documents
// written after them for the cases the examples do not show.
import { readableLabName } from './codes';
import { extractStructured } from './structured';
import { tempFiles } from './testing/builders';
import { contextFor } from './testing/context';
import { ccdaAround, hl7Example } from './testing/hl7-ccda';

describe('C-CDA import: every entry of the clinical sections', () => {
  const files = tempFiles();
  afterAll(() => files.cleanup());
  const read = (xml: string) => extractStructured(contextFor(files.write('ccd.xml', xml), 'ccd.xml'), 'ccda');
  const section = (loinc: string, text: string, entries: string) =>
    ccdaAround(
      `<section><code code="${loinc}" codeSystem="2.16.840.1.113883.6.1"/><text>${text}</text>${entries}</section>`,
    );

  describe('allergies', () => {
    it("reads HL7's penicillin allergy with its reaction, severity and onset", async () => {
      const part = await read(hl7Example('allergy-penicillin'));
      expect(part.facts).toEqual([
        expect.objectContaining({
          section: 'allergies',
          category: 'allergy',
          text: 'penicillin G',
          code: expect.objectContaining({ system: 'RxNorm', code: '7980' }),
          status: 'active',
          onset: '2006',
          details: { reaction: 'Anaphylaxis', severity: 'Severe' },
        }),
      ]);
      expect(part.noneKnown).toEqual([]);
    });

    it('names an allergy by its playing entity when the substance has no code (not by "Allergy to drug")', async () => {
      const xml = section(
        '48765-2',
        '<table><tbody><tr ID="a1"><td>PCN</td><td>Hives</td></tr></tbody></table>',
        `<entry><act classCode="ACT" moodCode="EVN"><code code="CONC" codeSystem="2.16.840.1.113883.5.6"/><statusCode code="active"/>
          <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
            <code code="ASSERTION" codeSystem="2.16.840.1.113883.5.4"/><text><reference value="#a1"/></text>
            <value xsi:type="CD" code="416098002" displayName="Allergy to drug" codeSystem="2.16.840.1.113883.6.96"/>
            <participant typeCode="CSM"><participantRole classCode="MANU"><playingEntity classCode="MMAT">
              <code nullFlavor="UNK"/><name>Penicillin</name>
            </playingEntity></participantRole></participant>
          </observation></entryRelationship></act></entry>`,
      );
      const part = await read(xml);
      expect(part.facts).toEqual([
        expect.objectContaining({ category: 'allergy', text: 'Penicillin', status: 'active' }),
      ]);
      expect(part.facts[0]).not.toHaveProperty('code');
    });

    it('keeps a reaction recorded on the concern act as a reaction of the allergy, not another allergy', async () => {
      const part = await read(hl7Example('withdrawn-allergy-epinephrine'));
      expect(part.facts).toEqual([
        expect.objectContaining({
          text: 'epinephrine',
          details: { reaction: 'Ventricular tachycardia, Tremor', severity: 'Severe' },
        }),
      ]);
    });

    it('turns a negated allergy of no substance into "no known allergies"', async () => {
      const part = await read(hl7Example('no-known-allergies'));
      expect(part.facts).toEqual([]);
      expect(part.noneKnown).toEqual([expect.objectContaining({ section: 'allergies', text: 'No known allergies' })]);
    });

    it('reads "not allergic to peanuts" as neither an allergy nor "no known allergies"', async () => {
      const part = await read(hl7Example('not-allergic-to-peanuts'));
      expect(part.facts).toEqual([]);
      expect(part.noneKnown).toEqual([]);
    });

    it('shows an allergy whose status observation says resolved as resolved', async () => {
      const xml = section(
        '48765-2',
        'Sulfa',
        `<entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/>
          <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
            <value xsi:type="CD" code="419199007" codeSystem="2.16.840.1.113883.6.96"/>
            <participant typeCode="CSM"><participantRole><playingEntity>
              <code code="10180" codeSystem="2.16.840.1.113883.6.88" displayName="Sulfamethoxazole"/>
            </playingEntity></participantRole></participant>
            <entryRelationship typeCode="SUBJ" inversionInd="true"><observation classCode="OBS" moodCode="EVN">
              <code code="33999-4" codeSystem="2.16.840.1.113883.6.1"/>
              <value xsi:type="CD" code="413322009" codeSystem="2.16.840.1.113883.6.96" displayName="Resolved"/>
            </observation></entryRelationship>
          </observation></entryRelationship></act></entry>`,
      );
      expect((await read(xml)).facts).toEqual([
        expect.objectContaining({ text: 'Sulfamethoxazole', status: 'resolved' }),
      ]);
    });
  });

  describe('medications', () => {
    it('names a brand given with a generic translation by the generic, the brand kept in brackets', async () => {
      const xml = section(
        '10160-0',
        'Lantus',
        `<entry><substanceAdministration classCode="SBADM" moodCode="INT"><statusCode code="active"/>
          <effectiveTime xsi:type="IVL_TS"><low value="20200101"/></effectiveTime>
          <consumable><manufacturedProduct><manufacturedMaterial>
            <code code="261551" codeSystem="2.16.840.1.113883.6.88" displayName="Lantus">
              <translation code="274783" codeSystem="2.16.840.1.113883.6.88" displayName="insulin glargine"/>
            </code>
          </manufacturedMaterial></manufacturedProduct></consumable></substanceAdministration></entry>`,
      );
      const [med] = (await read(xml)).facts;
      expect(med).toMatchObject({
        section: 'medications',
        text: 'insulin glargine (Lantus)',
        status: 'active',
        code: { system: 'RxNorm', code: '261551' },
      });
    });

    it("does not put a package's NDC name before the drug's own name", async () => {
      const xml = section(
        '10160-0',
        '',
        `<entry><substanceAdministration classCode="SBADM" moodCode="INT"><statusCode code="active"/>
          <consumable><manufacturedProduct><manufacturedMaterial>
            <code code="274783" codeSystem="2.16.840.1.113883.6.88" displayName="insulin glargine">
              <translation code="0088-2220-33" codeSystem="2.16.840.1.113883.6.69" displayName="LANTUS 100 UNIT/ML VIAL"/>
            </code>
          </manufacturedMaterial></manufacturedProduct></consumable></substanceAdministration></entry>`,
      );
      expect((await read(xml)).facts).toEqual([expect.objectContaining({ text: 'insulin glargine' })]);
    });

    it('names a brand whose code has a nullFlavor by its translation', async () => {
      const xml = section(
        '10160-0',
        '',
        `<entry><substanceAdministration classCode="SBADM" moodCode="EVN"><statusCode code="active"/>
          <consumable><manufacturedProduct><manufacturedMaterial>
            <code nullFlavor="OTH"><translation code="311041" codeSystem="2.16.840.1.113883.6.88" displayName="insulin lispro 100 UNT/ML Injectable Solution"/></code>
          </manufacturedMaterial></manufacturedProduct></consumable></substanceAdministration></entry>`,
      );
      expect((await read(xml)).facts).toEqual([
        expect.objectContaining({
          text: 'insulin lispro 100 UNT/ML Injectable Solution',
          code: { system: 'RxNorm', code: '311041', display: 'insulin lispro 100 UNT/ML Injectable Solution' },
        }),
      ]);
    });

    it('names a medicine given only through a reference into the narrative', async () => {
      const xml = section(
        '10160-0',
        '<list><item><content ID="med1">Atorvastatin 40 mg tablet</content>, one at night</item></list>',
        `<entry><substanceAdministration classCode="SBADM" moodCode="INT"><statusCode code="active"/>
          <consumable><manufacturedProduct><manufacturedMaterial>
            <code nullFlavor="UNK"><originalText><reference value="#med1"/></originalText></code>
          </manufacturedMaterial></manufacturedProduct></consumable></substanceAdministration></entry>
         <entry><substanceAdministration classCode="SBADM" moodCode="INT"><text><reference value="#med2"/></text><statusCode code="active"/>
          <consumable><manufacturedProduct><manufacturedMaterial><code nullFlavor="UNK"/></manufacturedMaterial></manufacturedProduct></consumable>
         </substanceAdministration></entry>`.replace('</list>', '') + '',
      ).replace('</item></list>', '</item><item ID="med2">Aspirin 81 mg daily</item></list>');
      const part = await read(xml);
      expect(part.facts.map((f) => [f.text, f.status])).toEqual([
        ['Atorvastatin 40 mg tablet', 'active'],
        ['Aspirin 81 mg daily', 'active'],
      ]);
    });

    it("reads each drug of a medication organizer, completed ones as stopped (HL7's antibiotics)", async () => {
      const part = await read(hl7Example('antibiotics-organizer'));
      expect(part.facts.map((f) => [f.text, f.status, f.onset, f.end])).toEqual([
        ['azithromycin 250 MG Oral Tablet', 'stopped', '2014-03-10', '2014-03-10'],
        ['azithromycin 250 MG Oral Tablet', 'stopped', '2014-03-11', '2014-03-14'],
      ]);
    });

    it("reads HL7's insulin at bedtime by its RxNorm name, its route in plain words", async () => {
      const part = await read(hl7Example('med-insulin-glargine'));
      expect(part.facts).toEqual([
        expect.objectContaining({
          text: '3 ML insulin glargine 100 UNT/ML Pen Injector [Lantus]',
          details: expect.objectContaining({ route: 'Subcutaneous' }),
          code: expect.objectContaining({ system: 'RxNorm', code: '847232' }),
          status: 'active',
        }),
      ]);
    });

    it('reads a negated named drug as nothing, and a negated "drug or medication" as no known medications', async () => {
      const entry = (code: string) =>
        `<entry><substanceAdministration classCode="SBADM" moodCode="EVN" negationInd="true"><statusCode code="active"/>
          <consumable><manufacturedProduct><manufacturedMaterial>${code}</manufacturedMaterial></manufacturedProduct></consumable></substanceAdministration></entry>`;
      const named = await read(
        section(
          '10160-0',
          'Not taking aspirin',
          entry('<code code="1191" codeSystem="2.16.840.1.113883.6.88" displayName="Aspirin"/>'),
        ),
      );
      expect(named.facts).toEqual([]);
      expect(named.noneKnown).toEqual([]);
      const none = await read(
        section(
          '10160-0',
          'No medications',
          entry(
            '<code nullFlavor="OTH"><translation code="410942007" displayName="drug or medication" codeSystem="2.16.840.1.113883.6.96"/></code>',
          ),
        ),
      );
      expect(none.noneKnown).toEqual([
        expect.objectContaining({ section: 'medications', text: 'No known medications' }),
      ]);
    });
  });

  describe('problems', () => {
    const problem = (value: string, extra = '') =>
      `<entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/>
        <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
          <code code="55607006" codeSystem="2.16.840.1.113883.6.96"/><statusCode code="completed"/>
          <effectiveTime><low value="20150601"/></effectiveTime>${value}${extra}
        </observation></entryRelationship></act></entry>`;

    it('names a problem by its translation when its own code has none', async () => {
      const xml = section(
        '11450-4',
        '',
        problem(
          `<value xsi:type="CD" nullFlavor="OTH"><translation code="E78.2" codeSystem="2.16.840.1.113883.6.90" displayName="Mixed hyperlipidemia"/></value>`,
        ),
      );
      expect((await read(xml)).facts).toEqual([
        expect.objectContaining({
          section: 'current_conditions',
          text: 'Mixed hyperlipidemia',
          code: { system: 'ICD-10-CM', code: 'E78.2', display: 'Mixed hyperlipidemia' },
          status: 'active',
          onset: '2015-06-01',
        }),
      ]);
    });

    it('names a problem by its originalText reference into the narrative', async () => {
      const xml = section(
        '11450-4',
        '<table><tbody><tr><td ID="p1">Chronic migraine without aura</td><td>Active</td></tr></tbody></table>',
        problem(
          `<value xsi:type="CD" code="124171000119105" codeSystem="2.16.840.1.113883.6.96"><originalText><reference value="#p1"/></originalText></value>`,
        ),
      );
      expect((await read(xml)).facts).toEqual([
        expect.objectContaining({
          text: 'Chronic migraine without aura',
          code: { system: 'SNOMED CT', code: '124171000119105' },
        }),
      ]);
    });

    it('reads "does not have diabetes" as no fact and not as "no known problems"', async () => {
      const part = await read(hl7Example('no-diabetes'));
      expect(part.facts).toEqual([]);
      expect(part.noneKnown).toEqual([]);
    });

    it('reads a negated problem type as "no known problems"', async () => {
      const part = await read(hl7Example('no-known-problems'));
      expect(part.facts).toEqual([]);
      expect(part.noneKnown).toEqual([
        expect.objectContaining({ section: 'current_conditions', text: 'No known problems' }),
      ]);
    });

    it('files a problem whose concern is suspended or completed under past history', async () => {
      const value =
        '<value xsi:type="CD" code="238131007" codeSystem="2.16.840.1.113883.6.96" displayName="Overweight"/>';
      for (const concern of ['suspended', 'completed']) {
        const xml = section(
          '11450-4',
          '',
          problem(value).replace('<statusCode code="active"/>', `<statusCode code="${concern}"/>`),
        );
        expect((await read(xml)).facts).toEqual([
          expect.objectContaining({ section: 'past_history', text: 'Overweight', status: 'resolved' }),
        ]);
      }
    });

    it("reads the status the entry's narrative states before the concern's ('Asthma : Status - Active')", async () => {
      const value = '<value xsi:type="CD" code="195967001" codeSystem="2.16.840.1.113883.6.96" displayName="Asthma"/>';
      for (const [said, expected] of [
        ['Asthma : Status - Active', { section: 'current_conditions', status: 'active' }],
        ['Asthma : Status - Resolved', { section: 'past_history', status: 'resolved' }],
      ] as const) {
        const xml = section(
          '11450-4',
          `<list><item><content ID="p1">${said}</content></item></list>`,
          problem(value)
            .replace('<statusCode code="active"/>', '<statusCode code="completed"/>')
            .replace(
              '<observation classCode="OBS" moodCode="EVN">',
              '<observation classCode="OBS" moodCode="EVN"><text><reference value="#p1"/></text>',
            ),
        );
        expect((await read(xml)).facts).toEqual([expect.objectContaining({ text: 'Asthma', ...expected })]);
      }
    });

    it('keeps a problem whose end date is still to come current', async () => {
      const xml = section(
        '11450-4',
        '',
        problem(
          '<value xsi:type="CD" code="77386006" codeSystem="2.16.840.1.113883.6.96" displayName="Pregnancy"/>',
        ).replace('<low value="20150601"/>', '<low value="20150601"/><high value="20990101"/>'),
      );
      expect((await read(xml)).facts).toEqual([
        expect.objectContaining({ section: 'current_conditions', status: 'active' }),
      ]);
    });
  });

  describe('hospital sections', () => {
    const sectionOf = (template: string, loinc: string, title: string, entries: string, flavor = '') =>
      `<component><section${flavor}><templateId root="${template}"/><code code="${loinc}" codeSystem="2.16.840.1.113883.6.1"/><title>${title}</title><text>${title}</text>${entries}</section></component>`;

    it('reads discharge medications, discharge diagnoses and the history of past illness', async () => {
      const xml = ccdaAround(
        sectionOf(
          '2.16.840.1.113883.10.20.22.2.11.1',
          '10183-2',
          'Discharge medications',
          `<entry><act classCode="ACT" moodCode="EVN"><code code="10183-2" codeSystem="2.16.840.1.113883.6.1"/><statusCode code="completed"/>
              <entryRelationship typeCode="SUBJ"><substanceAdministration classCode="SBADM" moodCode="INT"><statusCode code="active"/>
                <consumable><manufacturedProduct><manufacturedMaterial><code code="197806" codeSystem="2.16.840.1.113883.6.88" displayName="ibuprofen 600 MG Oral Tablet"/></manufacturedMaterial></manufacturedProduct></consumable>
              </substanceAdministration></entryRelationship></act></entry>`,
        ) +
          sectionOf(
            '2.16.840.1.113883.10.20.22.2.24',
            'C-CDAV2-DDN',
            'Discharge diagnosis',
            `<entry><act classCode="ACT" moodCode="EVN"><statusCode code="active"/>
              <entryRelationship typeCode="SUBJ"><observation classCode="OBS" moodCode="EVN">
                <value xsi:type="CD" code="74400008" codeSystem="2.16.840.1.113883.6.96" displayName="Appendicitis"/>
              </observation></entryRelationship></act></entry>`,
          ) +
          sectionOf(
            '2.16.840.1.113883.10.20.22.2.20',
            '11348-0',
            'Past medical history',
            `<entry><observation classCode="OBS" moodCode="EVN"><effectiveTime><low value="2008"/></effectiveTime>
                <value xsi:type="CD" code="233604007" codeSystem="2.16.840.1.113883.6.96" displayName="Pneumonia"/></observation></entry>`,
          ) +
          sectionOf('2.16.840.1.113883.10.20.22.2.5.1', '11450-4', 'Problems', '', ' nullFlavor="NI"'),
      );
      const part = await read(xml);
      expect(part.problems).toEqual([]);
      expect(part.facts.map((f) => [f.section, f.text, f.status])).toEqual([
        ['medications', 'ibuprofen 600 MG Oral Tablet', 'active'],
        ['current_conditions', 'Appendicitis', 'active'],
        ['past_history', 'Pneumonia', 'unknown'],
      ]);
      // "No information" in a section with a nullFlavor is nothing for an engine to read facts from.
      expect(part.texts.find((t) => t.text.startsWith('## Problems'))?.coveredByFacts).toBe(true);
    });
  });

  describe('sections that are not lists of facts', () => {
    it("reads an encounter's diagnosis and a health concern's problem, not the tables of either", async () => {
      const problemObservation = (code: string, name: string) =>
        `<observation classCode="OBS" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.4"/>
          <code code="282291009" codeSystem="2.16.840.1.113883.6.96"/><statusCode code="completed"/>
          <effectiveTime><low value="20150622"/><high nullFlavor="UNK"/></effectiveTime>
          <value xsi:type="CD" nullFlavor="OTH"><translation code="${code}" codeSystem="2.16.840.1.113883.6.90" displayName="${name}"/></value>
        </observation>`;
      const xml = ccdaAround(
        `<component><section><templateId root="2.16.840.1.113883.10.20.22.2.22.1"/><code code="46240-8" codeSystem="2.16.840.1.113883.6.1"/><title>Encounters</title>
          <text><table><thead><tr><th>Visit Date</th><th>Encounter Type</th></tr></thead><tbody><tr><td>2015-06-22</td><td>Office visit</td></tr></tbody></table></text>
          <entry><encounter classCode="ENC" moodCode="EVN"><statusCode code="completed"/>
            <entryRelationship typeCode="RSON"><act classCode="ACT" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.80"/>
              <entryRelationship typeCode="SUBJ">${problemObservation('R50.9', 'Fever')}</entryRelationship>
            </act></entryRelationship>
            <entryRelationship typeCode="RSON"><act classCode="ACT" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.80"/>
              <entryRelationship typeCode="SUBJ">${problemObservation('U07.1', 'COVID-19').replace('moodCode="EVN">', 'moodCode="EVN" negationInd="true">')}</entryRelationship>
            </act></entryRelationship>
          </encounter></entry></section></component>
         <component><section><templateId root="2.16.840.1.113883.10.20.22.2.58"/><code code="75310-3" codeSystem="2.16.840.1.113883.6.1"/><title>Health Concerns</title>
          <text><table><thead><tr><th>Health Concern Description</th><th>Date</th></tr></thead><tbody><tr><td>Chronic Sickness exhibited by patient</td><td>2015</td></tr></tbody></table></text>
          <entry><act classCode="ACT" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.132"/><statusCode code="active"/>
            <entryRelationship typeCode="REFR"><act classCode="ACT" moodCode="EVN"><templateId root="2.16.840.1.113883.10.20.22.4.80"/>
              <entryRelationship typeCode="SUBJ">${problemObservation('D63.1', 'Anemia in chronic kidney disease')}</entryRelationship>
            </act></entryRelationship>
          </act></entry></section></component>
         <component><section><templateId root="2.16.840.1.113883.10.20.22.2.10"/><code code="18776-5" codeSystem="2.16.840.1.113883.6.1"/><title>Plan of treatment</title>
          <text><table><thead><tr><th>Planned Activity</th><th>Date</th></tr></thead><tbody><tr><td>Follow up in 2 weeks</td><td>2015-07-06</td></tr></tbody></table></text>
         </section></component>`,
      );
      const part = await read(xml);
      // Current: an observation's own "completed" status is not the problem's.
      expect(part.facts.map((f) => [f.section, f.text, f.status])).toEqual([
        ['current_conditions', 'Fever', 'unknown'],
        ['current_conditions', 'Anemia in chronic kidney disease', 'unknown'],
      ]);
      expect(part.noneKnown).toEqual([]);
      // Kept as text, but no engine reads "Visit Date" or "Health Concern Description" as a condition.
      expect(part.texts.map((t) => [t.text.split('\n')[0], t.coveredByFacts])).toEqual([
        ['## Encounters', true],
        ['## Health Concerns', true],
        ['## Plan of treatment', true],
      ]);
    });
  });

  describe('procedures', () => {
    it('lists procedures under Additional Categories as procedures, never as resolved past conditions', async () => {
      for (const [name, text, date] of [
        ['procedure-appendectomy', 'Laparoscopic appendectomy', '2014-02-03'],
        ['procedure-ecg-observation', '12 lead electrocardiogram', '2014-03-29'],
      ]) {
        const part = await read(hl7Example(name as string));
        expect(part.facts).toEqual([
          expect.objectContaining({ section: 'additional', category: 'procedure', text, onset: date }),
        ]);
        expect(part.facts[0]).not.toHaveProperty('status');
      }
    });

    it('does not list a refused procedure, a planned one or a refused immunization', async () => {
      expect((await read(hl7Example('procedure-refused'))).facts).toEqual([]);
      expect((await read(hl7Example('immunization-refused'))).facts).toEqual([]);
      const planned = section(
        '47519-4',
        '',
        `<entry><procedure classCode="PROC" moodCode="INT"><code code="73761001" codeSystem="2.16.840.1.113883.6.96" displayName="Colonoscopy"/><statusCode code="active"/></procedure></entry>`,
      );
      expect((await read(planned)).facts).toEqual([]);
    });
  });

  describe('results', () => {
    it('shows a LOINC fully specified name as the test a doctor reads', async () => {
      const xml = section(
        '30954-2',
        '',
        `<entry><organizer classCode="BATTERY" moodCode="EVN"><statusCode code="completed"/>
          <component><observation classCode="OBS" moodCode="EVN">
            <code code="2028-9" codeSystem="2.16.840.1.113883.6.1" displayName="CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN"/>
            <statusCode code="completed"/><effectiveTime value="20240301"/>
            <value xsi:type="PQ" value="24" unit="mmol/L"/>
          </observation></component></organizer></entry>`,
      );
      expect((await read(xml)).facts).toEqual([
        expect.objectContaining({
          category: 'result',
          text: 'Carbon dioxide: 24 mmol/L',
          code: { system: 'LOINC', code: '2028-9', display: 'CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN' },
        }),
      ]);
    });

    it('reads a value beyond what the lab measures (an interval) and an interpretation given only by its code', async () => {
      const xml = section(
        '30954-2',
        '',
        `<entry><observation classCode="OBS" moodCode="EVN">
            <code code="32016-8" codeSystem="2.16.840.1.113883.6.1" displayName="Glucose [Mass/volume] in Capillary blood"/>
            <statusCode code="completed"/><effectiveTime value="20140302"/>
            <value xsi:type="IVL_PQ"><low value="500" unit="mg/dL" inclusive="false"/><high nullFlavor="PINF"/></value>
            <interpretationCode code="&gt;" codeSystem="2.16.840.1.113883.5.83"/>
          </observation></entry>`,
      );
      expect((await read(xml)).facts).toEqual([
        expect.objectContaining({
          text: 'Glucose [Mass/volume] in Capillary blood: > 500 mg/dL',
          details: { value: '> 500', unit: 'mg/dL', interpretation: 'Above the measurable range' },
        }),
      ]);
    });

    it('readableLabName cuts the LOINC axes and keeps abbreviations', () => {
      expect(readableLabName('CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN')).toBe('Carbon dioxide');
      expect(readableLabName('HEMOGLOBIN A1C/HEMOGLOBIN.TOTAL:MFR:PT:BLD:QN')).toBe('Hemoglobin A1c/hemoglobin.total');
      expect(readableLabName('CHOLESTEROL.IN LDL:MCNC:PT:SER/PLAS:QN:CALCULATED')).toBe('Cholesterol.in LDL');
      expect(readableLabName('GLUCOSE')).toBe('Glucose');
      expect(readableLabName('Creatinine [Mass/volume] in Serum or Plasma')).toBe(
        'Creatinine [Mass/volume] in Serum or Plasma',
      );
      expect(readableLabName('TSH')).toBe('TSH');
      expect(readableLabName('BP SYSTOLIC')).toBe('BP systolic');
      expect(readableLabName('SPO2 PULSE OXIMETRY')).toBe('SpO2 pulse oximetry');
    });
  });
});
