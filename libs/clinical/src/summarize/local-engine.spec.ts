import type { ClinicalFact, SectionKey } from '../model';
import { LocalEngine } from './local-engine';
import { textInput } from './test-input';

async function read(text: string | string[], options: Parameters<typeof textInput>[1] = {}) {
  return new LocalEngine().read([textInput(text, options)]);
}

const texts = (facts: ClinicalFact[], section: SectionKey): string[] =>
  facts.filter((f) => f.section === section).map((f) => f.text);
const find = (facts: ClinicalFact[], text: string): ClinicalFact | undefined =>
  facts.find((f) => f.text.toLowerCase().startsWith(text.toLowerCase()));

describe('LocalEngine: headings and their synonyms', () => {
  it('reads headings in mixed case, ALL CAPS, with or without colons, numbered and in bold', async () => {
    const { facts } = await read(
      [
        'Problem List:',
        'Hypertension',
        'PAST MEDICAL HISTORY',
        'Gout',
        '3. Home Meds:',
        'Metformin 500 mg PO BID',
        '**Allergies/ADRs:**',
        'Latex - rash',
      ].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Hypertension']);
    expect(texts(facts, 'past_history')).toEqual(['Gout']);
    expect(texts(facts, 'medications')).toEqual(['Metformin 500 mg by mouth twice daily']);
    expect(texts(facts, 'allergies')).toEqual(['Latex']);
  });

  it('reads an inline list after a heading and expands abbreviations', async () => {
    const { facts } = await read('PMH: HTN, DM2, HLD.');
    expect(texts(facts, 'past_history')).toEqual(['Hypertension', 'Type 2 diabetes mellitus', 'Hyperlipidemia']);
  });

  it('ends a list at a heading it does not know, and does not read the review of systems or social history', async () => {
    const { facts } = await read(
      [
        'Diagnoses:',
        'Asthma',
        'HOSPITAL COURSE:',
        'Review of Systems: negative for diabetes, denies CHF',
        'Social History: smokes 1 ppd',
      ].join('\n'),
    );
    expect(facts.map((f) => f.text)).toEqual(['Asthma']);
  });

  it('takes the problem, not the plan, from an Assessment and Plan', async () => {
    const { facts } = await read(
      [
        'ASSESSMENT AND PLAN',
        '# Type 2 diabetes - A1c 7.2, continue metformin 500 mg BID',
        '1. Hypertension: well controlled',
        '- continue lisinopril 10 mg daily',
        '2. Hyperlipidemia, unspecified',
      ].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Type 2 diabetes mellitus', 'Hypertension', 'Hyperlipidemia']);
    expect(texts(facts, 'medications').sort()).toEqual(['Lisinopril 10 mg daily', 'Metformin 500 mg twice daily']);
  });

  it('keeps family history out of the patient conditions, as a note in Additional', async () => {
    const { facts } = await read(
      ['Family History:', 'Mother - breast cancer', 'Father: MI at 60', 'Problems:', 'Asthma'].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Asthma']);
    expect(texts(facts, 'additional')).toEqual([
      'Family history: Mother - breast cancer',
      'Family history: Father: MI at 60',
    ]);
  });
});

describe('LocalEngine: tables', () => {
  it('maps pipe-separated columns by their header, status included', async () => {
    const { facts } = await read(
      [
        'Medications',
        'Name | Dose | Route | Frequency | Status',
        'Warfarin | 5 mg | PO | daily | Discontinued',
        'Apixaban | 5 mg | PO | BID | Active',
      ].join('\n'),
    );
    expect(find(facts, 'Warfarin')).toMatchObject({
      status: 'stopped',
      details: { dose: '5 mg', route: 'by mouth', frequency: 'daily' },
    });
    expect(find(facts, 'Apixaban')).toMatchObject({ status: 'active', details: { frequency: 'twice daily' } });
  });

  it('places the cells of a space-laid table under their header even when a cell is empty', async () => {
    const { facts } = await read(
      [
        'Test            Result    Flag   Units',
        'Sodium          136              mmol/L',
        'Potassium       5.4       H      mmol/L',
      ].join('\n'),
    );
    expect(facts.map((f) => f.text)).toEqual(['Sodium 136 mmol/L', 'Potassium 5.4 mmol/L (high)']);
    expect(facts.every((f) => f.category === 'result')).toBe(true);
  });

  it('reads a problem table with a status column: resolved problems go to past history', async () => {
    const { facts } = await read(
      ['Problem List', 'Problem\tStatus\tNoted', 'COPD\tActive\t2019', 'Acute bronchitis\tResolved\t02/2021'].join(
        '\n',
      ),
    );
    expect(find(facts, 'Chronic obstructive')).toMatchObject({
      section: 'current_conditions',
      status: 'active',
      onset: '2019',
    });
    expect(find(facts, 'Acute bronchitis')).toMatchObject({ section: 'past_history', status: 'resolved' });
  });
});

describe('LocalEngine: list layouts from other systems', () => {
  it('reads diagnoses written code first, and "personal history of" as past history', async () => {
    const { facts } = await read(
      [
        'Diagnoses:',
        'I10      Essential (primary) hypertension',
        'Z86.73   Personal history of transient ischemic attack',
      ].join('\n'),
    );
    expect(facts.map((f) => [f.text, f.section, f.code?.code])).toEqual([
      ['Hypertension', 'current_conditions', 'I10'],
      ['Transient ischemic attack', 'past_history', 'Z86.73'],
    ]);
  });

  it('follows Ongoing/Historical subheadings of a combined problem list, and lists operations as procedures', async () => {
    const { facts } = await read(
      [
        'Problem List/Past Medical History',
        'Ongoing',
        '   Hyperlipidemia',
        'Historical',
        '   Prostate cancer, treated 2010',
        '   Left inguinal hernia repair',
      ].join('\n'),
    );
    expect(facts.map((f) => [f.text, f.section, f.category])).toEqual([
      ['Hyperlipidemia', 'current_conditions', 'condition'],
      ['Prostate cancer, treated 2010', 'past_history', 'condition'],
      ['Left inguinal hernia repair', 'additional', 'procedure'],
    ]);
  });

  it('keeps reading a medication list through Scheduled/PRN subheadings and stops drugs under a discontinued one', async () => {
    const { facts } = await read(
      [
        'Medication Administration Record',
        'Scheduled:',
        '  Donepezil 10 mg PO at bedtime',
        'PRN:',
        '  Acetaminophen 650 mg PO q6h PRN pain',
        'Discontinued this month:',
        '  Glipizide 5 mg PO daily',
      ].join('\n'),
    );
    expect(facts.map((f) => [f.text.split(' ')[0], f.status])).toEqual([
      ['Donepezil', 'active'],
      ['Acetaminophen', 'active'],
      ['Glipizide', 'stopped'],
    ]);
  });

  it('reads a vital-signs table whose columns are the vitals (printed C-CDA)', async () => {
    const { facts } = await read(
      ['Vital Signs', 'Date          BP          Pulse    Temp', '02/20/2024    132/80      70       98.2 F'].join(
        '\n',
      ),
    );
    expect(facts.map((f) => f.text)).toEqual([
      'Blood pressure 132/80 mmHg',
      'Heart rate 70 bpm',
      'Temperature 98.2 °F',
    ]);
  });

  it('knows a heading OCR misread by one letter', async () => {
    const { noneKnown } = await read('AIlergies : NKDA');
    expect(noneKnown.map((n) => n.section)).toEqual(['allergies']);
  });

  it('reads short inline sentences as items and skips birth history', async () => {
    const { facts } = await read(
      'Past Medical History: Born full term, uncomplicated delivery. Kidney stone 2016. Appendectomy age 12.',
    );
    expect(facts.map((f) => [f.text, f.section, f.category, f.onset])).toEqual([
      ['Kidney stones', 'past_history', 'condition', '2016'],
      ['Appendectomy age 12', 'additional', 'procedure', undefined],
    ]);
  });

  it('skips a header whose columns are one space apart, and splits a reaction off the allergen', async () => {
    const { facts } = await read(['Allergies', 'Allergen Reactions', '• Penicillins Hives'].join('\n'));
    expect(facts.map((f) => [f.text, f.details])).toEqual([['Penicillin', { reaction: 'hives' }]]);
  });

  it("reads Epic's orders under numbered diagnoses as drugs, with the brand in brackets as the same drug", async () => {
    const { facts } = await read(
      [
        'Diagnoses and all orders for this visit:',
        '1. Type 2 diabetes mellitus without complication, without long-term current use of insulin (HCC)',
        '- HEMOGLOBIN A1C',
        '- metFORMIN (GLUCOPHAGE) 1000 MG tablet; Take 1 tablet (1,000 mg total) by mouth 2 (two) times daily with meals.',
      ].join('\n'),
    );
    expect(facts.map((f) => [f.section, f.text])).toEqual([
      ['current_conditions', 'Type 2 diabetes mellitus without complication'],
      ['medications', 'Metformin 1000 mg by mouth twice daily'],
    ]);
  });

  it('reads vital signs wherever a line gives two or more', async () => {
    const { facts } = await read('Physical Examination\nT 97.8  P 96  R 20  BP 102/60  O2 sat 94% RA');
    expect(facts.map((f) => f.text)).toEqual([
      'Blood pressure 102/60 mmHg',
      'Heart rate 96 bpm',
      'Respiratory rate 20 /min',
      'Temperature 97.8 °F',
      'Oxygen saturation 94 %',
    ]);
  });
});

describe('LocalEngine: negation, uncertainty and history in prose', () => {
  it('drops negated conditions and keeps the rest of the sentence', async () => {
    const { facts } = await read(
      'HPI: 60 yo M with HTN who denies chest pain or diabetes. No evidence of CHF. Pulmonary embolism was ruled out.',
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Hypertension']);
  });

  it('marks uncertain conditions as possible', async () => {
    const { facts } = await read('Impression:\nPossible obstructive sleep apnea\nRule out pneumonia');
    expect(facts.map((f) => [f.text, f.certainty])).toEqual([
      ['Obstructive sleep apnea', 'possible'],
      ['Pneumonia', 'possible'],
    ]);
  });

  it('sends "history of", "s/p" and "had a" to past history', async () => {
    const { facts } = await read(
      'She has a history of breast cancer, is s/p DVT and had a stroke in 2019. She has asthma.',
    );
    expect(texts(facts, 'past_history')).toEqual(['Breast cancer', 'Deep vein thrombosis', 'Stroke']);
    expect(texts(facts, 'current_conditions')).toEqual(['Asthma']);
  });

  it('joins a sentence wrapped over two lines before reading it', async () => {
    const { facts } = await read(
      'Thank you for seeing this 57-year-old woman with rheumatoid arthritis and chronic\nkidney disease stage 3 for proteinuria.',
    );
    expect(texts(facts, 'current_conditions')).toEqual([
      'Rheumatoid arthritis',
      'Chronic kidney disease',
      'Proteinuria',
    ]);
  });

  it("does not take a relative's condition for the patient's", async () => {
    const { facts } = await read('Her mother had breast cancer. Family history of colon cancer.');
    expect(facts).toEqual([]);
  });
});

describe('LocalEngine: medications', () => {
  it.each([
    ['Metformin 500 mg PO BID', 'Metformin', { dose: '500 mg', route: 'by mouth', frequency: 'twice daily' }],
    [
      'amoxicillin 250 mg/5 mL suspension 10 mL by mouth three times a day',
      'Amoxicillin',
      { dose: '250 mg/5 mL', route: 'by mouth', frequency: 'three times daily' },
    ],
    [
      'Insulin glargine 100 unit/mL, inject 20 units SC qhs',
      'Insulin glargine',
      { route: 'subcutaneous', frequency: 'at bedtime' },
    ],
    [
      'Albuterol HFA 90 mcg 2 puffs inhaled q4h PRN wheezing',
      'Albuterol',
      { dose: '90 mcg', route: 'inhaled', frequency: 'every 4 hours as needed' },
    ],
    ['Alendronate 70 mg weekly', 'Alendronate', { dose: '70 mg', frequency: 'weekly' }],
    [
      'LISINOPRIL 10 MG TABLET 1 tab by mouth once daily',
      'Lisinopril',
      { dose: '10 mg', route: 'by mouth', frequency: 'daily' },
    ],
  ])('reads the sig of "%s"', async (line, name, details) => {
    const { facts } = await read(`Medications:\n${line}`);
    expect(facts).toHaveLength(1);
    expect(facts[0]!.text.startsWith(name)).toBe(true);
    expect(facts[0]!.details).toMatchObject(details);
    expect(facts[0]!.status).toBe('active');
  });

  it('completes a drug with the sig written on the next line (Epic)', async () => {
    const { facts } = await read(
      'Current Outpatient Prescriptions\nmetFORMIN 500 MG tablet\n    Take 500 mg by mouth 2 (two) times daily with meals.\n    Commonly known as: GLUCOPHAGE',
    );
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ text: 'Metformin 500 mg by mouth twice daily', status: 'active' });
  });

  it('marks drugs under STOP, or said to be stopped, discontinued or held, as stopped', async () => {
    const { facts } = await read(
      [
        'STOP taking these medications:',
        'glipizide 5 mg tablet',
        'Home Medications:',
        'Aspirin 81 mg daily - held',
        'Naproxen 500 mg BID (discontinued)',
        'Atorvastatin 40 mg qhs',
      ].join('\n'),
    );
    expect(facts.map((f) => [f.text.split(' ')[0], f.status])).toEqual([
      ['Glipizide', 'stopped'],
      ['Aspirin', 'stopped'],
      ['Naproxen', 'stopped'],
      ['Atorvastatin', 'active'],
    ]);
  });

  it('reads drugs in a letter, but not suggestions, allergies or doses given once in hospital', async () => {
    const { facts } = await read(
      'Her medications are losartan 50 mg daily and metformin 500 mg twice daily. Hydroxychloroquine was stopped last year. Consider starting atorvastatin 20 mg. She received ceftriaxone 1 g IV.',
    );
    expect(facts.map((f) => [f.text, f.status])).toEqual([
      ['Losartan 50 mg daily', 'active'],
      ['Metformin 500 mg twice daily', 'active'],
      ['Hydroxychloroquine', 'stopped'],
    ]);
  });
});

describe('LocalEngine: letters and plans', () => {
  it('reads an inline medication list that wraps over lines, with a stopped drug told in a sentence', async () => {
    const { facts } = await read(
      [
        'CURRENT MEDICATIONS: insulin glargine 40 units at bedtime; metformin 1000 mg twice daily; lisinopril 20 mg',
        'daily; gabapentin 300 mg three times daily. Glipizide was discontinued in',
        'June because of hypoglycemia.',
      ].join('\n'),
    );
    expect(facts.map((f) => [f.text, f.status])).toEqual([
      ['Insulin glargine 40 units at bedtime', 'active'],
      ['Metformin 1000 mg twice daily', 'active'],
      ['Lisinopril 20 mg daily', 'active'],
      ['Gabapentin 300 mg three times daily', 'active'],
      ['Glipizide', 'stopped'],
    ]);
  });

  it('reads a plan only for the drugs it starts, continues or restarts', async () => {
    const { facts } = await read(
      [
        'Plan:',
        '- Restart trazodone 50 mg at bedtime as needed',
        '- Consider starting atorvastatin 20 mg',
        '- Therapy referral placed',
      ].join('\n'),
    );
    expect(facts.map((f) => [f.text, f.status])).toEqual([['Trazodone 50 mg at bedtime as needed', 'active']]);
  });

  it('reads operations, results and vital signs told in prose, and a letter addressee as care team', async () => {
    const { facts } = await read(
      'Dear Dr. Placeholder,\n\nHe had a left below-knee amputation in 2021. Recent labs showed a creatinine of 1.4 mg/dL and an eGFR of 42. Ambulatory SpO2 96%.',
    );
    expect(facts.map((f) => [f.category, f.text])).toEqual([
      ['care_team', 'Dr. Placeholder'],
      ['procedure', 'Left below-knee amputation'],
      ['result', 'Creatinine 1.4 mg/dL'],
      ['result', 'eGFR 42'],
      ['vital', 'Oxygen saturation 96 %'],
    ]);
  });
});

describe('LocalEngine: allergies and none-known statements', () => {
  it('reads "NKDA" as none known, with its source', async () => {
    const { facts, noneKnown } = await read('ALLERGIES: NKDA', { documentId: 'd9', filename: 'visit.pdf' });
    expect(facts).toEqual([]);
    expect(noneKnown).toEqual([
      {
        section: 'allergies',
        text: 'No known drug allergies',
        recorded: '2025-01-01',
        sources: [{ documentId: 'd9', filename: 'visit.pdf', page: 1, quote: 'ALLERGIES: NKDA' }],
      },
    ]);
  });

  it.each(['Allergies: No Known Allergies', 'Allergies:\nNone', 'Patient has no known drug allergies.'])(
    'reads "%s" as none known',
    async (text) => {
      const { noneKnown } = await read(text);
      expect(noneKnown.map((n) => n.section)).toEqual(['allergies']);
    },
  );

  it('reads "Medications: None" and "PMH: None" as none known for their sections', async () => {
    const { noneKnown } = await read('PMH: None\nMedications: None');
    expect(noneKnown.map((n) => n.section)).toEqual(['past_history', 'medications']);
  });

  it('reads allergens with their reactions and severity, abbreviations expanded', async () => {
    const { facts } = await read('Allergies: PCN (hives); Sulfa - anaphylaxis, severe');
    expect(facts.map((f) => [f.text, f.details])).toEqual([
      ['Penicillin', { reaction: 'hives' }],
      ['Sulfa drugs', { reaction: 'anaphylaxis, severe', severity: 'severe' }],
    ]);
  });
});

describe('LocalEngine: sources and dates', () => {
  it('reads a vaccine with a bracketed abbreviation and a date as the name (brackets whole) and its date', async () => {
    const { facts } = await read(
      ['Immunizations:', 'Pneumococcal conjugate vaccine (PCV20) 2024-02-05', 'Tdap (08/14/2019)'].join('\n'),
    );
    const shots = facts.filter((f) => f.category === 'immunization').map((f) => [f.text, f.onset]);
    expect(shots).toEqual([
      ['Pneumococcal conjugate vaccine (PCV20)', '2024-02-05'],
      ['Tdap', '2019-08-14'],
    ]);
  });

  it('cites document, file, page and the line, and dates facts by the header date', async () => {
    const { facts } = await read(['Date of Service: 03/14/2024\nProblems:', 'Gout'], {
      documentId: 'doc-7',
      filename: 'clinic.pdf',
    });
    expect(facts).toEqual([
      expect.objectContaining({
        text: 'Gout',
        recorded: '2024-03-14',
        sources: [{ documentId: 'doc-7', filename: 'clinic.pdf', page: 2, quote: 'Gout' }],
      }),
    ]);
  });

  it('prefers the date extraction found, then the header, then the upload', async () => {
    expect((await read('Problems: Gout', { documentDate: '2020-05-01' })).facts[0]!.recorded).toBe('2020-05-01');
    expect((await read('Problems: Gout', { uploadedAt: '2023-02-03T10:00:00Z' })).facts[0]!.recorded).toBe(
      '2023-02-03',
    );
  });

  it('cuts long source quotes to 200 characters', async () => {
    const { facts } = await read(`HPI: ${'The patient was seen today. '.repeat(10)}She has asthma.`);
    expect(facts[0]!.sources[0]!.quote.length).toBeLessThanOrEqual(200);
  });

  it('passes structured facts from extraction through, dated by the document', async () => {
    const input = textInput('', { documentDate: '2022-01-02' });
    input.facts.push({
      section: 'allergies',
      category: 'allergy',
      text: 'Peanut',
      code: { system: 'SNOMED CT', code: '91935009' },
      sources: [{ documentId: 'doc-1', filename: 'ccd.xml', page: null, quote: 'Peanut' }],
    });
    const { facts } = await new LocalEngine().read([input]);
    expect(facts).toEqual([
      expect.objectContaining({
        text: 'Peanut',
        recorded: '2022-01-02',
        code: { system: 'SNOMED CT', code: '91935009' },
      }),
    ]);
  });

  it('gives the same output for the same input', async () => {
    const text = 'PMH: HTN, DM2\nMedications:\nMetformin 500 mg BID\nAllergies: NKDA';
    expect(JSON.stringify(await read(text))).toBe(JSON.stringify(await read(text)));
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(new LocalEngine().read([textInput('Problems: Gout')], controller.signal)).rejects.toThrow();
  });
});

describe('LocalEngine: problem lists as printed records lay them out', () => {
  it('reads an item with bracketed dates whole, and a field label under it as no problem', async () => {
    const { facts } = await read(
      [
        '## PROBLEMS',
        'Problem #1',
        'malignant neoplasm of liver (onset July 3, 2013)[authored July 3, 2013]',
        'Prognosis: Presence of a life limiting condition(>50% possibility of death within 2 year',
        'Angina (onset Apr 17, 2007; resolved Apr 20, 2007) [authored Apr 17, 2007]',
      ].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Malignant neoplasm of liver']);
    expect(find(facts, 'Malignant neoplasm')?.onset).toBe('2013-07-03');
    expect(texts(facts, 'past_history')).toEqual(['Angina']);
  });

  it('reads a diagnosis section of short sentences as items, and a stay event as none of them', async () => {
    const { facts } = await read(
      ['## Hospital Discharge Diagnosis', '.Kidney Malrotation. Discharged August 1, 2013'].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Kidney Malrotation']);
    // A sentence that tells something stays prose: only what the vocabulary knows is read from it.
    const prose = await read(['## Assessment', 'Patient is stable. Will follow up.'].join('\n'));
    expect(prose.facts).toEqual([]);
  });

  it('does not list an item that points at the others', async () => {
    const { facts } = await read(
      ['## Assessment', '1. Flank pain.', '2. Other chronic diagnoses as noted above, currently stable.'].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Flank pain']);
  });

  it('ends a section at a heading of the document it does not know', async () => {
    const { facts } = await read(
      [
        '## ASSESSMENT',
        '- Obesity.',
        '## CHIEF COMPLAINT(S) AND REASON FOR VISIT',
        'Diabetic Management and wound care follow up.',
      ].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Obesity']);
  });

  it('reads a later clause that opens with a known condition as a problem of its own', async () => {
    const { facts } = await read(
      ['## ASSESSMENT', '1. Recurrent GI bleed of unknown etiology; hypotension perhaps secondary to this.'].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual(['Recurrent GI bleed of unknown etiology', 'Hypotension']);
  });

  it('reads the wrapped rest of a long printed line as no new item', async () => {
    const { facts } = await read(
      [
        '## REASON FOR REFERRAL',
        'Request for consultation for weight management. Patient referral for consultation for full care. Referral Nurse: Nurse',
        'Florence,RN',
      ].join('\n'),
    );
    expect(texts(facts, 'current_conditions')).toEqual([]);
  });
});
