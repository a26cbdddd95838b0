import { inflateRawSync } from 'node:zlib';
import { STREAM_BUFFER_BYTES } from '@medfolio/storage';
import { documentFiles as files, refusal } from '@medfolio/testing';
import { classify } from './classify';
import { ContentInspector } from './inspector';
import { inspect, ZIP_LIMITS as limits } from '../testing/inspect';

const MB = 1024 * 1024;

describe('accepted documents (the content agrees with the name)', () => {
  it.each([
    ['scan.pdf', 'pdf', () => files.pdf()],
    ['photo.jpg', 'jpeg', () => files.jpeg()],
    ['photo.JPEG', 'jpeg', () => files.jpeg()],
    ['x-ray.png', 'png', () => files.png()],
    ['letter.doc', 'doc', () => files.compoundFile('WordDocument')],
    ['letter.docx', 'docx', () => files.docx()],
    [
      'results.zip',
      'zip',
      () =>
        files.zip([
          { name: 'a.pdf', data: files.pdf() },
          { name: 'scans/', data: Buffer.alloc(0) },
          { name: 'scans/b.PNG', stored: true, data: Buffer.from('png bytes') },
        ]),
    ],
  ] as const)('%s is %s, and passes through unchanged', async (name, kind, make) => {
    const data = await make();
    for (const piece of [1, 7, 4096, 1 << 20]) {
      const result = await inspect(name, data, { piece });
      expect(result.kind).toBe(kind);
      expect(result.bytes.equals(data)).toBe(true);
    }
  });
});

describe('refused by the name or the first bytes (nothing read further)', () => {
  it.each([
    [
      'setup.exe',
      () => files.exe(),
      '"setup.exe" is not an accepted type. Only PDF, JPG, PNG, Word (.doc, .docx) and zip files, and health records (C-CDA .xml, FHIR .json), are accepted.',
    ],
    [
      'scan.pdf.exe',
      () => files.exe(),
      '"scan.pdf.exe" is not an accepted type. Only PDF, JPG, PNG, Word (.doc, .docx) and zip files, and health records (C-CDA .xml, FHIR .json), are accepted.',
    ],
    [
      'no-extension',
      () => files.pdf(),
      '"no-extension" is not an accepted type. Only PDF, JPG, PNG, Word (.doc, .docx) and zip files, and health records (C-CDA .xml, FHIR .json), are accepted.',
    ],
    ['report.pdf', () => files.exe(), '"report.pdf" is not a PDF: it is a Windows program (.exe).'],
    ['invoice.exe.pdf', () => files.exe(), '"invoice.exe.pdf" is not a PDF: it is a Windows program (.exe).'],
    ['image.pdf', () => files.png(), '"image.pdf" is not a PDF: it is a PNG image.'],
    ['photo.jpg', () => files.png(), '"photo.jpg" is not a JPEG image: it is a PNG image.'],
    ['page.png', () => files.html(), '"page.png" is not a PNG image: it is a web page (HTML).'],
    [
      'photo.jpg.html',
      () => files.html(),
      '"photo.jpg.html" is not an accepted type. Only PDF, JPG, PNG, Word (.doc, .docx) and zip files, and health records (C-CDA .xml, FHIR .json), are accepted.',
    ],
    ['drawing.png', () => files.svg(), '"drawing.png" is not a PNG image: it is an SVG image.'],
    ['letter.doc', () => files.docx(), '"letter.doc" is not a Word document (.doc): it is a zip archive.'],
    [
      'letter.docx',
      () => files.compoundFile('WordDocument'),
      '"letter.docx" is not a Word document (.docx): it is an older Office file (such as .doc, .xls or .ppt).',
    ],
    [
      'notes.pdf',
      () => Buffer.from('just some text, not a document'),
      '"notes.pdf" is not a PDF: it is of an unknown type.',
    ],
    ['empty.pdf', () => Buffer.alloc(0), '"empty.pdf" is empty.'],
  ] as const)('%s', async (name, make, message) => {
    const error = await refusal(classify(name, (await make()).subarray(0, 4100), limits));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message });
  });
});

