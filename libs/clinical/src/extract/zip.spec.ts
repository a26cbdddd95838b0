import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { deflateRawSync } from 'node:zlib';
import { extractDocument } from './extract';
import { docxOf, pdfWithText, tempFiles, zipOf } from './testing/builders';
import { CCDA_CCD } from './testing/samples';

const unzipDirs = () => readdirSync(tmpdir()).filter((n) => n.startsWith('medfolio-unzip-'));

describe('zip', () => {
  const files = tempFiles();
  afterAll(() => files.cleanup());
  const read = (path: string, limits = {}) =>
    extractDocument({ documentId: 'doc-1', filename: 'records.zip', path }, { ocr: false, limits });

  it('reads each inner file by content, naming it "records.zip › inner", and skips stylesheets quietly', async () => {
    const zip = await zipOf([
      { name: 'IHE_XDM/SUBSET01/DOCUMENT.XML', data: CCDA_CCD },
      {
        name: 'IHE_XDM/SUBSET01/CDA.xsl',
        data: '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"/>',
      },
      { name: 'IHE_XDM/SUBSET01/METADATA.XML', data: '<Metadata><id>1</id></Metadata>' },
      { name: 'letter.pdf', data: await pdfWithText([['Referral to cardiology for palpitations']]) },
      { name: 'notes.docx', data: await docxOf(['Follow-up in six weeks']) },
      { name: 'README.TXT', data: 'Open DOCUMENT.XML with the stylesheet' },
      { name: 'inner.zip', data: await zipOf([{ name: 'a.pdf', data: 'x' }]) },
    ]);
    const before = unzipDirs().length;
    const result = await read(files.write('records.zip', zip));
    expect(result.facts.length).toBeGreaterThan(5);
    expect(result.facts[0].sources[0].filename).toBe('records.zip › IHE_XDM/SUBSET01/DOCUMENT.XML');
    expect(result.documentDate).toBe('2024-03-15');
    expect(result.texts.find((t) => t.filename === 'records.zip › letter.pdf')).toMatchObject({
      page: 1,
      text: 'Referral to cardiology for palpitations',
    });
    expect(result.texts.find((t) => t.filename === 'records.zip › notes.docx')?.text).toBe('Follow-up in six weeks');
    // Only the nested zip is a problem; the stylesheet, metadata XML and readme pass quietly.
    expect(result.problems).toEqual([
      { filename: 'records.zip › inner.zip', reason: 'A zip inside a zip is not opened: upload it on its own.' },
    ]);
    expect(unzipDirs().length).toBe(before);
  });

  it('stops an entry that inflates beyond the ratio limit (a zip bomb) while inflating', async () => {
    const bomb = Buffer.alloc(20 * 1024 * 1024, 0x41); // 20 MiB of "A": about 20 KiB deflated
    const zip = await zipOf([
      { name: 'bomb.xml', data: bomb },
      { name: 'letter.pdf', data: await pdfWithText([['Still read']]) },
    ]);
    const result = await read(files.write('bomb.zip', zip));
    expect(result.problems).toEqual([
      { filename: 'records.zip › bomb.xml', reason: expect.stringContaining('zip bomb') },
    ]);
    expect(result.texts.map((t) => t.text)).toEqual(['Still read']);
  });

  it('stops the whole zip at the total inflated limit', async () => {
    const page = await pdfWithText([['A page of text']]);
    const zip = await zipOf(Array.from({ length: 5 }, (_, i) => ({ name: `p${i}.pdf`, data: page })));
    const limit = Math.round(page.length * 2.5);
    const result = await read(files.write('total.zip', zip), { zipTotalBytes: limit });
    expect(result.texts).toHaveLength(2);
    expect(result.problems).toEqual([
      {
        filename: 'records.zip',
        reason: `This zip expands to more than ${Math.round(limit / 1024)} KB; the rest of it was not read.`,
      },
    ]);
  });

  it('does not trust declared sizes: an entry that inflates past what it declares is stopped', async () => {
    const data = Buffer.alloc(4 * 1024 * 1024, 0x42);
    const zip = await zipOf([{ name: 'liar.xml', data }]);
    // Rewrite the declared uncompressed size (local header offset 22, central directory offset 24) to 100 bytes.
    const lied = Buffer.from(zip);
    for (let i = 0; i < lied.length - 4; i++) {
      if (lied.readUInt32LE(i) === 0x04034b50) lied.writeUInt32LE(100, i + 22);
      if (lied.readUInt32LE(i) === 0x02014b50) lied.writeUInt32LE(100, i + 24);
    }
    const result = await read(files.write('liar.zip', lied));
    expect(result.texts).toEqual([]);
    expect(result.problems).toEqual([{ filename: 'records.zip › liar.xml', reason: expect.any(String) }]);
    expect(deflateRawSync(data).length).toBeLessThan(100_000);
  });

  it('says a damaged zip is damaged', async () => {
    const result = await read(
      files.write('broken.zip', Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.alloc(300, 1)])),
    );
    expect(result.problems).toEqual([
      { filename: 'records.zip', reason: 'This zip file is damaged and could not be read.' },
    ]);
  });
});
