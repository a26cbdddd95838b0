import {
  awaitingThumbnail,
  ACCEPT_ATTRIBUTE,
  acceptBatch,
  apportionProgress,
  extensionOf,
  fileTypeLabel,
  filterDocuments,
  formatMB,
  isAccepted,
  kindOf,
} from './files';

const file = (name: string, size = 1) => new File([new Uint8Array(size)], name);

describe('the file selection rule (spec section 5)', () => {
  it.each(['a.pdf', 'b.jpg', 'c.png', 'd.doc', 'e.zip', 'f.docx', 'UPPER.PDF', 'Mixed.DocX', 'two.dots.in.name.png'])('accepts %s', (name) => {
    expect(isAccepted(name)).toBe(true);
  });

  it.each(['photo.jpeg', 'notes.txt', 'app.exe', 'archive.tar.gz', 'noextension', 'trailingdot.', 'report.pdf.exe', '.pdf'])('refuses %s', (name) => {
    expect(isAccepted(name)).toBe(false);
  });

  it('takes a good batch whole', () => {
    const batch = [file('a.pdf'), file('b.PNG')];
    expect(acceptBatch(batch)).toEqual({ accepted: batch, valid: true });
  });

  it('refuses the whole batch when one file has another extension', () => {
    expect(acceptBatch([file('a.pdf'), file('b.gif'), file('c.docx')])).toEqual({ accepted: [], valid: false });
  });

  it('gives the picker exactly the six extensions', () => {
    expect(ACCEPT_ATTRIBUTE).toBe('.pdf,.jpg,.png,.doc,.zip,.docx,.xml,.json');
  });

  it.each(['ccd.xml', 'CCD.XML', 'ips-bundle.json', 'Record.Json'])('accepts the health record %s', (name) => {
    expect(isAccepted(name)).toBe(true);
  });

  it.each(['stylesheet.xsl', 'record.xslt', 'readme.html', 'data.jsonl', 'ccd.xml.exe'])('refuses %s, a companion or a disguise', (name) => {
    expect(isAccepted(name)).toBe(false);
  });

  it('keeps a batch of a record and a PDF, and refuses one with a stylesheet beside them', () => {
    const batch = [file('ccd.xml'), file('ips.json'), file('a.pdf')];
    expect(acceptBatch(batch)).toEqual({ accepted: batch, valid: true });
    expect(acceptBatch([...batch, file('cda.xsl')])).toEqual({ accepted: [], valid: false });
  });

  it('shows a record as a download, never a preview, and labels it by its content type', () => {
    expect(kindOf({ filename: 'ccd.xml', content_type: 'application/xml' })).toBe('other');
    expect(kindOf({ filename: 'ips.json', content_type: 'application/fhir+json' })).toBe('other');
    expect(fileTypeLabel({ filename: 'record', content_type: 'application/fhir+json' })).toBe('.json');
  });

  it('reads the extension in lower case', () => {
    expect(extensionOf('Scan.JPG')).toBe('jpg');
    expect(extensionOf('none')).toBe('');
  });
});

describe('sizes in MB (bytes / 1048576, two decimals)', () => {
  it.each([
    [0, '0.00 MB'],
    [1, '0.00 MB'],
    [5242, '0.00 MB'],
    [5243, '0.01 MB'],
    [1048576, '1.00 MB'],
    [1572864, '1.50 MB'],
    [104857600, '100.00 MB'],
    [123456789, '117.74 MB'],
  ])('%i bytes is %s', (bytes, text) => {
    expect(formatMB(bytes)).toBe(text);
  });
});

