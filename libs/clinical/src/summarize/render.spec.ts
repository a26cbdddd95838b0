import type { ClinicalFact, NoneKnown } from '../model';
import { buildSummary } from './render';

const source = { documentId: 'd', filename: 'd.pdf', page: 1, quote: 'q' };
const fact = (partial: Partial<ClinicalFact> & Pick<ClinicalFact, 'text'>): ClinicalFact => ({
  section: 'current_conditions',
  category: 'condition',
  recorded: '2024-01-01',
  sources: [source],
  ...partial,
});
const nkda = (recorded: string): NoneKnown => ({
  section: 'allergies',
  text: 'No known drug allergies',
  recorded,
  sources: [source],
});

describe('buildSummary', () => {
  it('gives the five sections in order, each facts, none known or not recorded, in the spec text', () => {
    const summary = buildSummary(
      [fact({ text: 'Type 2 diabetes mellitus', status: 'active', onset: '2015' })],
      [nkda('2024-01-01')],
    );
    expect(summary.sections.map((s) => [s.title, s.state])).toEqual([
      ['Current Medical Conditions', 'facts'],
      ['Past Medical History', 'not_recorded'],
      ['Medications', 'not_recorded'],
      ['Allergies', 'none_known'],
      ['Additional Categories', 'not_recorded'],
    ]);
    expect(summary.text).toBe(
      [
        '**Current Medical Conditions:**',
        '- Type 2 diabetes mellitus (since 2015)',
        '',
        '**Past Medical History:**',
        'Not recorded',
        '',
        '**Medications:**',
        'Not recorded',
        '',
        '**Allergies:**',
        'None known (No known drug allergies)',
        '',
        '**Additional Categories:**',
        'Not recorded',
      ].join('\n'),
    );
  });

  it('never shows "not recorded" as "none"', () => {
    const summary = buildSummary([], []);
    expect(summary.sections.every((s) => s.state === 'not_recorded')).toBe(true);
    expect(summary.text).not.toMatch(/none/i);
  });

  it('lets facts recorded as late as a "none known" or later override it', () => {
    const summary = buildSummary(
      [
        fact({
          section: 'allergies',
          category: 'allergy',
          text: 'Penicillin',
          details: { reaction: 'hives' },
          recorded: '2024-01-01',
        }),
      ],
      [nkda('2024-01-01')],
    );
    expect(summary.sections[3]).toMatchObject({ state: 'facts' });
    expect(summary.sections[3]!.noneKnown).toBeUndefined();
    expect(summary.text).toContain('**Allergies:**\n- Penicillin (hives)\n\n');
  });

  it('does not let a newer "none known" erase older facts silently: both are shown', () => {
    const summary = buildSummary(
      [fact({ section: 'allergies', category: 'allergy', text: 'Penicillin', recorded: '2020-01-01' })],
      [nkda('2024-05-01')],
    );
    expect(summary.sections[3]).toMatchObject({ state: 'facts', noneKnown: { text: 'No known drug allergies' } });
    expect(summary.text).toContain(
      '- Penicillin\n- Note: a newer record (2024-05-01) says none known (No known drug allergies)',
    );
  });

  it('sorts active first, then newest first, and marks stopped, resolved and possible facts', () => {
    const summary = buildSummary([
      fact({ section: 'medications', category: 'medication', text: 'Warfarin 5 mg daily', status: 'stopped' }),
      fact({
        section: 'medications',
        category: 'medication',
        text: 'Apixaban 5 mg twice daily',
        status: 'active',
        recorded: '2023-01-01',
      }),
      fact({
        section: 'medications',
        category: 'medication',
        text: 'Metoprolol 25 mg daily',
        status: 'active',
        recorded: '2024-01-01',
      }),
      fact({ text: 'Obstructive sleep apnea', status: 'active', certainty: 'possible' }),
      fact({ section: 'past_history', text: 'Acute bronchitis', status: 'resolved', end: '2022-07' }),
    ]);
    expect(summary.text).toContain(
      '**Medications:**\n- Metoprolol 25 mg daily\n- Apixaban 5 mg twice daily\n- Warfarin 5 mg daily (stopped)',
    );
    expect(summary.text).toContain('- Obstructive sleep apnea (possible)');
    expect(summary.text).toContain('- Acute bronchitis (resolved 2022-07)');
  });

  it('labels the kinds of Additional Categories and groups them', () => {
    const summary = buildSummary([
      fact({ section: 'additional', category: 'vital', text: 'Blood pressure 132/84 mmHg', recorded: '2024-03-14' }),
      fact({ section: 'additional', category: 'immunization', text: 'Tdap', onset: '2019-06' }),
      fact({ section: 'additional', category: 'procedure', text: 'Appendectomy', onset: '1978' }),
    ]);
    expect(summary.text).toContain(
      '**Additional Categories:**\n- Immunization: Tdap (2019-06)\n- Procedure: Appendectomy (1978)\n- Vital sign: Blood pressure 132/84 mmHg (2024-03-14)',
    );
  });

  it('gives the same text for the same facts in any order', () => {
    const facts = [fact({ text: 'Gout' }), fact({ text: 'Asthma' }), fact({ text: 'Anemia', recorded: '2023-01-01' })];
    expect(buildSummary([...facts].reverse()).text).toBe(buildSummary(facts).text);
  });
});
