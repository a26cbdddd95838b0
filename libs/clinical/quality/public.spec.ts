import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ClinicalFact, SectionKey } from '../src/model';
import { extractDocument } from '../src/extract/extract';
import { documentPeople, formatPublicTable, junkReason, runPublicCorpus, scorePublicCase } from './public';
import type { Extractor } from './run';

const PUBLIC = join(__dirname, 'public');

const fact = (section: SectionKey, text: string): ClinicalFact => ({
  section,
  category: section === 'medications' ? 'medication' : section === 'allergies' ? 'allergy' : 'condition',
  text,
  sources: [],
});

describe('junk: a fact that is not a clinical fact', () => {
  it('recognises table headings, column names and section titles', () => {
    for (const text of [
      'Problem Description Problem StartDate Status',
      'Code, Description, Encounters, Group, Susceptible',
      'Advance Directives',
      'Encounters',
      'Insurance',
      'Encounter Type Location Name Performer Date of Service',
      'Medication Instructions Dosage Effective Dates',
      'Problem #1',
      'Document ID 9984e08c-31f8-49d0-8dcc',
      'RxNorm Medication Directions Dispense Begin',
    ])
      expect({ text, reason: junkReason(text) }).toEqual({ text, reason: 'heading' });
  });

  it('recognises people, addresses and text without words', () => {
    expect(junkReason('Admit MD, Aaron')).toBe('person');
    expect(junkReason('Seven, Henry')).toBe('person');
    expect(junkReason('OR 97005')).toBe('address');
    expect(junkReason('1002 Healthcare Drive')).toBe('address');
    expect(junkReason('(555) 555-1002')).toBe('address');
    expect(junkReason('06/22/2015')).toBe('no words');
    expect(junkReason('SNOMED: 386661006')).toBe('no words');
    // Names and places the document records for its people.
    const people = documentPeople(
      '<ClinicalDocument><name><given>Henry</given><family>Seven</family></name><addr><city>Portland</city></addr></ClinicalDocument>',
    );
    expect(junkReason('Portland', people)).toBe('address');
    expect(junkReason('Henry Seven', people)).toBe('person');
    expect(junkReason('Portland')).toBeNull();
    // One word that happens to be a name does not make a fact a person.
    expect(junkReason('Seven day fever', people)).toBeNull();
  });

  it('leaves real facts alone', () => {
    for (const text of [
      'Codeine',
      'Eggs',
      'Type 2 diabetes mellitus',
      'Hyperlipidemia, mixed',
      'Penicillin G',
      'Metformin 500 mg',
      'Active asthma',
      'Chest pain',
    ])
      expect({ text, reason: junkReason(text) }).toEqual({ text, reason: null });
  });
});

describe('scoring a document of the public corpus', () => {
  const expected = {
    expected: {
      current_conditions: ['Hypertension'],
      past_history: ['Pneumonia'],
      medications: [
        { text: 'Proventil 0.09 MG/ACTUAT inhalant solution', aka: ['albuterol'] },
        { text: 'Insulin glargine', modes: ['xml'] },
      ],
      allergies: ['Codeine'],
    },
  };

  it('counts a fact only in the section where it belongs, and says where a misfiled one went', () => {
    const result = scorePublicCase(
      'case',
      'pdf',
      'record.pdf',
      expected as never,
      [
        {
          key: 'current_conditions',
          facts: [
            fact('current_conditions', 'Hypertension'),
            fact('current_conditions', 'Codeine'),
            fact('current_conditions', 'Pneumonia'),
          ],
        },
        { key: 'past_history', facts: [] },
        { key: 'medications', facts: [fact('medications', 'Albuterol 0.09 MG/ACTUAT inhaler')] },
        { key: 'allergies', facts: [fact('allergies', 'Problem Description Problem StartDate Status')] },
        { key: 'additional', facts: [] },
      ],
      documentPeople(''),
    );
    expect(result.recall).toEqual({
      medications: { found: 1, total: 1 }, // the xml-only entry is not counted for a PDF
      problems: { found: 2, total: 2 }, // pneumonia under current conditions is a problem found...
      allergies: { found: 0, total: 1 },
    });
    expect(result.problemsRightSection).toEqual({ found: 1, total: 2 }); // ...but not in past history
    expect(result.missed).toEqual(['allergies: Codeine (misfiled under current_conditions as "Codeine")']);
    expect(result.junk).toEqual(['allergies: Problem Description Problem StartDate Status (heading)']);
    // The misfiled allergy is a wrong fact, not junk.
    expect(result.unmatched).toEqual(['current_conditions: Codeine']);
    expect(result.facts).toBe(5);
  });
});

describe('the public corpus', () => {
  it('lists every case in its manifest, with the PDF of every C-CDA committed', async () => {
    const manifest = JSON.parse(await readFile(join(PUBLIC, 'manifest.json'), 'utf8')) as {
      cases: { case: string; file: string; pdf?: string; repository: string; path: string; licence: string }[];
    };
    const dirs = (await readdir(PUBLIC, { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(manifest.cases.map((c) => c.case).sort()).toEqual(dirs);
    for (const c of manifest.cases) {
      expect(existsSync(join(PUBLIC, c.case, c.file))).toBe(true);
      expect(existsSync(join(PUBLIC, c.case, 'expected.json'))).toBe(true);
      if (c.file.endsWith('.xml')) expect(existsSync(join(PUBLIC, c.case, c.pdf ?? ''))).toBe(true);
      // Only HL7's published examples (or a fork carrying them): no EHR vendor's sample, so nothing can
      // overlap with the held-out evaluation set of vendors' records kept outside the repository.
      expect(c.repository).toMatch(/^HL7\//);
      expect(c.licence).toBeTruthy();
    }
  });

  it('reads every document in every mode through the product extraction and reports per mode', async () => {
    // No thresholds yet: this checks the measurement runs; the figures are printed for the README.
    const extract: Extractor = (file, documentId) =>
      extractDocument({ documentId, filename: file.filename, path: file.path }, { ocr: false });
    const report = await runPublicCorpus(PUBLIC, { extract });
    console.log(formatPublicTable(report));
    expect(report.skipped).toEqual([]);
    expect(report.totals.pdf.documents).toBeGreaterThanOrEqual(5);
    expect(report.totals.xml.documents).toBe(report.totals.pdf.documents);
    expect(report.totals.fhir.documents).toBeGreaterThanOrEqual(2);
    for (const mode of ['pdf', 'xml', 'fhir'] as const) {
      const t = report.totals[mode];
      expect(t.recall.medications.total + t.recall.problems.total + t.recall.allergies.total).toBeGreaterThan(0);
      expect(t.junk).toBeLessThanOrEqual(t.facts);
    }
  });
});
