import { displayName, extensionOf, MAX_FILENAME_LENGTH } from './filename';

describe('displayName', () => {
  it.each([
    ['Blood test.pdf', 'Blood test.pdf'],
    ['C:\\Users\\ana\\Desktop\\scan.pdf', 'scan.pdf'],
    ['../../etc/passwd.pdf', 'passwd.pdf'],
    ['/absolute/path/x-ray.png', 'x-ray.png'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['zero\u200Bwidth\u2066isolate\u2069.pdf', 'zerowidthisolate.pdf'],
    ['tab\tand\nnewline\r.pdf', 'tab and newline .pdf'],
    ['   .hidden.pdf', 'hidden.pdf'],
    ['report.pdf. . .', 'report.pdf'],
    ['Bericht Müller.pdf'.normalize('NFD'), 'Bericht Müller.pdf'.normalize('NFC')],
    ['', 'document'],
    ['....', 'document'],
    ['\u0000\u0001', 'document'],
  ])('%j shows as %j', (raw, shown) => {
    expect(displayName(raw)).toBe(shown);
  });

  it('shortens a long name to the limit and keeps its extension', () => {
    const shown = displayName(`${'a'.repeat(500)}.docx`);
    expect([...shown]).toHaveLength(MAX_FILENAME_LENGTH);
    expect(shown.endsWith('.docx')).toBe(true);
    expect([...displayName('é'.repeat(300))]).toHaveLength(MAX_FILENAME_LENGTH);
  });
});

describe('extensionOf', () => {
  it.each([
    ['scan.PDF', 'pdf'],
    ['scan.pdf.exe', 'exe'],
    ['archive.tar.gz', 'gz'],
    ['no-extension', ''],
    ['trailing.', ''],
  ])('%s → %j', (name, extension) => {
    expect(extensionOf(name)).toBe(extension);
  });
});
