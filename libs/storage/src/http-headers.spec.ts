import { parse } from 'content-disposition';

import { BlobStorageError } from './errors';
import { assertValidContentType, attachmentContentDisposition, safeFilename } from './http-headers';

describe('safeFilename', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\x\\scan.png', 'scan.png'],
    ['..hidden', 'hidden'],
    ['a"b\r\nc.txt', 'a_b__c.txt'],
    ['', 'download'],
    ['...', 'download'],
  ])('turns %j into %j', (input, expected) => {
    expect(safeFilename(input)).toBe(expected);
  });

  it('bounds the length', () => {
    expect(safeFilename(`${'é'.repeat(300)}.pdf`)).toHaveLength(200);
  });
});

describe('attachmentContentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentContentDisposition('Befund März (1).pdf')).toBe(
      `attachment; filename="Befund M_rz (1).pdf"; filename*=UTF-8''Befund%20M%C3%A4rz%20%281%29.pdf`,
    );
  });

  it('cannot be broken out of with quotes or line breaks', () => {
    expect(attachmentContentDisposition('x"; filename="evil.html\r\nSet-Cookie: a=b')).toBe(
      `attachment; filename="x_; filename=_evil.html__Set-Cookie: a=b"`,
    );
  });

  it.each(['report.pdf', 'Befund März (1).pdf', '检查报告 2026.png', 'a%20b.txt'])('reads back as exactly %j', (filename) => {
    const header = parse(attachmentContentDisposition(filename));

    expect(header.type).toBe('attachment');
    // parse() prefers the exact UTF-8 filename* over the ASCII fallback, as browsers do.
    expect(header.parameters['filename']).toBe(filename);
  });
});

describe('assertValidContentType', () => {
  it('accepts ordinary types', () => {
    expect(() => assertValidContentType('application/pdf')).not.toThrow();
    expect(() => assertValidContentType('text/plain; charset=utf-8')).not.toThrow();
  });

  it.each(['', 'text/html\r\nX-Evil: 1', 'x'.repeat(256), 'täxt/plain'])('refuses %j', (value) => {
    expect(() => assertValidContentType(value)).toThrow(BlobStorageError);
  });
});
