import { join } from 'node:path';
import { extractDocument } from './extract';
import { OcrScheduler } from './ocr';
import { sniffStructuredRecord } from './structured';
import { docxOf, FIXTURES, pdfWithText, pngOfText, tempFiles } from './testing/builders';
import { recordingLogger } from './testing/context';
import { BILLION_LAUGHS, CCDA_CCD, FHIR_IPS_BUNDLE, XXE } from './testing/samples';
import sharp from 'sharp';

describe('extractDocument', () => {
  const files = tempFiles();
  afterAll(() => files.cleanup());
  const source = (path: string, filename: string) => ({
    documentId: 'doc-9',
    filename,
    contentType: 'application/octet-stream',
    path,
  });

  it('dispatches by content, not by name', async () => {
    const pdfNamedDocx = files.write('a', await pdfWithText([['Blood pressure reviewed']]));
    const ccdaNamedTxt = files.write('b', CCDA_CCD);
    const docxNamedZip = files.write('c', await docxOf(['A Word letter']));
    const fhirNamedXml = files.write('d', FHIR_IPS_BUNDLE);
    const opts = { ocr: false as const };
    expect((await extractDocument(source(pdfNamedDocx, 'letter.docx'), opts)).texts[0]).toMatchObject({
      page: 1,
      text: 'Blood pressure reviewed',
    });
    expect((await extractDocument(source(ccdaNamedTxt, 'notes.txt'), opts)).facts.length).toBeGreaterThan(5);
    expect((await extractDocument(source(docxNamedZip, 'archive.zip'), opts)).texts[0].text).toBe('A Word letter');
    expect((await extractDocument(source(fhirNamedXml, 'record.xml'), opts)).documentDate).toBe('2024-05-20');
    expect(
      (await extractDocument(source(join(FIXTURES, 'referral-letter.doc'), 'r.pdf'), opts)).texts[0].text,
    ).toContain('Referral letter');
  });

  it('fills the result with the document id and name', async () => {
    const result = await extractDocument(source(files.write('e', CCDA_CCD), 'ccd.xml'), { ocr: false });
    expect(result).toMatchObject({
      documentId: 'doc-9',
      filename: 'ccd.xml',
      documentDate: '2024-03-15',
      problems: [],
    });
    expect(result.facts.every((f) => f.sources[0].documentId === 'doc-9')).toBe(true);
  });

  it('says what it cannot read, and never throws for a bad file', async () => {
    const cases: [Buffer | string, string][] = [
      ['just some plain words', 'This kind of file cannot be read.'],
      ['', 'This kind of file cannot be read.'],
      [XXE, 'This file declares a document type (DTD), which is not accepted for safety.'],
      [BILLION_LAUGHS, 'This file declares a document type (DTD), which is not accepted for safety.'],
      ['{"hello": "world"}', 'This JSON file is not a health record that can be read (it is not FHIR).'],
      [Buffer.from('89504e470d0a1a0a0000', 'hex'), 'This picture is damaged and could not be read.'],
    ];
    for (const [data, reason] of cases) {
      const result = await extractDocument(source(files.write('bad', data), 'upload.bin'), { ocr: false });
      expect(result.problems).toEqual([{ filename: 'upload.bin', reason }]);
      expect(result.texts).toEqual([]);
    }
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    await expect(
      extractDocument(source(files.write('f', await pdfWithText([['x']])), 'f.pdf'), {
        ocr: false,
        signal: controller.signal,
      }),
    ).rejects.toThrow('shutting down');
  });

  it('OCRs a photo of a printed page (PNG, JPEG, and a phone photo turned by its EXIF orientation), logging no text', async () => {
    const ocr = new OcrScheduler();
    try {
      const png = await pngOfText(
        ['Discharge medication', 'Ramipril 5 mg once daily'],
        { width: 1400, height: 600 },
        44,
      );
      const jpeg = await sharp(png).jpeg({ quality: 85 }).toBuffer();
      // Stored a quarter turn anticlockwise, with EXIF orientation 6 ("turn 90° clockwise to show").
      const sideways = await sharp(png).rotate(-90).withMetadata({ orientation: 6 }).jpeg({ quality: 85 }).toBuffer();
      expect((await sharp(sideways).metadata()).orientation).toBe(6);
      const logger = recordingLogger();
      for (const [data, name] of [
        [png, 'photo.png'],
        [jpeg, 'photo.jpg'],
        [sideways, 'sideways.jpg'],
      ] as const) {
        const result = await extractDocument(source(files.write(name, data), name), { ocrScheduler: ocr, logger });
        expect(result.problems).toEqual([]);
        expect(result.texts).toEqual([
          {
            filename: name,
            page: null,
            text: 'Discharge medication\nRamipril 5 mg once daily',
            ocr: true,
            confidence: expect.any(Number),
          },
        ]);
      }
      expect(logger.lines.join('\n')).not.toMatch(/Ramipril|Discharge/);
    } finally {
      await ocr.shutdown();
    }
  }, 120_000);

  it('reports an unreadable photo as unclear', async () => {
    // Noise: no words a reader could trust.
    const noise = await sharp(
      Buffer.from(Array.from({ length: 600 * 400 }, (_, i) => ((i * 7919) % 251 > 125 ? 255 : 0))),
      { raw: { width: 600, height: 400, channels: 1 } },
    )
      .blur(3)
      .png()
      .toBuffer();
    const result = await extractDocument(source(files.write('noise.png', noise), 'scan.png'), { ocrConcurrency: 1 });
    expect(result.texts).toEqual([]);
    expect(result.problems).toEqual([
      { filename: 'scan.png', reason: 'This picture could not be read: the scan is unclear.' },
    ]);
  }, 120_000);
});

