import { createHash } from 'node:crypto';
import { request } from 'node:http';
import type { DocumentListItem, UploadReply } from '@medfolio/contracts';
import { DocumentsService } from './services/documents.service';
import { UPLOAD_MESSAGES } from './services/upload.service';
import { caller, DocumentsHarness, newUserId, type UploadFile } from './testing/documents-harness';
import { documentFiles as files } from '@medfolio/testing';

/**
 * Uploads through the internal endpoint, as the gateway streams them, on real PostgreSQL, a real
 * S3 server (versitygw) and real NATS JetStream. Every refusal is checked twice: the message, and
 * that nothing at all was kept (no object, no open multipart upload, no row, no event).
 */
const h = new DocumentsHarness({
  storage: 's3',
  bus: 'jetstream',
  env: { DOCUMENT_MAX_FILE_BYTES: String(8 * 1024 * 1024), DOCUMENT_QUOTA_FREE: '100' },
});
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

beforeAll(() => h.start(), 60_000);
afterAll(() => h.stop());

async function expectNothingKept(): Promise<void> {
  expect(await h.storedObjects()).toEqual([]);
  expect(await h.sql(`SELECT id FROM documents.documents`)).toEqual([]);
  expect(await h.sql(`SELECT storage_key FROM documents.unfinished_uploads`)).toEqual([]);
  expect(await h.sql(`SELECT id FROM documents.outbox`)).toEqual([]);
}