describe('refused by the rest of the content', () => {
  it.each([
    ['a truncated PDF', 'scan.pdf', () => files.pdf().subarray(0, 300), '"scan.pdf" is damaged or not a complete PDF.'],
    [
      'a truncated JPEG',
      'photo.jpg',
      async () => (await files.jpeg()).subarray(0, 600),
      '"photo.jpg" is not a valid JPEG image: it is damaged or incomplete.',
    ],
    [
      'a PNG with a bad CRC',
      'x.png',
      async () => corrupt(await files.png(), 20),
      '"x.png" is not a valid PNG image: it is damaged or incomplete.',
    ],
    [
      'a truncated PNG',
      'x.png',
      async () => (await files.png()).subarray(0, 60),
      '"x.png" is not a valid PNG image: it is damaged or incomplete.',
    ],
    [
      'a PNG + HTML polyglot (page after IEND)',
      'cat.png',
      () => files.pngWithHtmlAppended(),
      '"cat.png" was refused: it carries data after the end of the image (a disguised file?).',
    ],
    [
      'a PNG with a script in a tEXt chunk',
      'cat.png',
      () => files.pngWithScriptInText(),
      '"cat.png" was refused: its metadata holds web page markup (a disguised web page?).',
    ],
    [
      'a JPEG with a script in a comment',
      'cat.jpg',
      () => files.jpegWithScriptComment(),
      '"cat.jpg" was refused: it hides web page markup (a disguised web page?).',
    ],
    [
      'a JPEG + HTML polyglot',
      'cat.jpg',
      async () => Buffer.concat([await files.jpeg(), files.html()]),
      '"cat.jpg" was refused: it hides web page markup (a disguised web page?).',
    ],
    [
      'an Excel file named .doc',
      'budget.doc',
      () => files.compoundFile('Workbook'),
      '"budget.doc" is not a Word document: it is another kind of Office or Windows file (for example Excel or an installer).',
    ],
    [
      'a zip named .docx',
      'letter.docx',
      () => files.zip([{ name: 'a.pdf', data: files.pdf() }]),
      '"letter.docx" is not a Word document (.docx): it is a zip archive.',
    ],
    [
      'a .docx named .zip',
      'letter.zip',
      () => files.docx(),
      '"letter.zip" is a Word document (.docx), not a zip file.',
    ],
    [
      'a Word document with macros',
      'letter.docx',
      () => files.docx([{ name: 'word/vbaProject.bin', data: Buffer.from('macro') }]),
      '"letter.docx" was refused: it is a Word document with macros, which are not accepted.',
    ],
    [
      'a zip holding a program',
      'scans.zip',
      () =>
        files.zip([
          { name: 'a.pdf', data: files.pdf() },
          { name: 'run.exe', data: files.exe() },
        ]),
      '"scans.zip" was refused: it contains "run.exe", which is not an accepted type (a zip may hold only PDF, JPG, PNG and Word files, health records and their stylesheets).',
    ],
    [
      'a zip holding a zip',
      'scans.zip',
      () => files.zip([{ name: 'inner.zip', data: files.zip([{ name: 'a.pdf', data: files.pdf() }]) }]),
      '"scans.zip" was refused: it contains "inner.zip", which is not an accepted type (a zip may hold only PDF, JPG, PNG and Word files, health records and their stylesheets).',
    ],
    [
      'a zip with a double extension inside',
      'scans.zip',
      () => files.zip([{ name: 'scan.pdf.exe', data: files.exe() }]),
      '"scans.zip" was refused: it contains "scan.pdf.exe", which is not an accepted type (a zip may hold only PDF, JPG, PNG and Word files, health records and their stylesheets).',
    ],
    [
      'a zip with "../" in a name',
      'scans.zip',
      () => files.zip([{ name: '../../etc/cron.d/evil.pdf', data: files.pdf() }]),
      '"scans.zip" was refused: it contains "../../etc/cron.d/evil.pdf", a path outside the archive.',
    ],
    [
      'a zip with a "..\\" name',
      'scans.zip',
      () => files.zip([{ name: 'docs\\..\\..\\evil.pdf', data: files.pdf() }]),
      '"scans.zip" was refused: it contains "docs/../../evil.pdf", a path outside the archive.',
    ],
    [
      'a zip with an absolute name',
      'scans.zip',
      () => files.zip([{ name: '/etc/evil.pdf', data: files.pdf() }]),
      '"scans.zip" was refused: it contains "/etc/evil.pdf", a path outside the archive.',
    ],
    [
      'a zip with a drive letter',
      'scans.zip',
      () => files.zip([{ name: 'C:/Windows/evil.pdf', data: files.pdf() }]),
      '"scans.zip" was refused: it contains "C:/Windows/evil.pdf", a path outside the archive.',
    ],
    [
      'a zip with a symbolic link',
      'scans.zip',
      () => files.zip([{ name: 'link.pdf', data: Buffer.from('/etc/passwd'), stored: true, unixMode: 0o120777 }]),
      '"scans.zip" was refused: it contains "link.pdf", a symbolic link.',
    ],
    [
      'a password-protected zip',
      'scans.zip',
      () => files.zip([{ name: 'a.pdf', data: files.pdf(), encrypted: true }]),
      '"scans.zip" was refused: it is password-protected, so its contents cannot be checked.',
    ],
    ['an empty zip', 'scans.zip', () => files.zip([]), '"scans.zip" is an empty zip file.'],
    [
      'a truncated zip (no central directory)',
      'scans.zip',
      () => files.zip([{ name: 'a.pdf', data: files.pdf() }]).subarray(0, 200),
      '"scans.zip" is damaged or not a complete zip file.',
    ],
    [
      'overlapping entries (a zip bomb without compression)',
      'scans.zip',
      () =>
        files.zip([
          { name: 'a.pdf', data: files.pdf() },
          { name: 'b.pdf', sameOffsetAs: 0 },
          { name: 'c.pdf', sameOffsetAs: 0 },
        ]),
      '"scans.zip" was refused: its entries overlap one another (a zip bomb?).',
    ],
  ] as const)('%s', async (_what, name, make, message) => {
    const error = await refusal(inspect(name, await make()));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', message });
  });

  it('refuses a zip with more entries than allowed', async () => {
    const entries = Array.from({ length: 11 }, (_, i) => ({ name: `scan-${i}.pdf`, data: Buffer.from(`${i}`) }));
    const error = await refusal(inspect('many.zip', files.zip(entries), { zip: { maxEntries: 10 } }));
    expect(error.message).toBe('"many.zip" was refused: it holds 11 entries, more than the 10 allowed.');
  });

  it('refuses a zip whose files would unpack to more than allowed', async () => {
    const entries = [0, 1, 2].map((i) => ({ name: `scan-${i}.pdf`, data: files.bigPdf(400 * 1024) }));
    const error = await refusal(inspect('big.zip', files.zip(entries), { zip: { maxUncompressedBytes: 1024 * 1024 } }));
    expect(error.message).toBe(
      '"big.zip" was refused: its files would take more than 1 MB unpacked, the most allowed.',
    );
  });

  it('refuses a generated zip bomb (1 GiB of zeros in about 1 MiB) from its directory alone, quickly', async () => {
    const bomb = files.zip([{ name: 'a.pdf', data: files.pdf() }, files.zerosBombEntry('zeros.pdf', 1)]);
    expect(bomb.length).toBeLessThan(2 * MB);
    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const started = Date.now();

    const error = await refusal(inspect('bomb.zip', bomb, { piece: 64 * 1024 }));

    expect(error.message).toMatch(
      /^"bomb\.zip" was refused: "zeros\.pdf" is compressed \d+ to 1, more than the 100 to 1 allowed \(a zip bomb\?\)\.$/,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    const grown = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heapBefore;
    expect(grown).toBeLessThan(64 * MB);
  });

  it('the generated bomb is a real one: its data inflates to zeros (checked on a small one)', () => {
    const entry = files.zerosBombEntry('z', 1);
    const firstMegabytes = Buffer.concat([
      entry.raw!.compressed.subarray(0, entry.raw!.compressed.length / 512),
      Buffer.from([0x03, 0x00]),
    ]);
    const inflated = inflateRawSync(firstMegabytes);
    expect(inflated.length).toBe(2 * MB);
    expect(inflated.every((byte) => byte === 0)).toBe(true);
  });

  it('refuses a file above the size limit as soon as it goes past it', async () => {
    const error = await refusal(inspect('big.pdf', files.bigPdf(3 * MB), { maxBytes: 2 * MB }));
    expect(error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: '"big.pdf" is larger than 2 MB, the most a file may be.',
    });
    await expect(inspect('fits.pdf', files.bigPdf(2 * MB), { maxBytes: 2 * MB })).resolves.toMatchObject({
      kind: 'pdf',
    });
  });
});

describe('the inspector as a stage of the upload', () => {
  it('holds up to STREAM_BUFFER_BYTES before asking the parser to wait (stages overlap, not one network chunk each)', async () => {
    const { check } = await classify('a.pdf', files.bigPdf(MB).subarray(0, 4100), limits);
    const inspector = new ContentInspector('a.pdf', check, 100 * MB);
    expect(inspector.writableHighWaterMark).toBe(STREAM_BUFFER_BYTES);
    expect(inspector.readableHighWaterMark).toBe(STREAM_BUFFER_BYTES);
  });
});

function corrupt(data: Buffer, at: number): Buffer {
  const copy = Buffer.from(data);
  copy[at] = copy[at]! ^ 0xff;
  return copy;
}
