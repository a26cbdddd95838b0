import type { ClinicalFact } from '@medfolio/clinical';
import { onlyPrivateSources, withoutPrivate } from './private-filter';
import { applyOverrides, identify, type EngineOutput } from './summary-model';

const from = (documentId: string) => ({ documentId, filename: `${documentId}.pdf`, page: 1, quote: '' });
const fact = (text: string, section: ClinicalFact['section'], ...documents: string[]): ClinicalFact => ({
  section,
  category: section === 'medications' ? 'medication' : 'condition',
  text,
  sources: documents.map(from),
});

const output: EngineOutput = {
  facts: identify([fact('Sertraline 50 mg daily', 'medications', 'private'), fact('Metformin 500 mg twice daily', 'medications', 'private', 'open'), fact('Asthma', 'current_conditions', 'open')]),
  noneKnown: [{ section: 'allergies', text: 'No known allergies', sources: [from('private')] }],
  droppedUnsupported: 0,
  changes: [{ date: '2024-01-01', kind: 'medication', change: 'changed', title: 'Sertraline', detail: '25 mg → 50 mg', sources: [{ document_id: 'private', filename: 'private.pdf', page: null }] }],
};

describe("a proxy's view of a record with private documents", () => {
  it('leaves out what only private documents say, and keeps what another document says too (citing it alone)', () => {
    const hidden = withoutPrivate(output, new Set(['private']));
    expect(hidden.facts.map((f) => f.text)).toEqual(['Metformin 500 mg twice daily', 'Asthma']);
    expect(hidden.facts[0]!.sources.map((s) => s.documentId)).toEqual(['open']);
    expect(hidden.noneKnown).toEqual([]);
    expect(hidden.changes).toEqual([]);
    const text = applyOverrides(hidden, []).text;
    expect(text).not.toContain('Sertraline');
    expect(text).toContain('Metformin');
  });

  it('changes nothing without private documents, and keeps facts without sources (added by hand)', () => {
    expect(withoutPrivate(output, new Set())).toBe(output);
    expect(onlyPrivateSources([], new Set(['private']))).toBe(false);
    expect(onlyPrivateSources([{ documentId: 'private' }], new Set(['private']))).toBe(true);
  });
});