describe('the attack corpus: each refused with its message, and nothing kept', () => {
  afterEach(async () => {
    await expectNothingKept();
  });

  it.each([
    [
      'a program named .pdf',
      () => ({ name: 'report.pdf', data: files.exe(), type: 'application/pdf' }),
      415,
      '"report.pdf" is not a PDF: it is a Windows program (.exe).',
    ],
    [
      'a PNG named .pdf',
      async () => ({ name: 'scan.pdf', data: await files.png() }),
      415,
      '"scan.pdf" is not a PDF: it is a PNG image.',
    ],
    [
      'a double extension (.pdf.exe)',
      () => ({ name: 'results.pdf.exe', data: files.exe() }),
      415,
      '"results.pdf.exe" is not an accepted type. Only PDF, JPG, PNG, Word (.doc, .docx) and zip files, and health records (C-CDA .xml, FHIR .json), are accepted.',
    ],
    [
      'a double extension (.exe.pdf)',
      () => ({ name: 'results.exe.pdf', data: files.exe() }),
      415,
      '"results.exe.pdf" is not a PDF: it is a Windows program (.exe).',
    ],
    [
      'a web page named .jpg',
      () => ({ name: 'selfie.jpg', data: files.html(), type: 'image/jpeg' }),
      415,
      '"selfie.jpg" is not a JPEG image: it is a web page (HTML).',
    ],
    [
      'a PNG + HTML polyglot',
      async () => ({ name: 'cat.png', data: await files.pngWithHtmlAppended() }),
      415,
      '"cat.png" was refused: it carries data after the end of the image (a disguised file?).',
    ],
    [
      'a PNG hiding a script in its metadata',
      async () => ({ name: 'cat.png', data: await files.pngWithScriptInText() }),
      415,
      '"cat.png" was refused: its metadata holds web page markup (a disguised web page?).',
    ],
    [
      'a zip with "../" names',
      () => ({ name: 'scans.zip', data: files.zip([{ name: '../../../etc/passwd.pdf', data: files.pdf() }]) }),
      415,
      '"scans.zip" was refused: it contains "../../../etc/passwd.pdf", a path outside the archive.',
    ],
    [
      'a zip with an absolute name',
      () => ({ name: 'scans.zip', data: files.zip([{ name: '/var/www/shell.pdf', data: files.pdf() }]) }),
      415,
      '"scans.zip" was refused: it contains "/var/www/shell.pdf", a path outside the archive.',
    ],
    [
      'a zip holding a program',
      () => ({
        name: 'scans.zip',
        data: files.zip([
          { name: 'scan.pdf', data: files.pdf() },
          { name: 'update.exe', data: files.exe() },
        ]),
      }),
      415,
      '"scans.zip" was refused: it contains "update.exe", which is not an accepted type (a zip may hold only PDF, JPG, PNG and Word files, health records and their stylesheets).',
    ],
    [
      'a zip bomb',
      () => ({ name: 'bomb.zip', data: files.zip([files.zerosBombEntry('zeros.pdf', 1)]) }),
      415,
      /^"bomb\.zip" was refused: "zeros\.pdf" is compressed \d+ to 1, more than the 100 to 1 allowed \(a zip bomb\?\)\.$/,
    ],
    [
      'an oversized file (8 MB allowed)',
      () => ({ name: 'huge.pdf', data: files.bigPdf(9 * 1024 * 1024) }),
      413,
      '"huge.pdf" is larger than 8 MB, the most a file may be.',
    ],
    ['an empty file', () => ({ name: 'empty.pdf', data: Buffer.alloc(0) }), 415, '"empty.pdf" is empty.'],
    [
      'an XXE record',
      () => ({ name: 'ccd.xml', data: files.xxe(), type: 'text/xml' }),
      415,
      '"ccd.xml" is not a health record: it declares a document type (DTD), which is not accepted for safety.',
    ],
    [
      'a billion-laughs record',
      () => ({ name: 'ccd.xml', data: files.billionLaughs() }),
      415,
      '"ccd.xml" is not a health record: it declares a document type (DTD), which is not accepted for safety.',
    ],
    [
      'a .json that is not FHIR',
      () => ({ name: 'export.json', data: Buffer.from('{"patient": "someone"}'), type: 'application/json' }),
      415,
      '"export.json" is not a health record: it is not a C-CDA document or a FHIR resource.',
    ],
    [
      'a large C-CDA cut off after its first 64 KiB',
      () => ({ name: 'ccd.xml', data: files.ccda(2000).subarray(0, 120_000) }),
      415,
      '"ccd.xml" is damaged or not a complete health record (C-CDA).',
    ],
  ] as const)('%s', async (_what, make, status, message) => {
    const answer = await h.upload(newUserId(), [await make()]);
    expect(answer.status).toBe(status);
    expect((answer.body as { message: string }).message).toEqual(
      typeof message === 'string' ? message : expect.stringMatching(message),
    );
  });

  it('refuses the whole batch when its last file is bad, removing the good ones already stored', async () => {
    const answer = await h.upload(newUserId(), [
      { name: 'one.pdf', data: files.pdf() },
      { name: 'two.png', data: await files.png() },
      { name: 'three.pdf', data: files.bigPdf(6 * 1024 * 1024) },
      { name: 'evil.pdf', data: files.exe() },
    ]);
    expect(answer).toEqual({
      status: 415,
      body: { message: '"evil.pdf" is not a PDF: it is a Windows program (.exe).', code: 'UNSUPPORTED_MEDIA_TYPE' },
    });
  });

  it('refuses more files than allowed in one request', async () => {
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `scan-${i}.pdf`, data: files.pdf() }));
    const answer = await h.upload(newUserId(), many);
    expect(answer).toEqual({
      status: 413,
      body: { message: 'Too many files: at most 20 can be uploaded at once.', code: 'PAYLOAD_TOO_LARGE' },
    });
  });

  it('refuses a request without files, and files in another field', async () => {
    expect(await h.upload(newUserId(), [])).toMatchObject({ status: 400, body: { message: UPLOAD_MESSAGES.noFiles } });
    expect(await h.upload(newUserId(), [{ name: 'a.pdf', data: files.pdf(), field: 'document' }])).toMatchObject({
      status: 400,
      body: { message: UPLOAD_MESSAGES.wrongField },
    });
  });

  it('refuses a caller without the internal token, and a request without a user', async () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(files.pdf())]), 'a.pdf');
    const forged = await fetch(`${h.url}/internal/documents`, {
      method: 'POST',
      body: form,
      headers: { 'x-internal-token': 'x'.repeat(43) },
    });
    expect(forged.status).toBe(403);
    expect((await h.upload(undefined, [{ name: 'a.pdf', data: files.pdf() }])).status).toBe(401);
  });

  it('keeps nothing of an upload whose connection breaks off in the middle of a file', async () => {
    const boundary = 'x-boundary-x';
    const part = (name: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      );
    const req = request(`${h.url}/internal/documents`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(64 * 1024 * 1024),
        ...h.internalHeaders(newUserId()),
      },
    });
    const ended = new Promise<void>((resolve) => {
      req.on('error', () => resolve());
      req.on('response', (res) => res.resume().on('end', resolve));
    });
    req.write(
      Buffer.concat([
        part('one.pdf'),
        files.pdf(),
        Buffer.from('\r\n'),
        part('two.pdf'),
        files.bigPdf(7 * 1024 * 1024).subarray(0, 6 * 1024 * 1024),
      ]),
    );
    // The first file is stored and the second is being written (a multipart upload on S3) when the connection breaks.
    await h.eventually('both files under way', async () =>
      (await h.sql(`SELECT storage_key FROM documents.unfinished_uploads`)).length === 2 ? true : undefined,
    );
    await h.eventually('the first file stored', async () => ((await h.storedObjects()).length >= 1 ? true : undefined));
    req.destroy();
    await ended;

    await h.eventually('the clean-up', async () =>
      (await h.sql(`SELECT storage_key FROM documents.unfinished_uploads`)).length === 0 &&
      (await h.storedObjects()).length === 0
        ? true
        : undefined,
    );
  });
});