describe('sniffStructuredRecord', () => {
  it('recognises a C-CDA and a FHIR resource by content', () => {
    expect(sniffStructuredRecord(Buffer.from(CCDA_CCD))).toBe('ccda');
    expect(sniffStructuredRecord(Buffer.from(FHIR_IPS_BUNDLE))).toBe('fhir');
    expect(sniffStructuredRecord(Buffer.from('\uFEFF  ' + JSON.stringify({ resourceType: 'Patient', id: 'p1' })))).toBe(
      'fhir',
    );
    expect(
      sniffStructuredRecord(Buffer.from('<cda:ClinicalDocument xmlns:cda="urn:hl7-org:v3"></cda:ClinicalDocument>')),
    ).toBe('ccda');
  });

  it('refuses what is not a record, is malformed, or declares a DTD', () => {
    for (const text of [
      XXE,
      BILLION_LAUGHS,
      '<ClinicalDocument><title>no namespace</title></ClinicalDocument>',
      '<ClinicalDocument xmlns="urn:hl7-org:v3"><title>unclosed',
      '<html><body>hello</body></html>',
      '{"resourceType": "Spaceship"}',
      '{"name": "list"}',
      '{"resourceType": "Patient", ',
      '%PDF-1.7',
      '',
    ]) {
      expect(sniffStructuredRecord(Buffer.from(text))).toBeNull();
    }
  });

  it('judges only the root when given just the start of a large file', () => {
    const big = CCDA_CCD.replace('</ClinicalDocument>', '<!--' + 'x'.repeat(70_000) + '-->\n</ClinicalDocument>');
    const head = Buffer.from(big).subarray(0, 64 * 1024);
    expect(sniffStructuredRecord(head, false)).toBe('ccda');
    const json = Buffer.from(
      JSON.stringify({
        resourceType: 'Bundle',
        type: 'collection',
        entry: Array(5000).fill({ resource: { resourceType: 'Patient' } }),
      }),
    ).subarray(0, 64 * 1024);
    expect(sniffStructuredRecord(json, false)).toBe('fhir');
    expect(sniffStructuredRecord(Buffer.from('{"a": {"resourceType": "Patient"}'), false)).toBeNull();
  });
});
