import { OcrScheduler } from './ocr';
import { extractPdf } from './pdf';
import { encryptedPdf, pdfWithText, pngOfText, scannedPdf, tempFiles } from './testing/builders';
import { contextFor, recordingLogger } from './testing/context';

describe('extractPdf', () => {
  const files = tempFiles();
  afterAll(() => files.cleanup());

  it('reads the text layer page by page', async () => {
    const path = files.write(
      'text.pdf',
      await pdfWithText([
        ['Discharge summary', 'Diagnosis: community acquired pneumonia'],
        ['Medications on discharge', 'Amoxicillin 500 mg three times daily'],
        ['Follow up with the clinic in two weeks'],
      ]),
    );
    const logger = recordingLogger();
    const part = await extractPdf(contextFor(path, 'discharge.pdf', { logger }));
    expect(part.problems).toEqual([]);
    expect(part.texts.map((t) => t.page)).toEqual([1, 2, 3]);
    expect(part.texts[1]).toMatchObject({ filename: 'discharge.pdf', ocr: false });
    expect(part.texts[1].text).toContain('Amoxicillin 500 mg three times daily');
    expect(part.texts[0].text.split('\n')).toEqual(['Discharge summary', 'Diagnosis: community acquired pneumonia']);
    expect(logger.lines.join('\n')).not.toMatch(/pneumonia|Amoxicillin/);
  });

  it('says a password-protected PDF could not be read', async () => {
    const path = files.write('locked.pdf', await encryptedPdf());
    const part = await extractPdf(contextFor(path, 'locked.pdf'));
    expect(part.texts).toEqual([]);
    expect(part.problems).toEqual([
      { filename: 'locked.pdf', reason: expect.stringContaining('protected by a password') },
    ]);
  });

  it('says a damaged PDF could not be read', async () => {
    const good = await pdfWithText([['Some text on a page']]);
    const path = files.write('broken.pdf', Buffer.concat([good.subarray(0, 40), Buffer.alloc(500, 0x20)]));
    const part = await extractPdf(contextFor(path, 'broken.pdf'));
    expect(part.problems).toEqual([{ filename: 'broken.pdf', reason: 'This PDF is damaged and could not be read.' }]);
  });

  it('reports a scanned page as unread when OCR is off', async () => {
    const path = files.write(
      'scan.pdf',
      await scannedPdf([await pngOfText(['Blood pressure 128/82'], { width: 620, height: 877 }, 14)]),
    );
    const part = await extractPdf(contextFor(path, 'scan.pdf'));
    expect(part.texts).toEqual([]);
    expect(part.problems[0].reason).toBe('Page 1 is a scan and was not read: reading scans is turned off.');
  });

  describe('with OCR', () => {
    const ocr = new OcrScheduler();
    afterAll(() => ocr.shutdown());

    it('OCRs a scanned page (an image-only PDF) and reports its confidence', async () => {
      const image = await pngOfText(['Clinic letter', 'Diagnosis: asthma', 'Salbutamol inhaler as needed']);
      const blank = await pngOfText([]);
      const path = files.write('scan-ocr.pdf', await scannedPdf([image, blank]));
      const part = await extractPdf(contextFor(path, 'scan.pdf', { ocr }));
      expect(part.texts).toHaveLength(1);
      expect(part.texts[0]).toMatchObject({ page: 1, ocr: true });
      expect(part.texts[0].text).toMatch(/Diagnosis: asthma/);
      expect(part.texts[0].text).toMatch(/Salbutamol inhaler/);
      expect(part.texts[0].confidence).toBeGreaterThan(70);
      // The blank scanned page yields no words: the patient is told it could not be read.
      expect(part.problems).toEqual([
        { filename: 'scan.pdf', reason: 'Page 2 could not be read: the scan is unclear.' },
      ]);
    }, 120_000);
  });
});