describe('a batch of good files', () => {
  afterEach(async () => {
    await h.sql(`DELETE FROM documents.documents`);
    await h.sql(`DELETE FROM documents.outbox`);
    await h.emptyStorage();
  });

  it('stores every file under a server-made key, with its SHA-256, and answers with links', async () => {
    const owner = newUserId();
    const batch: UploadFile[] = [
      { name: 'Blood test.pdf', data: files.pdf(), type: 'text/html' },
      { name: 'x-ray.png', data: await files.png() },
      { name: 'photo.JPG', data: await files.jpeg() },
      { name: 'letter.docx', data: files.docx() },
      { name: 'old letter.doc', data: files.compoundFile() },
      {
        name: 'scans.zip',
        data: files.zip([
          { name: 'a.pdf', data: files.pdf() },
          { name: 'b.jpg', data: await files.jpeg() },
        ]),
      },
    ];

    const answer = await h.upload(owner, batch);

    expect(answer.status).toBe(201);
    const reply = answer.body as UploadReply;
    expect(reply.message).toBe('6 files uploaded successfully.');
    expect(reply.image_urls).toHaveLength(6);
    expect(reply.image_url).toBe(reply.image_urls[0]);
    const rows = await h.sql<{
      id: string;
      owner_id: string;
      filename: string;
      kind: string;
      content_type: string;
      size: string;
      sha256: string;
      storage_key: string;
    }>(`SELECT id, owner_id, filename, kind, content_type, size, sha256, storage_key FROM documents.documents`);
    const byName = new Map(rows.map((r) => [r.filename, r]));
    expect([...byName.keys()].sort()).toEqual([
      'Blood test.pdf',
      'letter.docx',
      'old letter.doc',
      'photo.JPG',
      'scans.zip',
      'x-ray.png',
    ]);
    expect(byName.get('Blood test.pdf')).toMatchObject({
      owner_id: owner,
      kind: 'pdf',
      content_type: 'application/pdf',
      size: String(batch[0]!.data.length),
      sha256: sha256(batch[0]!.data),
    });
    expect(byName.get('photo.JPG')).toMatchObject({ kind: 'jpeg', content_type: 'image/jpeg' });
    expect(byName.get('letter.docx')).toMatchObject({
      kind: 'docx',
      content_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    expect(byName.get('old letter.doc')).toMatchObject({ kind: 'doc', content_type: 'application/msword' });
    expect(byName.get('scans.zip')).toMatchObject({ kind: 'zip', content_type: 'application/zip' });
    for (const row of rows) expect(row.storage_key).toBe(`documents/${owner}/${row.id}`);
    expect((await h.storedObjects()).filter((k) => k.startsWith('documents/')).sort()).toEqual(
      rows.map((r) => r.storage_key).sort(),
    );

    // The links download the very bytes that were sent, as attachments.
    const pdfLink = reply.image_urls[reply.documents.findIndex((d) => d.filename === 'Blood test.pdf')]!;
    const download = await fetch(pdfLink);
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(batch[0]!.data));
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="Blood test.pdf"');
    expect(download.headers.get('content-type')).toBe('application/pdf');
  });

  it('publishes documents.document.uploaded.v1 through the outbox, without the filename', async () => {
    const owner = newUserId();
    const data = files.pdf();
    const answer = await h.upload(owner, [{ name: 'hiv-test-result.pdf', data }]);
    const [document] = (answer.body as UploadReply).documents;

    const [row] = await h.eventually('the published outbox row', async () => {
      const published = await h.sql<{ subject: string; payload: Record<string, unknown> }>(
        `SELECT subject, payload FROM documents.outbox WHERE published_at IS NOT NULL`,
      );
      return published.length === 1 ? published : undefined;
    });
    expect(row).toEqual({
      subject: 'documents.document.uploaded.v1',
      payload: {
        document_id: document!.id,
        owner_id: owner,
        kind: 'pdf',
        content_type: 'application/pdf',
        size: data.length,
        sha256: sha256(data),
        storage_key: `documents/${owner}/${document!.id}`,
        uploaded_at: document!.uploaded_at,
      },
    });
    expect(JSON.stringify(row!.payload)).not.toContain('hiv');
  });

  it('makes a WebP thumbnail of images (from the event) and lists it with a short-lived link', async () => {
    const owner = newUserId();
    await h.upload(owner, [
      { name: 'x-ray.png', data: await files.png(1200, 900) },
      { name: 'scan.pdf', data: files.pdf() },
    ]);
    const service = h.get(DocumentsService);

    const list = await h.eventually('the thumbnail', async () => {
      const items = await service.list(caller(owner));
      return items.find((d) => d.filename === 'x-ray.png')?.url ? items : undefined;
    });

    const png = list.find((d) => d.filename === 'x-ray.png')!;
    const thumbnail = await fetch(png.url!);
    expect(thumbnail.status).toBe(200);
    const sharp = (await import('sharp')).default;
    const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 192 });
    expect(list.find((d) => d.filename === 'scan.pdf')!.url).toBeNull();
    expect(new URL(png.url!).searchParams.get('X-Amz-Expires')).toBe('900');
  });

  it('stores health records (a C-CDA, a FHIR Bundle, a portal export zip) and serves them as attachments only', async () => {
    const owner = newUserId();
    const batch: UploadFile[] = [
      { name: 'ccd.xml', data: files.ccda(2000), type: 'text/xml' },
      { name: 'ips.json', data: files.fhirBundle(), type: 'application/json' },
      {
        name: 'my-record.zip',
        data: files.zip([
          { name: 'ccd.xml', data: files.ccda() },
          { name: 'CDA.xsl', data: Buffer.from('<xsl:stylesheet version="1.0"/>') },
          { name: 'readme.html', data: files.html() },
        ]),
      },
    ];

    const answer = await h.upload(owner, batch);

    expect(answer.status).toBe(201);
    const rows = await h.sql<{ filename: string; kind: string; content_type: string; sha256: string }>(
      'SELECT filename, kind, content_type, sha256 FROM documents.documents WHERE owner_id = $1 ORDER BY filename',
      [owner],
    );
    expect(rows).toEqual([
      { filename: 'ccd.xml', kind: 'xml', content_type: 'application/xml', sha256: sha256(batch[0]!.data) },
      { filename: 'ips.json', kind: 'json', content_type: 'application/fhir+json', sha256: sha256(batch[1]!.data) },
      { filename: 'my-record.zip', kind: 'zip', content_type: 'application/zip', sha256: sha256(batch[2]!.data) },
    ]);
    const [xmlLink] = (answer.body as UploadReply).image_urls;
    const download = await fetch(xmlLink!);
    expect(download.status).toBe(200);
    expect(sha256(Buffer.from(await download.arrayBuffer()))).toBe(sha256(batch[0]!.data));
    expect(download.headers.get('content-disposition')).toBe('attachment; filename=ccd.xml');
    expect(download.headers.get('content-type')).toBe('application/xml');
  });

  it('keeps the display name safe: no directories, control or bidi characters; never the storage key', async () => {
    const owner = newUserId();
    const answer = await h.upload(owner, [{ name: 'C:\\Users\\ana\\invoice\u202Efdp.pdf', data: files.pdf() }]);
    expect(answer.status).toBe(201);
    const [item] = (answer.body as UploadReply).documents as DocumentListItem[];
    expect(item!.filename).toBe('invoicefdp.pdf');
  });
});
