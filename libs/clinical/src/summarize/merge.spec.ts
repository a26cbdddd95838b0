import type { ClinicalFact, NoneKnown } from '../model';
import { LocalEngine } from './local-engine';
import { mergeFacts } from './merge';
import { textInput } from './test-input';

function fact(
  partial: Partial<ClinicalFact> & Pick<ClinicalFact, 'text'>,
  doc = 'a',
  recorded = '2024-01-01',
): ClinicalFact {
  return {
    section: 'current_conditions',
    category: 'condition',
    status: 'active',
    recorded,
    sources: [{ documentId: doc, filename: `${doc}.pdf`, page: 1, quote: partial.text }],
    ...partial,
  };
}

/** A medication (active unless `more` says otherwise). */
function med(text: string, doc = 'a', recorded = '2024-01-01', more: Partial<ClinicalFact> = {}): ClinicalFact {
  return fact({ section: 'medications', category: 'medication', text, ...more }, doc, recorded);
}

/** A test result: no status, its value in the details. */
function result(
  text: string,
  value: string,
  doc: string,
  recorded: string,
  more: Partial<ClinicalFact> = {},
): ClinicalFact {
  return fact(
    { section: 'additional', category: 'result', text, status: undefined, details: { value }, ...more },
    doc,
    recorded,
  );
}

describe('mergeFacts: the same fact once, with all its sources', () => {
  it('merges spellings, abbreviations and cases of one condition, citing every source', () => {
    const { facts } = mergeFacts([
      fact({ text: 'HTN' }, 'a'),
      fact({ text: 'Essential hypertension' }, 'b'),
      fact({ text: 'HYPERTENSION.' }, 'c'),
    ]);
    expect(facts).toHaveLength(1);
    // Same date: the wording is chosen by a fixed order, so it does not depend on upload order.
    expect(facts[0]!.text).toBe('Essential hypertension');
    expect(facts[0]!.sources.map((s) => s.documentId)).toEqual(['b', 'a', 'c']);
  });

  it('merges through a shared code even when the names differ', () => {
    const { facts } = mergeFacts([
      fact({ text: 'Hypertensive disorder', code: { system: 'ICD-10-CM', code: 'I10' } }, 'a'),
      fact({ text: 'High blood pressure (I10)', code: { system: 'ICD-10-CM', code: 'I10' } }, 'b'),
    ]);
    expect(facts).toHaveLength(1);
    expect(facts[0]!.sources).toHaveLength(2);
  });

  it('merges one drug written by brand and generic with different doses, showing the newer dose', () => {
    const { facts } = mergeFacts([
      med('Metformin 500 mg by mouth twice daily', 'old', '2022-06-10'),
      med('GLUCOPHAGE 1000 MG TABLET twice daily', 'new', '2024-04-22'),
    ]);
    expect(facts).toHaveLength(1);
    expect(facts[0]!.text).toBe('GLUCOPHAGE 1000 MG TABLET twice daily');
    expect(facts[0]!.sources.map((s) => s.documentId)).toEqual(['new', 'old']);
  });

  it('keeps different drugs and different conditions apart', () => {
    const { facts } = mergeFacts([
      med('Insulin glargine 20 units at bedtime'),
      med('Insulin lispro 5 units with meals'),
      fact({ text: 'Type 1 diabetes mellitus' }),
      fact({ text: 'Type 2 diabetes mellitus' }),
    ]);
    expect(facts).toHaveLength(4);
  });

  it('cites a source once even when two facts came from the same line', () => {
    const line = { documentId: 'a', filename: 'a.pdf', page: 1, quote: 'PMH: asthma, asthma (childhood)' };
    const { facts } = mergeFacts([
      fact({ text: 'Asthma', sources: [line] }),
      fact({ text: 'asthma', sources: [line] }),
    ]);
    expect(facts[0]!.sources).toHaveLength(1);
  });
});

