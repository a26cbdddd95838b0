import { BILLION_LAUGHS, CCDA_CCD, CCDA_NO_ALLERGIES, XXE } from './testing/samples';
import { recordingLogger, structuredReader } from './testing/context';

describe('C-CDA', () => {
  const read = structuredReader('ccda', 'ccd.xml');

  it('reads problems with codes, status and dates, resolving narrative references', async () => {
    const part = await read(CCDA_CCD);
    expect(part.problems).toEqual([]);
    expect(part.documentDate).toBe('2024-03-15');
    const conditions = part.facts.filter((f) => f.category === 'condition');
    expect(conditions).toEqual([
      expect.objectContaining({
        section: 'current_conditions',
        text: 'Type 2 diabetes mellitus',
        code: { system: 'SNOMED CT', code: '44054006', display: 'Type 2 diabetes mellitus' },
        status: 'active',
        onset: '2019-04-02',
        recorded: '2024-03-15',
        sources: [{ documentId: 'doc-1', filename: 'ccd.xml', page: null, quote: 'Type 2 diabetes mellitus' }],
      }),
      // No displayName: the name comes from the narrative the originalText points at.
      expect.objectContaining({
        section: 'past_history',
        text: 'Pneumonia',
        status: 'resolved',
        onset: '2018-01',
        end: '2018-02',
        code: expect.objectContaining({ code: '233604007' }),
      }),
      expect.objectContaining({
        section: 'current_conditions',
        text: 'Essential hypertension',
        status: 'active',
        code: { system: 'ICD-10-CM', code: 'I10' },
      }),
    ]);
  });

  it('reads medications: active, and stopped once the end date has passed', async () => {
    const meds = (await read(CCDA_CCD)).facts.filter((f) => f.category === 'medication');
    expect(meds).toHaveLength(2);
    expect(meds[0]).toMatchObject({
      section: 'medications',
      text: 'Metformin hydrochloride 500 MG Oral Tablet',
      code: { system: 'RxNorm', code: '861007' },
      status: 'active',
      onset: '2019-04-02',
      details: { dose: '1', route: 'Oral', frequency: 'every 12 h' },
    });
    expect(meds[0].sources[0].quote).toBe('Metformin 500 mg tablet, by mouth twice daily');
    expect(meds[1]).toMatchObject({
      text: 'Amoxicillin 500 mg capsule (completed course)',
      status: 'stopped',
      end: '2018-01-17',
    });
  });

  it('reads allergies with reaction and severity, immunizations and results', async () => {
    const part = await read(CCDA_CCD);
    expect(part.facts.find((f) => f.category === 'allergy')).toMatchObject({
      section: 'allergies',
      text: 'Penicillin G',
      code: { system: 'RxNorm', code: '7980' },
      details: { reaction: 'Hives', severity: 'Moderate' },
      status: 'active',
    });
    expect(part.facts.find((f) => f.category === 'immunization')).toMatchObject({
      text: 'Influenza, seasonal, injectable',
      code: { system: 'CVX', code: '141' },
      onset: '2023-10-01',
    });
    expect(part.facts.find((f) => f.category === 'result')).toMatchObject({
      section: 'additional',
      text: 'Hemoglobin A1c/Hemoglobin.total in Blood: 7.2 %',
      code: { system: 'LOINC', code: '4548-4' },
      details: { value: '7.2', unit: '%', interpretation: 'High' },
    });
    expect(part.noneKnown).toEqual([]);
  });

  it('keeps every section narrative as text, other sections included', async () => {
    const part = await read(CCDA_CCD);
    expect(part.texts.map((t) => t.text.split('\n')[0])).toEqual([
      '## Problems',
      '## Medications',
      '## Allergies',
      '## Immunizations',
      '## Results',
      '## History of present illness',
    ]);
    expect(part.texts[0].text).toContain('Pneumonia | Resolved');
    expect(part.texts[5].text).toContain('Seen for routine diabetes review.');
  });

  it('marks the narrative of sections read as entries, so engines do not list their facts twice', async () => {
    const part = await read(CCDA_CCD);
    expect(part.texts.map((t) => [t.text.split('\n')[0], t.coveredByFacts === true])).toEqual([
      ['## Problems', true],
      ['## Medications', true],
      ['## Allergies', true],
      ['## Immunizations', true],
      ['## Results', true],
      ['## History of present illness', false],
    ]);
  });

  it("reads a severity placed on the allergy concern act as the allergy's severity, not as another allergy", async () => {
    const xml = `<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
      <component><structuredBody><component><section><code code="48765-2"/><text>Codeine</text>
        <entry><act><statusCode code="active"/>
          <entryRelationship typeCode="SUBJ"><observation>
            <participant><participantRole><playingEntity><code code="2670" codeSystem="2.16.840.1.113883.6.88" displayName="Codeine"/></playingEntity></participantRole></participant>
          </observation></entryRelationship>
          <entryRelationship typeCode="SUBJ"><observation><code code="SEV" codeSystem="2.16.840.1.113883.5.4"/>
            <value xsi:type="CD" code="371924009" codeSystem="2.16.840.1.113883.6.96" displayName="Moderate to severe"/>
          </observation></entryRelationship>
        </act></entry>
      </section></component></structuredBody></component></ClinicalDocument>`;
    const part = await read(xml);
    expect(part.facts).toEqual([
      expect.objectContaining({ category: 'allergy', text: 'Codeine', details: { severity: 'Moderate to severe' } }),
    ]);
  });

  it('turns a negated allergy observation into "no known allergies"', async () => {
    const part = await read(CCDA_NO_ALLERGIES);
    expect(part.facts).toEqual([]);
    expect(part.noneKnown).toEqual([
      { section: 'allergies', text: 'No known allergies', sources: [expect.objectContaining({ page: null })] },
    ]);
    expect(part.documentDate).toBe('2022');
  });

  it('refuses an XXE file without reading the entity', async () => {
    const part = await read(XXE);
    expect(part.facts).toEqual([]);
    expect(part.texts).toEqual([]);
    expect(part.problems).toEqual([
      { filename: 'ccd.xml', reason: 'This file declares a document type (DTD), which is not accepted for safety.' },
    ]);
  });

  it('refuses a billion-laughs file quickly and without expanding it', async () => {
    const started = Date.now();
    const before = process.memoryUsage().heapUsed;
    const part = await read(BILLION_LAUGHS);
    expect(part.problems[0].reason).toMatch(/document type \(DTD\)/);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024);
  });

  it('says so for damaged XML and for XML that is not a C-CDA', async () => {
    expect((await read('<ClinicalDocument xmlns="urn:hl7-org:v3"><title>')).problems[0].reason).toBe(
      'This XML file is damaged and could not be read.',
    );
    expect((await read('<note><to>someone</to></note>')).problems[0].reason).toMatch(/not a health record/);
  });

  it('is tolerant of a sparse record: no codes, nullFlavors, free text only', async () => {
    const sparse = `<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
      <effectiveTime nullFlavor="UNK"/>
      <component><structuredBody>
        <component><section><code code="11450-4"/><title>Problems</title><text>Migraine</text>
          <entry><act><entryRelationship><observation><value xsi:type="CD" nullFlavor="UNK"/></observation></entryRelationship></act></entry>
          <entry><observation><text>Chronic back pain</text><value xsi:type="CD" nullFlavor="OTH"><originalText>Chronic back pain</originalText></value></observation></entry>
        </section></component>
        <component><section><code code="10160-0"/><text>None recorded</text><entry><substanceAdministration><consumable/></substanceAdministration></entry></section></component>
      </structuredBody></component></ClinicalDocument>`;
    const part = await read(sparse);
    expect(part.problems).toEqual([]);
    expect(part.documentDate).toBeUndefined();
    expect(part.facts).toEqual([expect.objectContaining({ text: 'Chronic back pain', status: 'unknown' })]);
    expect(part.facts[0]).not.toHaveProperty('code');
    expect(part.texts.map((t) => t.text)).toEqual(['## Problems\nMigraine', 'None recorded']);
  });

  it('logs no clinical text', async () => {
    const logger = recordingLogger();
    await read(CCDA_CCD, logger);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logger.lines.join('\n')).not.toMatch(/diabetes|Metformin|Penicillin|Pneumonia/i);
  });

  it("keeps a list item's mark and a section title as a heading, as the printed record shows them", async () => {
    const xml = `<ClinicalDocument xmlns="urn:hl7-org:v3">
      <component><structuredBody>
        <component><section><code code="51848-0"/><title>ASSESSMENT</title><text>
          <list listType="ordered"><item>Obesity.</item><item>Pressure ulcer on left knee.</item></list>
          <list><item>Wound care</item></list>
        </text></section></component>
      </structuredBody></component></ClinicalDocument>`;
    const part = await read(xml);
    expect(part.texts.map((t) => t.text)).toEqual([
      '## ASSESSMENT\n1. Obesity.\n2. Pressure ulcer on left knee.\n- Wound care',
    ]);
  });

  it('names a SNOMED CT concept without its semantic tag', async () => {
    const xml = `<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
      <component><structuredBody>
        <component><section><code code="11450-4"/><title>Problems</title><text>Diabetes</text>
          <entry><observation classCode="OBS" moodCode="EVN"><code code="55607006"/><statusCode code="completed"/>
            <value xsi:type="CD" code="44054006" codeSystem="2.16.840.1.113883.6.96" displayName="Type 2 diabetes mellitus (disorder)"/>
          </observation></entry>
        </section></component>
      </structuredBody></component></ClinicalDocument>`;
    const part = await read(xml);
    expect(part.facts.map((f) => f.text)).toEqual(['Type 2 diabetes mellitus']);
    expect(part.facts[0]?.code?.display).toBe('Type 2 diabetes mellitus (disorder)');
  });

  it('keeps text with inline elements as one line in reading order, and reads operation diagnoses as problems', async () => {
    const xml = `<ClinicalDocument xmlns="urn:hl7-org:v3">
      <component><structuredBody>
        <component><section><code code="59776-5"/><title>Procedure Findings</title><text>A <content ID="f1">6 mm sessile polyp</content> was found.
          <content ID="f2">Moderate diverticulosis</content> and <content ID="f3">hemorrhoids</content> were noted.</text></section></component>
        <component><section><code code="10218-6"/><title>Postoperative Diagnosis</title><text><content>Appendicitis</content><content>Abscess</content></text></section></component>
      </structuredBody></component></ClinicalDocument>`;
    const part = await read(xml);
    expect(part.texts.map((t) => t.text)).toEqual([
      '## Procedure Findings\nA 6 mm sessile polyp was found. Moderate diverticulosis and hemorrhoids were noted.',
      '## Postoperative Diagnosis\nAppendicitis\nAbscess',
    ]);
  });
});
