import { join } from 'node:path';
import { LocalEngine } from '../summarize/local-engine';
import type { ClinicalFact, EngineInput } from '../model';
import { extractPdf } from './pdf';
import { layoutText, type TextPiece } from './pdf-layout';
import { contextFor } from './testing/context';

// Pages shaped like the HL7 CDA stylesheet's output (h3 section titles, narrative tables with a
// header row), printed by Chromium with its running header and footer: see fixtures/cda-print.
const FIXTURES = join(__dirname, 'testing', 'fixtures', 'cda-print');

async function readPdf(name: string) {
  return extractPdf(contextFor(join(FIXTURES, name), name));
}

async function engineFacts(name: string) {
  const part = await readPdf(name);
  const input: EngineInput = {
    documentId: 'doc-1',
    filename: name,
    uploadedAt: '2025-01-01T00:00:00.000Z',
    ...part,
  };
  return new LocalEngine().read([input]);
}

const inSection = (facts: ClinicalFact[], section: ClinicalFact['section']): string[] =>
  facts.filter((f) => f.section === section).map((f) => f.text);

describe('layout-aware PDF reading (a C-CDA printed from the portal)', () => {
  it('marks section headings by their typography and reads tables as header and rows', async () => {
    const part = await readPdf('summary-of-care.pdf');
    expect(part.problems).toEqual([]);
    expect(part.texts.map((t) => t.page)).toEqual([1, 2]);
    const page1 = part.texts[0]?.text.split('\n') ?? [];
    expect(page1).toContain('## Allergies, Adverse Reactions, Alerts');
    expect(page1).toContain('## Problems');
    // The header row, marked as one, then one line per row with the cells in their columns.
    const header = page1.indexOf('| Substance | Reaction | Severity | Status |');
    expect(header).toBeGreaterThan(0);
    expect(page1[header + 1]).toBe('| --- | --- | --- | --- |');
    expect(page1[header + 2]).toBe('| Codeine | Fatal | Severe | Active |');
    expect(page1).toContain('| Problem Description | Problem StartDate | Status |');
    expect(page1).toContain('| Acute bronchitis | 01/05/2019 | Resolved |');
    expect(part.texts[1]?.text).toContain('## Encounters');
  });

  it('joins a cell that wraps onto the next lines into its row', async () => {
    const text = (await readPdf('summary-of-care.pdf')).texts[0]?.text ?? '';
    expect(text).toContain(
      '| Penicillin G benzathine 1200000 UNT/2ML injectable suspension | Anaphylaxis | Severe | Active |',
    );
    expect(text).toContain(
      '| Insulin glargine 100 UNT/ML injectable solution [Lantus] | 20 units | Subcutaneous | at bedtime | Active |',
    );
  });

  it("drops the browser's running header and footer: print time, title, address and page numbers", async () => {
    const all = (await readPdf('summary-of-care.pdf')).texts.map((t) => t.text).join('\n');
    expect(all).not.toMatch(/file:|\b[12]\/2\b|\d{1,2}:\d{2}\s*[AP]M/);
    // The title is kept once, as the page shows it (a heading), not on every page.
    expect(all.match(/Summary of Care/g)).toHaveLength(1);
  });
});