describe('mergeFacts: honest merging, only what means the same thing', () => {
  it('keeps "Hyperlipidemia, mixed" and "Hypercholesterolemia" apart, each citing only its own document', () => {
    for (const coded of [true, false]) {
      const { facts } = mergeFacts([
        fact(
          { text: 'Hyperlipidemia, mixed', ...(coded ? { code: { system: 'ICD-10-CM', code: 'E78.2' } } : {}) },
          'xml',
        ),
        fact(
          { text: 'Hypercholesterolemia', ...(coded ? { code: { system: 'ICD-10-CM', code: 'E78.0' } } : {}) },
          'pdf',
        ),
      ]);
      expect(facts.map((f) => [f.text, f.sources.map((s) => s.documentId)])).toEqual([
        ['Hyperlipidemia, mixed', ['xml']],
        ['Hypercholesterolemia', ['pdf']],
      ]);
    }
  });

  it('never merges two conditions whose codes differ, even through a third fact sharing a name with both', () => {
    const { facts } = mergeFacts([
      fact({ text: 'Hypertension', code: { system: 'ICD-10-CM', code: 'I10' } }, 'a'),
      fact({ text: 'HTN' }, 'b'),
      fact({ text: 'Hypertension', code: { system: 'ICD-10-CM', code: 'I15.9' } }, 'c'),
    ]);
    expect(facts).toHaveLength(2);
    expect(facts.map((f) => f.code?.code).sort()).toEqual(['I10', 'I15.9']);
    // "HTN" joins one of them, and is cited once.
    expect(facts.flatMap((f) => f.sources.map((s) => s.documentId)).sort()).toEqual(['a', 'b', 'c']);
  });

  it('merges an ICD-10 code with its own subcode, and facts coded in different systems by name', () => {
    const { facts } = mergeFacts([
      fact({ text: 'Type 2 diabetes mellitus', code: { system: 'ICD-10-CM', code: 'E11' } }, 'a'),
      fact(
        { text: 'Type 2 diabetes mellitus without complications', code: { system: 'ICD-10-CM', code: 'E11.9' } },
        'b',
      ),
      fact({ text: 'DM2', code: { system: 'SNOMED CT', code: '44054006' } }, 'c'),
    ]);
    expect(facts).toHaveLength(1);
    expect(facts[0]!.sources.map((s) => s.documentId).sort()).toEqual(['a', 'b', 'c']);
  });

  it('still merges one drug under different RxNorm codes (brand, generic, strength)', () => {
    const { facts } = mergeFacts([
      med('Lantus 100 unit/mL', 'a', undefined, { code: { system: 'RxNorm', code: '261551' } }),
      med('Insulin glargine 20 units', 'b', undefined, { code: { system: 'RxNorm', code: '274783' } }),
    ]);
    expect(facts).toHaveLength(1);
  });

  it('cites a document page once, however many lines of it said the fact', () => {
    const { facts } = mergeFacts([
      fact({ text: 'Asthma', sources: [{ documentId: 'a', filename: 'a.pdf', page: 2, quote: 'Problems: asthma' }] }),
      fact({
        text: 'Asthma',
        sources: [{ documentId: 'a', filename: 'a.pdf', page: 2, quote: 'Assessment: asthma, stable' }],
      }),
      fact({ text: 'Asthma', sources: [{ documentId: 'a', filename: 'a.pdf', page: 3, quote: 'Plan: asthma' }] }),
    ]);
    expect(facts[0]!.sources.map((s) => s.page).sort()).toEqual([2, 3]);
  });

  it('merges a result named by its LOINC fully specified name with the same test named plainly', () => {
    const { facts } = mergeFacts([
      result('CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN: 24 mmol/L', '24', 'ccd', '2024-03-01'),
      result('Carbon dioxide 26 mmol/L', '26', 'letter', '2024-06-01'),
    ]);
    expect(facts).toEqual([expect.objectContaining({ text: 'Carbon dioxide 26 mmol/L' })]);
  });

  it('shows a result read from a printed record under its LOINC fully specified name by the test name', () => {
    const { facts } = mergeFacts([
      fact({
        section: 'additional',
        category: 'result',
        text: 'CARBON DIOXIDE:SCNC:PT:SER/PLAS:QN 24 mmol/L',
        status: undefined,
        details: { value: '24', unit: 'mmol/L' },
      }),
    ]);
    expect(facts[0]!.text).toBe('Carbon dioxide 24 mmol/L');
  });
});

