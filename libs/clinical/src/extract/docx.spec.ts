import { extractDoc } from './doc';
import { extractDocx } from './docx';
import { docxOf, FIXTURES, tempFiles } from './testing/builders';
import { contextFor } from './testing/context';
import { join } from 'node:path';

describe('Word documents', () => {
  const files = tempFiles();
  afterAll(() => files.cleanup());

  it('reads a .docx, keeping each table row on one line with its cells separated', async () => {
    const path = files.write(
      'letter.docx',
      await docxOf(
        ['Clinic letter', 'The patient was seen for a review of hypertension.'],
        [
          ['Medication', 'Dose', 'Frequency'],
          ['Lisinopril', '10 mg', 'once daily'],
          ['Atorvastatin', '20 mg', 'at night'],
        ],
      ),
    );
    const part = await extractDocx(contextFor(path, 'letter.docx'));
    expect(part.problems).toEqual([]);
    expect(part.texts).toHaveLength(1);
    expect(part.texts[0]).toMatchObject({ filename: 'letter.docx', page: null, ocr: false });
    expect(part.texts[0].text.split('\n')).toEqual([
      'Clinic letter',
      'The patient was seen for a review of hypertension.',
      'Medication | Dose | Frequency',
      'Lisinopril | 10 mg | once daily',
      'Atorvastatin | 20 mg | at night',
    ]);
  });

  it('says a corrupt .docx is damaged', async () => {
    const path = files.write('broken.docx', await docxOf([], undefined, '<w:document><w:body><w:p>unclosed'));
    const part = await extractDocx(contextFor(path, 'broken.docx'));
    expect(part.texts).toEqual([]);
    expect(part.problems).toEqual([
      { filename: 'broken.docx', reason: 'This Word document is damaged and could not be read.' },
    ]);
  });

  it('reads a Word 97-2003 .doc', async () => {
    const part = await extractDoc(contextFor(join(FIXTURES, 'referral-letter.doc'), 'referral.doc'));
    expect(part.problems).toEqual([]);
    expect(part.texts[0].text).toContain('Reason for referral: persistent cough for three months.');
    expect(part.texts[0].text).toContain('Lisinopril 10 mg once daily');
  });

  it('says a damaged .doc is damaged', async () => {
    const path = files.write(
      'broken.doc',
      Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(600, 7)]),
    );
    const part = await extractDoc(contextFor(path, 'broken.doc'));
    expect(part.problems).toEqual([
      { filename: 'broken.doc', reason: 'This Word document is damaged and could not be read.' },
    ]);
  });
});
