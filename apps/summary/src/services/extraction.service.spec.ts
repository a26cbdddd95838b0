import type { ExtractionResult } from '@medfolio/clinical';
import { READ_MESSAGES, verdictOf } from './extraction.service';

const base: ExtractionResult = { documentId: 'd1', filename: 'scan.pdf', texts: [], facts: [], noneKnown: [], problems: [] };

describe('verdictOf', () => {
  it('files a document with readable text as read, keeping the problems of the parts that were not', () => {
    const verdict = verdictOf(
      {
        ...base,
        texts: [{ filename: 'scan.pdf', page: 1, text: 'Medications: metformin', ocr: false }],
        problems: [{ filename: 'scan.pdf', reason: 'page 3 could not be read: the scan is unclear' }],
      },
      'scan.pdf',
    );
    expect(verdict).toEqual({ state: 'read', problems: ['page 3 could not be read: the scan is unclear'] });
  });

  it('names the file inside a zip the problem is about', () => {
    const verdict = verdictOf(
      { ...base, facts: [{ section: 'allergies', category: 'allergy', text: 'Penicillin', sources: [] }], problems: [{ filename: 'records.zip › a.tif', reason: 'This kind of file cannot be read.' }] },
      'records.zip',
    );
    expect(verdict.problems).toEqual(['records.zip › a.tif: This kind of file cannot be read.']);
  });

  it('files a document with nothing readable as unreadable, with a reason even when extraction gave none', () => {
    expect(verdictOf({ ...base, texts: [{ filename: 'scan.pdf', page: 1, text: '  ', ocr: true }] }, 'scan.pdf')).toEqual({
      state: 'unreadable',
      problems: [READ_MESSAGES.nothingRead],
    });
    expect(verdictOf({ ...base, problems: [{ filename: 'scan.pdf', reason: 'This kind of file cannot be read.' }] }, 'scan.pdf')).toEqual({
      state: 'unreadable',
      problems: ['This kind of file cannot be read.'],
    });
  });
});
