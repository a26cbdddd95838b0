// The local engine on a PDF's laid-out text (extract/pdf-layout.ts): "## " headings told by their
// typography, "### " sub-headings, and tables as "| a | b |" rows under a "| --- |" marked header.
import type { ClinicalFact } from '../model';
import { LocalEngine } from './local-engine';
import { textInput } from './test-input';

async function read(lines: string[]) {
  return new LocalEngine().read([textInput(lines.join('\n'))]);
}
const texts = (facts: ClinicalFact[], section: ClinicalFact['section']): string[] =>
  facts.filter((f) => f.section === section).map((f) => f.text);

describe('LocalEngine: tables and headings of a printed record', () => {
  it('reads an allergies table as allergies only, and nothing after it in other sections as one', async () => {
    const { facts, noneKnown } = await read([
      '## Allergies, Adverse Reactions, Alerts',
      '| Code | Description | Reaction | Status |',
      '| --- | --- | --- | --- |',
      '| 2670 | Codeine | Fatal | Active |',
      '| 102263004 | Eggs | Hives | Active |',
      '## Encounters',
      '| Encounter Type | Location Name | Performer | Date of Service |',
      '| --- | --- | --- | --- |',
      '| Office Visit | Portland, OR 97005 | Admit MD, Aaron | 01/05/2024 |',
      '## Insurance',
      '| Payer | Member ID |',
      '| --- | --- |',
      '| Placeholder Plan | X1 |',
      '## Advance Directives',
      'Full code, verified 01/05/2024',
    ]);
    expect(texts(facts, 'allergies')).toEqual(['Codeine', 'Egg']);
    expect(facts.find((f) => f.text === 'Codeine')?.details).toEqual({ reaction: 'fatal' });
    expect(facts.map((f) => f.text).join('|')).not.toMatch(
      /Encounter|Portland|Aaron|Insurance|Placeholder|Directive|\bCode\b|Description/,
    );
    expect(noneKnown).toEqual([]);
  });

  it("takes a problem row's dates and status from its columns", async () => {
    const { facts } = await read([
      '## Problems',
      '| Problem Description | Problem StartDate | Status |',
      '| --- | --- | --- |',
      '| Essential hypertension | 03/02/2015 | Active |',
      '| Acute bronchitis | 01/05/2019 | Resolved |',
      '| Overweight | 12/31/2006 | Suspended |',
    ]);
    expect(facts.find((f) => /hypertension/i.test(f.text))).toMatchObject({
      section: 'current_conditions',
      onset: '2015-03-02',
      status: 'active',
    });
    expect(facts.find((f) => f.text === 'Acute bronchitis')).toMatchObject({
      section: 'past_history',
      status: 'resolved',
    });
    expect(facts.find((f) => f.text === 'Overweight')).toMatchObject({ section: 'past_history' });
    expect(facts).toHaveLength(3);
  });

  it('makes no fact of a sub-heading or a table caption, and a known one opens its section', async () => {
    const { facts } = await read([
      '## Discharge Diagnosis',
      'Unresolved Problems',
      '| Problem | Onset Date | Status |',
      '| --- | --- | --- |',
      '| Severe hypothyroidism | December 31st, 2006 | Active |',
      '## Health Concerns',
      '### Concerns',
      'Documented hypertension problem',
      '### Patient priority:',
      'high priority',
      '### Allergies',
      'Latex - rash',
      '### Medications: lisinopril 10 mg daily',
    ]);
    const all = facts.map((f) => f.text);
    expect(all).not.toContain('Unresolved Problems');
    expect(all).not.toContain('Concerns');
    expect(all.join('|')).not.toMatch(/priority/i);
    expect(texts(facts, 'allergies')).toEqual(['Latex']);
    // A bold line with content after its label is read.
    expect(texts(facts, 'medications')).toEqual([expect.stringMatching(/^Lisinopril 10 mg/)]);
    expect(texts(facts, 'current_conditions')).toContain('Severe hypothyroidism');
  });

  it("reads a header-less problems table as prose and not the document's details printed after the last section", async () => {
    const { facts } = await read([
      '## Discharge Diagnosis',
      '| LOCAL TITLE: DISCHARGE DIAGNOSIS | Ms Larson was found to have chronic kidney disease | AUTHOR: SEVEN,HENRY |',
      '',
      '| Patient | Legal: Testpatient, Alex | Contact Details | 1 Placeholder Road, Portland, OR 97005 |',
      '| Date of Birth | May 1, 1970 | Gender | FEMALE |',
      '| Race | WHITE |',
    ]);
    expect(facts.map((f) => f.text)).toEqual(['Chronic kidney disease']);
  });

  it('makes no medication of a row that says only how often', async () => {
    const { facts } = await read([
      '## Medications',
      '| Medication | Start Date | Instructions |',
      '| --- | --- | --- |',
      '| 2 times per day | June 24th, 2015 |  |',
      '| At Bedtime |  |  |',
      '| Lisinopril 10 MG Oral Tablet | June 24th, 2015 | Daily |',
    ]);
    expect(texts(facts, 'medications')).toEqual([expect.stringMatching(/^Lisinopril 10 mg/)]);
  });

  it('does not list a refused vaccine as given', async () => {
    const { facts } = await read([
      '## Immunizations',
      '| Vaccine | Date | Status |',
      '| --- | --- | --- |',
      '| Influenza, seasonal, IM | Nov 1999 | Completed |',
      '| Tetanus and diphtheria toxoids, IM | 1997 | Refused |',
    ]);
    expect(facts.filter((f) => f.category === 'immunization').map((f) => f.text)).toEqual(['Influenza, seasonal, IM']);
  });
});