describe('mergeFacts: newer information wins', () => {
  it('shows a medication stopped in a newer document as stopped, not current', () => {
    const { facts } = mergeFacts([
      med('Warfarin 5 mg daily', 'old', '2021-01-01'),
      med('Warfarin 5 mg daily', 'new', '2023-01-01', { status: 'stopped' }),
    ]);
    expect(facts).toEqual([
      expect.objectContaining({
        status: 'stopped',
        sources: [expect.objectContaining({ documentId: 'new' }), expect.objectContaining({ documentId: 'old' })],
      }),
    ]);
  });

  const stopped: Partial<ClinicalFact> = { status: 'stopped' };
  it.each([
    {
      rule: 'keeps a drug restarted after it was stopped as active',
      facts: [
        med('Amiodarone 200 mg daily', 'old', '2021-01-01', stopped),
        med('Amiodarone 200 mg daily', 'new', '2023-01-01'),
      ],
      shown: { status: 'active' },
    },
    {
      rule: 'on the same date, the STOP list beats the admission list',
      facts: [
        med('Glipizide 5 mg daily', 'dc', '2024-02-06'),
        med('Glipizide 5 mg tablet', 'dc', '2024-02-06', stopped),
      ],
      shown: { status: 'stopped' },
    },
    {
      rule: 'within one document on one date, the later statement wins (the plan restarts what the HPI said was stopped)',
      facts: [med('Clopidogrel', 'hp', '2024-01-15', stopped), med('Clopidogrel 75 mg daily', 'hp', '2024-01-15')],
      shown: { text: 'Clopidogrel 75 mg daily', status: 'active' },
    },
    {
      rule: 'across documents of one date, a stop beats a continuation',
      facts: [
        med('Aspirin 81 mg daily', 'cardiology', '2024-07-18', stopped),
        med('Aspirin 81 mg daily', 'pharmacy', '2024-07-18'),
      ],
      shown: { status: 'stopped' },
    },
  ])('$rule', ({ facts, shown }) => {
    expect(mergeFacts(facts).facts[0]).toMatchObject(shown);
  });

  it('moves a problem resolved later to past history', () => {
    const { facts } = mergeFacts([
      fact({ text: 'Acute bronchitis' }, 'old', '2022-06-10'),
      fact({ text: 'Acute bronchitis', section: 'past_history', status: 'resolved' }, 'new', '2024-04-22'),
    ]);
    expect(facts).toEqual([expect.objectContaining({ section: 'past_history', status: 'resolved' })]);
  });

  it('does not demote an active problem for a bare mention in a past medical history list', () => {
    const { facts } = mergeFacts([
      fact({ text: 'Hypertension' }, 'note', '2024-01-01'),
      fact({ text: 'HTN', section: 'past_history', status: 'unknown' }, 'later', '2024-06-01'),
    ]);
    expect(facts[0]).toMatchObject({ section: 'current_conditions', status: 'active' });
  });

  it('shows a result once, with its newest value and only the sources that gave it', () => {
    const { facts } = mergeFacts([
      result('Hemoglobin A1c 8.1 %', '8.1', 'old', '2023-01-01'),
      result('Hemoglobin A1c 7.2 %', '7.2', 'new', '2024-01-01'),
    ]);
    expect(facts).toEqual([
      expect.objectContaining({
        text: 'Hemoglobin A1c 7.2 %',
        sources: [expect.objectContaining({ documentId: 'new' })],
      }),
    ]);
  });

  it("merges one test under its portal LOINC name and a letter's short name, newest value shown", () => {
    const { facts } = mergeFacts([
      result('Hemoglobin A1c/Hemoglobin.total in Blood: 7.2 %', '7.2', 'ccd', '2024-03-01', {
        code: { system: 'LOINC', code: '4548-4' },
      }),
      result('HbA1c 6.9 %', '6.9', 'letter', '2024-06-01'),
      result('Creatinine [Mass/volume] in Serum or Plasma: 1.1 mg/dL', '1.1', 'ccd', '2024-03-01'),
      result('Serum creatinine 1.3 mg/dL', '1.3', 'letter', '2024-06-01'),
      result('Hemoglobin 13.2 g/dL', '13.2', 'ccd', '2024-03-01'),
    ]);
    expect(facts.map((f) => f.text).sort()).toEqual([
      'HbA1c 6.9 %',
      'Hemoglobin 13.2 g/dL',
      'Serum creatinine 1.3 mg/dL',
    ]);
    expect(facts.find((f) => f.text.startsWith('HbA1c'))).toMatchObject({
      code: { system: 'LOINC', code: '4548-4' },
      sources: [expect.objectContaining({ documentId: 'letter' })],
    });
  });

  it("keeps a vaccine's brackets and shows its last dose", () => {
    const { facts } = mergeFacts([
      fact(
        {
          section: 'additional',
          category: 'immunization',
          text: 'Pneumococcal conjugate vaccine (PCV20)',
          status: undefined,
          onset: '2023-10-01',
        },
        'ccd',
        '2023-10-01',
      ),
      fact(
        {
          section: 'additional',
          category: 'immunization',
          text: 'Pneumococcal conjugate vaccine (PCV20)',
          status: undefined,
          onset: '2024-02-05',
        },
        'note',
        '2024-02-05',
      ),
    ]);
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ text: 'Pneumococcal conjugate vaccine (PCV20)', onset: '2024-02-05' });
  });

  it('folds a general "diabetes" into the one kind of diabetes the record names', () => {
    const { facts } = mergeFacts([
      fact({ text: 'Diabetes mellitus' }, 'cc'),
      fact({ text: 'Type 2 diabetes mellitus', status: 'unknown', section: 'past_history' }, 'pmh'),
    ]);
    expect(facts).toHaveLength(1);
    expect(facts[0]).toMatchObject({ text: 'Type 2 diabetes mellitus', section: 'current_conditions' });
  });
});