describe('file type labels and kinds', () => {
  it.each([
    ['Blood test.pdf', 'application/pdf', '.pdf', 'pdf'],
    ['scan.JPG', 'image/jpeg', '.jpg', 'image'],
    ['old.jpeg', 'image/jpeg', '.jpeg', 'image'],
    ['x-ray.png', 'image/png', '.png', 'image'],
    ['letter.doc', 'application/msword', '.doc', 'word'],
    ['letter.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', '.docx', 'word'],
    ['records.zip', 'application/zip', '.zip', 'other'],
    ['no extension', 'application/pdf', '.pdf', 'pdf'],
  ] as const)('%s (%s) is labelled %s, kind %s', (filename, content_type, label, kind) => {
    expect(fileTypeLabel({ filename, content_type })).toBe(label);
    expect(kindOf({ filename, content_type })).toBe(kind);
  });
});

describe('search', () => {
  const docs = [{ filename: 'Blood Test March.pdf' }, { filename: 'x-ray.png' }, { filename: 'BLOODWORK.docx' }];

  it('matches a case-insensitive substring of the file name', () => {
    expect(filterDocuments(docs, 'blood').map((d) => d.filename)).toEqual(['Blood Test March.pdf', 'BLOODWORK.docx']);
    expect(filterDocuments(docs, 'RAY').map((d) => d.filename)).toEqual(['x-ray.png']);
    expect(filterDocuments(docs, 'test m').map((d) => d.filename)).toEqual(['Blood Test March.pdf']);
  });

  it('keeps everything for an empty query and nothing for no match', () => {
    expect(filterDocuments(docs, '')).toHaveLength(3);
    expect(filterDocuments(docs, '   ')).toHaveLength(3);
    expect(filterDocuments(docs, 'invoice')).toEqual([]);
  });
});

describe('per-file progress from the one byte count of the body', () => {
  it('fills the files in order', () => {
    // Two files of 100 and 300 bytes in a 440-byte body (40 bytes of part headers).
    expect(apportionProgress([100, 300], 0, 440)).toEqual([0, 0]);
    expect(apportionProgress([100, 300], 55, 440)).toEqual([50, 0]);
    expect(apportionProgress([100, 300], 110, 440)).toEqual([100, 0]);
    expect(apportionProgress([100, 300], 275, 440)).toEqual([100, 50]);
    expect(apportionProgress([100, 300], 440, 440)).toEqual([100, 100]);
  });

  it('never goes past 100 or below 0, and an empty file is done once reached', () => {
    expect(apportionProgress([10, 0, 10], 999, 40)).toEqual([100, 100, 100]);
    expect(apportionProgress([10, 0, 10], 20, 40)).toEqual([100, 100, 0]);
    expect(apportionProgress([10], -5, 40)).toEqual([0]);
    expect(apportionProgress([10, 10], 5, 0)).toEqual([0, 0]);
  });
});

describe('waiting for a new image\'s thumbnail', () => {
  const now = Date.parse('2026-05-02T15:00:20.000Z');
  const image = { filename: 'knee.jpg', content_type: 'image/jpeg' as const, url: null, uploaded_at: '2026-05-02T15:00:00.000Z' };

  it('waits while an image uploaded within the last half minute has no thumbnail', () => {
    expect(awaitingThumbnail([image], now)).toBe(true);
  });

  it('does not wait once it has one, for other types, or for an image uploaded long ago', () => {
    expect(awaitingThumbnail([{ ...image, url: 'https://localhost/t.webp' }], now)).toBe(false);
    expect(awaitingThumbnail([{ ...image, filename: 'a.pdf', content_type: 'application/pdf' as const }], now)).toBe(false);
    expect(awaitingThumbnail([{ ...image, uploaded_at: '2026-05-02T14:59:40.000Z' }], now)).toBe(false);
    expect(awaitingThumbnail([], now)).toBe(false);
  });

  it('allows for a browser clock behind the server, by as long', () => {
    expect(awaitingThumbnail([{ ...image, uploaded_at: '2026-05-02T15:00:45.000Z' }], now)).toBe(true);
    expect(awaitingThumbnail([{ ...image, uploaded_at: '2026-05-02T15:01:00.000Z' }], now)).toBe(false);
  });
});
