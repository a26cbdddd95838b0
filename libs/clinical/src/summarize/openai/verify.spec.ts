import { textInput } from '../test-input';
import { chunkDocument, labelPages } from './prompt';
import { modelFact, NO_DETAILS } from './test-model-fact';
import { normaliseForMatch, verifyFact, verifyNoneKnown, type VerifyContext } from './verify';

const fact = modelFact;

const context = (...pages: string[]): VerifyContext => ({
  documentId: 'd1',
  pages: labelPages(textInput(pages, { documentId: 'd1', filename: 'a.pdf' })),
  recorded: '2024-01-02',
});

describe('normaliseForMatch', () => {
  it('ignores case, punctuation and spacing, and joins a word hyphenated across a line break', () => {
    expect(normaliseForMatch('Chronic  KIDNEY dis-\n  ease, stage 3.')).toBe('chronic kidney disease stage 3');
    // A hyphen inside a line is kept as a word break.
    expect(normaliseForMatch('beta-blocker')).toBe('beta blocker');
  });
});

describe('verifyFact', () => {
  const ctx = context('PMH: DM2, HTN.\nMeds: Glucophage 500 mg BID', 'Plan: recheck in 3 months');

  it('accepts a condition named by an abbreviation the vocabulary knows', () => {
    const kept = verifyFact(
      ctx,
      fact({ text: 'Type 2 diabetes mellitus', citation: { page: 1, quote: 'PMH: DM2, HTN.' } }),
    );
    expect(kept?.sources).toEqual([{ documentId: 'd1', filename: 'a.pdf', page: 1, quote: 'PMH: DM2, HTN.' }]);
    expect(kept?.recorded).toBe('2024-01-02');
  });

  it('accepts a drug named by its brand', () => {
    const kept = verifyFact(
      ctx,
      fact({
        category: 'medication',
        section: 'current_conditions',
        text: 'Metformin 500 mg twice daily',
        details: { ...NO_DETAILS, dose: '500 mg' },
        citation: { page: 1, quote: 'Meds: Glucophage 500 mg BID' },
      }),
    );
    // A drug always goes to Medications, whatever section the model chose.
    expect(kept?.section).toBe('medications');
  });

  it('refuses a fact its quote does not name, or a quote from another page', () => {
    expect(verifyFact(ctx, fact({ text: 'Asthma', citation: { page: 1, quote: 'PMH: DM2, HTN.' } }))).toBeNull();
    // Named elsewhere on the page is not enough: the quote must be about it.
    expect(
      verifyFact(ctx, fact({ text: 'Hypertension', citation: { page: 1, quote: 'Meds: Glucophage 500 mg BID' } })),
    ).toBeNull();
    expect(verifyFact(ctx, fact({ text: 'Hypertension', citation: { page: 2, quote: 'PMH: DM2, HTN.' } }))).toBeNull();
    expect(verifyFact(ctx, fact({ text: 'Hypertension', citation: { page: 1, quote: '' } }))).toBeNull();
  });

  it('keeps a code only when the page writes it, and dates only in ISO form', () => {
    const kept = verifyFact(
      ctx,
      fact({
        text: 'Hypertension',
        code: { system: 'ICD-10-CM', code: 'I10' },
        onset: 'since 2015',
        end: '2020-02',
        certainty: 'possible',
        citation: { page: 1, quote: 'PMH: DM2, HTN.' },
      }),
    );
    expect(kept).not.toBeNull();
    expect(kept?.code).toBeUndefined();
    expect(kept?.onset).toBeUndefined();
    expect(kept?.end).toBe('2020-02');
    expect(kept?.certainty).toBe('possible');
  });
});

describe('verifyNoneKnown', () => {
  const ctx = context('Allergies: NKDA\nMedications: see list');
  it('keeps a statement whose quote says none, and no other', () => {
    const citation = { page: 1, quote: 'Allergies: NKDA' };
    expect(
      verifyNoneKnown(ctx, { section: 'allergies', text: 'No known drug allergies', citation })?.sources[0]?.quote,
    ).toBe('Allergies: NKDA');
    expect(
      verifyNoneKnown(ctx, {
        section: 'medications',
        text: 'None',
        citation: { page: 1, quote: 'Medications: see list' },
      }),
    ).toBeNull();
  });
});

describe('chunkDocument', () => {
  it('cuts a page longer than a chunk at line ends, each part keeping its page label', () => {
    const long = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of the long page.`).join('\n');
    const chunks = chunkDocument(textInput(['Short first page.', long]), 300);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0]?.content.startsWith('=== Page 1 ===\nShort first page.\n=== Page 2 ===\nLine 1 ')).toBe(true);
    const pieces = chunks.map((c) => c.content.split(/=== Page \d+ ===\n/).filter(Boolean));
    for (const chunkPieces of pieces) expect(chunkPieces.join('').length).toBeLessThanOrEqual(300);
    // Page 2's parts, in order, give back the whole page: nothing is lost at the cuts.
    const page2 = chunks.flatMap((c) =>
      [...c.content.matchAll(/=== Page 2 ===\n([^=]*)/g)].map((m) => m[1]?.replace(/\n$/, '')),
    );
    expect(page2.length).toBeGreaterThan(1);
    expect(page2.join('\n')).toBe(long);
    expect(chunks.slice(1).every((c) => c.pages.map((p) => p.label).join() === '2')).toBe(true);
  });

  it('numbers pages 1, 2, 3 when the document has no page numbers of its own', () => {
    const input = textInput(['a', 'b']);
    input.texts = input.texts.map((t) => ({ ...t, page: null }));
    expect(labelPages(input).map((p) => p.label)).toEqual([1, 2]);
  });
});