describe('mergeFacts: none-known statements', () => {
  const none = (documentId: string, recorded: string, text = 'No known drug allergies'): NoneKnown => ({
    section: 'allergies',
    text,
    recorded,
    sources: [{ documentId, filename: `${documentId}.pdf`, page: 1, quote: text }],
  });

  it('keeps one statement per section, the newest, with every source', () => {
    const { noneKnown } = mergeFacts([], [none('a', '2020-01-01', 'NKA'), none('b', '2024-01-01')]);
    expect(noneKnown).toEqual([expect.objectContaining({ text: 'No known drug allergies', recorded: '2024-01-01' })]);
    // Newest first, as for facts.
    expect(noneKnown[0]!.sources.map((s) => s.documentId)).toEqual(['b', 'a']);
  });
});

describe('reading and merging two visits', () => {
  it('gives each fact once with both visits as sources, and the later status', async () => {
    const engine = new LocalEngine();
    const read = await engine.read([
      textInput(
        'Date of Service: 06/10/2022\nProblem List:\n- Acute bronchitis\n- HTN\nMedications:\nBenzonatate 100 mg TID PRN',
        { documentId: 'v1' },
      ),
      textInput(
        'Date of Service: 04/22/2024\nRESOLVED PROBLEMS\nAcute bronchitis - resolved 07/2022\nACTIVE PROBLEMS\nEssential hypertension (I10)\nDISCONTINUED MEDICATIONS\nBenzonatate 100 mg capsule',
        { documentId: 'v2' },
      ),
    ]);
    const { facts } = mergeFacts(read.facts, read.noneKnown);
    const summary = facts.map((f) => [f.text, f.section, f.status, f.sources.map((s) => s.documentId).join('+')]);
    expect(summary).toEqual(
      expect.arrayContaining([
        ['Acute bronchitis', 'past_history', 'resolved', 'v2+v1'],
        ['Hypertension', 'current_conditions', 'active', 'v2+v1'],
        ['Benzonatate 100 mg', 'medications', 'stopped', 'v2+v1'],
      ]),
    );
    expect(facts).toHaveLength(3);
  });
});

describe('mergeFacts: products named in brackets', () => {
  it('keeps two insulins named by product apart, and a known brand with its generic', () => {
    const merged = mergeFacts(
      [
        med('Insulin (Humulin N), 10 units subcutaneously in the morning and evening', 'a'),
        med('Insulin (Humulin R), 5 units subcutaneously before each meal', 'a'),
        med('Atorvastatin (Lipitor) 40 mg daily', 'a'),
        med('Lipitor 40 mg daily', 'b'),
      ],
      [],
    );
    expect(merged.facts.map((f) => [f.text.split(',')[0], f.sources.length])).toEqual([
      ['Insulin (Humulin N)', 1],
      ['Insulin (Humulin R)', 1],
      [expect.stringMatching(/atorvastatin|lipitor/i), 2],
    ]);
  });
});
