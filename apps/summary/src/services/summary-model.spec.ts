import type { ClinicalFact } from '@medfolio/clinical';
import { applyOverrides, identify, problemsOfDocument, type EngineOutput } from './summary-model';

const source = { documentId: 'd1', filename: 'labs.pdf', page: 2, quote: 'Metformin 500 mg PO BID' };
const metformin: ClinicalFact = {
  section: 'medications',
  category: 'medication',
  text: 'Metformin 500 mg by mouth twice daily',
  details: { dose: '500 mg', route: 'by mouth', frequency: 'twice daily' },
  status: 'active',
  sources: [source],
};
const diabetes: ClinicalFact = { section: 'current_conditions', category: 'condition', text: 'Type 2 diabetes mellitus', onset: '2015', sources: [source] };

function output(facts: ClinicalFact[]): EngineOutput {
  return { facts: identify(facts), noneKnown: [], droppedUnsupported: 0 };
}

describe('fact ids', () => {
  it('are the same for the same fact however it is worded or ordered, and differ between facts', () => {
    const first = identify([metformin, diabetes]);
    const again = identify([diabetes, { ...metformin, text: 'metformin 500mg PO BID' }]);
    expect(first[0]?.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(again[1]?.id).toBe(first[0]?.id);
    expect(again[0]?.id).toBe(first[1]?.id);
    expect(first[0]?.id).not.toBe(first[1]?.id);
  });

  it('change with the section (a condition that moved to past history is another fact)', () => {
    const [current] = identify([diabetes]);
    const [past] = identify([{ ...diabetes, section: 'past_history' }]);
    expect(past?.id).not.toBe(current?.id);
  });
});

describe('applyOverrides', () => {
  it('renders the engine output as the wire sections with sources', () => {
    const applied = applyOverrides(output([metformin, diabetes]), []);
    const medications = applied.sections.find((s) => s.key === 'medications');
    expect(medications?.state).toBe('facts');
    expect(medications?.facts[0]).toMatchObject({
      text: metformin.text,
      category: 'medication',
      hidden: false,
      edited: false,
      added_by_patient: false,
      details: { dose: '500 mg', route: 'by mouth', frequency: 'twice daily' },
      sources: [{ document_id: 'd1', filename: 'labs.pdf', page: 2, quote: 'Metformin 500 mg PO BID' }],
    });
    expect(applied.text).toContain('**Medications:**\n- Metformin 500 mg by mouth twice daily');
    expect(applied.sections.find((s) => s.key === 'allergies')?.state).toBe('not_recorded');
  });

  it('keeps a hidden fact for the owner (marked) but leaves it out of the text and the state', () => {
    const engine = output([metformin]);
    const id = engine.facts[0]!.id;
    const applied = applyOverrides(engine, [{ factId: id, section: 'medications', added: false, hidden: true, text: null }]);
    const medications = applied.sections.find((s) => s.key === 'medications')!;
    expect(medications.facts).toEqual([expect.objectContaining({ id, hidden: true })]);
    expect(medications.state).toBe('not_recorded');
    expect(applied.text).not.toContain('Metformin');
  });

  it('uses the corrected text, marked edited, and adds the patient\'s own facts without sources', () => {
    const engine = output([metformin]);
    const id = engine.facts[0]!.id;
    const applied = applyOverrides(engine, [
      { factId: id, section: 'medications', added: false, hidden: false, text: 'Metformin 1000 mg twice daily' },
      { factId: '7d0c6a55-3b0e-4d43-9d59-0c7b8a1f5e21', section: 'allergies', added: true, hidden: false, text: 'Latex' },
    ]);
    expect(applied.sections.find((s) => s.key === 'medications')?.facts[0]).toMatchObject({ id, text: 'Metformin 1000 mg twice daily', edited: true });
    expect(applied.sections.find((s) => s.key === 'allergies')?.facts[0]).toMatchObject({ text: 'Latex', added_by_patient: true, sources: [], category: 'allergy' });
    expect(applied.text).toContain('- Metformin 1000 mg twice daily');
    expect(applied.text).toContain('**Allergies:**\n- Latex');
  });

  it('re-applies a change on a rebuild that finds the same fact again', () => {
    const before = output([metformin]);
    const change = { factId: before.facts[0]!.id, section: 'medications' as const, added: false, hidden: true, text: null };
    const rebuilt = output([diabetes, { ...metformin, sources: [source, { ...source, documentId: 'd2' }] }]);
    const medications = applyOverrides(rebuilt, [change]).sections.find((s) => s.key === 'medications')!;
    expect(medications.facts[0]).toMatchObject({ hidden: true });
    expect(medications.facts[0]?.sources).toHaveLength(2);
  });

  it('says where a fetched document came from on each of its sources, and nothing for uploads', () => {
    const fetchedDoc = { documentId: 'd2', filename: 'Springfield General Hospital — fetched 2026-11-27.json', page: null, quote: 'Asthma' };
    const asthma: ClinicalFact = { section: 'current_conditions', category: 'condition', text: 'Asthma', sources: [fetchedDoc] };
    const linkDoc = { documentId: 'd3', filename: 'SMART Health Link from Springfield Clinic, received 27 Nov 2026.json', page: null, quote: 'Penicillin' };
    const penicillin: ClinicalFact = { section: 'allergies', category: 'allergy', text: 'Penicillin', sources: [linkDoc] };
    const fetched = new Map([
      ['d2', { source: 'Springfield General Hospital via MyChart', uploadedAt: new Date('2026-11-27T08:00:00Z') }],
      ['d3', { source: 'SMART Health Link from Springfield Clinic', uploadedAt: new Date('2026-11-26T23:30:00Z') }],
    ]);
    const applied = applyOverrides(output([diabetes, asthma, penicillin]), [], fetched);
    const conditions = applied.sections.find((s) => s.key === 'current_conditions')!;
    const sourcesOf = (text: string) => conditions.facts.find((f) => f.text === text)?.sources;
    expect(sourcesOf('Asthma')).toEqual([{ document_id: 'd2', filename: fetchedDoc.filename, page: null, quote: 'Asthma', fetched_from: 'Springfield General Hospital via MyChart, fetched 27 Nov 2026' }]);
    expect(sourcesOf('Type 2 diabetes mellitus')?.[0]).not.toHaveProperty('fetched_from');
    const allergy = applied.sections.find((s) => s.key === 'allergies')!.facts[0]!;
    expect(allergy.sources[0]?.fetched_from).toBe('SMART Health Link from Springfield Clinic, received 26 Nov 2026');
  });
});

describe('problemsOfDocument', () => {
  const document = { filename: 'labs.pdf', problems: ['page 3 could not be read: the scan is unclear'] };

  it("adds the engine's problems for the same document after its own reading's, once each", () => {
    const built: EngineOutput = {
      ...output([metformin]),
      problems: [
        { filename: 'labs.pdf', reason: 'Part of labs.pdf could not be summarised.' },
        { filename: 'other.pdf', reason: 'Part of other.pdf could not be summarised.' },
        { filename: 'labs.pdf', reason: 'page 3 could not be read: the scan is unclear' },
      ],
    };
    expect(problemsOfDocument(document, built)).toEqual([
      'page 3 could not be read: the scan is unclear',
      'Part of labs.pdf could not be summarised.',
    ]);
  });

  it("keeps the reading's problems when nothing was built yet or an older version has no engine problems", () => {
    expect(problemsOfDocument(document, null)).toEqual(document.problems);
    expect(problemsOfDocument(document, output([metformin]))).toEqual(document.problems);
  });
});