describe('the local engine on a printed C-CDA', () => {
  it('reads each table row as one fact in its section, with its columns as details', async () => {
    const { facts, noneKnown } = await engineFacts('summary-of-care.pdf');
    expect(inSection(facts, 'allergies')).toEqual([
      'Codeine',
      'Egg',
      'Penicillin G benzathine 1200000 UNT/2ML injectable suspension',
    ]);
    expect(facts.find((f) => f.text === 'Codeine')).toMatchObject({
      category: 'allergy',
      details: { reaction: 'fatal', severity: 'severe' },
    });
    expect(inSection(facts, 'current_conditions')).toEqual([
      expect.stringMatching(/hyperlipidemia/i),
      'Type 2 diabetes mellitus without complications',
    ]);
    expect(facts.find((f) => /hyperlipidemia/i.test(f.text))).toMatchObject({ onset: '2015-03-02', status: 'active' });
    expect(facts.find((f) => f.text === 'Acute bronchitis')).toMatchObject({
      section: 'past_history',
      status: 'resolved',
    });
    expect(inSection(facts, 'medications')).toEqual([
      'Metformin 500 mg by mouth twice daily',
      'Insulin glargine 20 units subcutaneous at bedtime',
      'Lisinopril 10 mg by mouth daily',
      'Atorvastatin 20 mg by mouth at bedtime',
    ]);
    expect(facts.filter((f) => f.category === 'result').map((f) => f.text)).toEqual([
      'Hemoglobin A1c 7.4 %',
      'LDL cholesterol 131 mg/dL',
    ]);
    // Nobody said there are no allergies.
    expect(noneKnown).toEqual([]);
  });

  it('makes no fact of a column name, a heading, or the rows of encounters, insurance and the patient details', async () => {
    const { facts } = await engineFacts('summary-of-care.pdf');
    const all = facts.map((f) => f.text).join('\n');
    expect(all).not.toMatch(
      /Substance|Description|StartDate|Encounter|Insurance|Advance Directive|Portland|OR 97005|Admit MD|Aaron|Placeholder|Office Visit|Payer|Full code|Testpatient/i,
    );
    expect(facts.filter((f) => f.section === 'allergies').every((f) => f.category === 'allergy')).toBe(true);
    expect(facts.filter((f) => f.category === 'allergy').every((f) => f.section === 'allergies')).toBe(true);
  });

  it('says "no known allergies" where the document says so, and reads the medication table after it', async () => {
    const { facts, noneKnown } = await engineFacts('no-known-allergies.pdf');
    expect(noneKnown.map((n) => [n.section, n.text])).toEqual([['allergies', 'No known allergies']]);
    expect(inSection(facts, 'allergies')).toEqual([]);
    expect(facts.find((f) => f.section === 'medications')).toMatchObject({
      text: expect.stringMatching(/^Albuterol 90 mcg\/act/),
      details: expect.objectContaining({ frequency: 'every 6 hours as needed' }),
    });
  });
});

describe('layoutText', () => {
  const piece = (str: string, x: number, y: number, more: Partial<TextPiece> = {}): TextPiece => ({
    str,
    x,
    y,
    width: str.length * 5,
    size: 10,
    bold: false,
    ...more,
  });

  it('puts a cell under the header it belongs to when the header is centred and the data left-aligned', () => {
    const pages = layoutText([
      {
        page: 1,
        height: 800,
        pieces: [
          piece('Medications', 40, 700, { size: 12, bold: true }),
          piece('Medication', 90, 680, { bold: true }),
          piece('Route', 300, 680, { bold: true }),
          piece('Status', 450, 680, { bold: true }),
          piece('Aspirin 81 mg', 42, 662),
          // No route for this row: the empty cell stays empty, the status stays under Status.
          piece('Active', 402, 662),
          piece('Metoprolol 25 mg', 42, 644),
          piece('Oral', 252, 644),
          piece('Active', 402, 644),
        ],
      },
    ]);
    expect(pages[0]?.text.split('\n')).toEqual([
      '## Medications',
      '| Medication | Route | Status |',
      '| --- | --- | --- |',
      '| Aspirin 81 mg |  | Active |',
      '| Metoprolol 25 mg | Oral | Active |',
    ]);
  });

  it('drops a line repeated at the same place at the top or bottom of every page', () => {
    const page = (n: number) => ({
      page: n,
      height: 800,
      pieces: [
        piece('Clinic Name Confidential', 200, 780, { size: 8 }),
        piece(`Text of page ${n}`, 40, 600),
        piece(`Page ${n} of 2`, 500, 20, { size: 8 }),
      ],
    });
    expect(layoutText([page(1), page(2)])).toEqual([
      { page: 1, text: 'Text of page 1' },
      { page: 2, text: 'Text of page 2' },
    ]);
  });
});
