import { createHash } from 'node:crypto';
import type { DocumentListItem, DownloadLinkReply, HistoryPage, UploadReply } from '@medfolio/contracts';
import { documentFiles } from '@medfolio/testing';
import { call, type Reply } from './journey';
import { waitFor } from './processes';

export interface DocumentFile {
  name: string;
  data: Buffer;
  /** What the "browser" declares; the server must not care. */
  type?: string;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

function expectStatus(reply: { status: number; body: unknown }, status: number, what: string): void {
  if (reply.status !== status)
    throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
}

function check(condition: boolean, what: string, detail?: unknown): void {
  if (!condition) throw new Error(`${what}${detail === undefined ? '' : `: ${JSON.stringify(detail)}`}`);
}

/** POST /api/upload/ as the web app sends it: multipart, one `files` field per file. */
export async function uploadFiles(
  base: string,
  token: string,
  files: DocumentFile[],
): Promise<Reply<UploadReply & { message: string; code?: string }>> {
  const form = new FormData();
  for (const file of files)
    form.append(
      'files',
      new Blob([new Uint8Array(file.data)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  const response = await fetch(`${base}/api/upload/`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  return {
    status: response.status,
    body: (await response.json()) as UploadReply & { message: string; code?: string },
    headers: response.headers,
  };
}

/**
 * The documents feature over HTTP, as the dashboard uses it, for two users: upload several files,
 * list them (thumbnails for images appear shortly after), get a download link and fetch it,
 * every route with the other user's ids (404 each time), a disguised file refused, the plan quota,
 * delete (gone at once, the file purged after), and all of it in the access history.
 * The product must run with DOCUMENT_QUOTA_FREE=5.
 */
export async function documentsJourney(base: string, alice: string, bob: string): Promise<void> {
  const sharp = (await import('sharp')).default;
  const aliceFiles: DocumentFile[] = [
    { name: 'Blood test.pdf', data: documentFiles.pdf('haemoglobin 14.1'), type: 'application/pdf' },
    {
      name: 'x-ray.png',
      data: await sharp({ create: { width: 800, height: 600, channels: 3, background: '#555555' } })
        .png()
        .toBuffer(),
    },
    {
      name: 'rash.jpg',
      data: await sharp({ create: { width: 640, height: 480, channels: 3, background: '#aa3333' } })
        .jpeg()
        .toBuffer(),
      type: 'image/jpeg',
    },
    { name: 'scans.zip', data: documentFiles.zip([{ name: 'scan.pdf', data: documentFiles.pdf('scan') }]) },
  ];

  // Upload several at once.
  const uploaded = await uploadFiles(base, alice, aliceFiles);
  expectStatus(uploaded, 201, 'upload of four files');
  check(
    uploaded.body.message === '4 files uploaded successfully.' && uploaded.body.image_urls.length === 4,
    'upload reply',
    uploaded.body,
  );
  const bobUpload = await uploadFiles(base, bob, [{ name: 'bob.pdf', data: documentFiles.pdf('bob') }]);
  expectStatus(bobUpload, 201, "bob's upload");
  const [bobDocument] = bobUpload.body.documents;
  if (!bobDocument) throw new Error("bob's upload reply lists no document");

  // List: Alice's four, newest first, images get a thumbnail.
  const list = await waitFor('the thumbnails', async () => {
    const reply = await call<DocumentListItem[]>(base, 'GET', '/api/upload/', undefined, alice);
    const images = reply.body.filter((d) => d.content_type.startsWith('image/'));
    return images.length === 2 && images.every((d) => d.url) ? reply.body : undefined;
  });
  check(list.length === 4, 'list length', list);
  check(
    JSON.stringify(list.map((d) => [d.filename, d.content_type]).sort()) ===
      JSON.stringify([
        ['Blood test.pdf', 'application/pdf'],
        ['rash.jpg', 'image/jpeg'],
        ['scans.zip', 'application/zip'],
        ['x-ray.png', 'image/png'],
      ]),
    'listed names and types',
    list,
  );
  const named = (filename: string): DocumentListItem => {
    const found = list.find((d) => d.filename === filename);
    if (!found) throw new Error(`${filename} is not listed`);
    return found;
  };
  check(named('Blood test.pdf').url === null, 'no thumbnail for a PDF');
  check(String(named('x-ray.png').url).startsWith('/api/files/'), 'a same-origin thumbnail URL', named('x-ray.png').url);
  const thumbnail = await fetch(new URL(String(named('x-ray.png').url), base));
  const thumbMeta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
  check(thumbnail.status === 200 && thumbMeta.format === 'webp' && thumbMeta.width === 256, 'thumbnail', {
    status: thumbnail.status,
    thumbMeta,
  });

  // Download link, then the file itself: the same bytes, as an attachment, never sniffed.
  const pdfDocument = named('Blood test.pdf');
  const link = await call<DownloadLinkReply>(
    base,
    'GET',
    `/api/get-document-download-link/${pdfDocument.id}/`,
    undefined,
    alice,
  );
  expectStatus(link, 200, 'download link');
  // Served by the gateway from the app's own origin (whatever the store), so the strict CSP allows previews.
  check(link.body.download_url.startsWith('/api/files/'), 'a same-origin download link', link.body.download_url);
  const download = await fetch(new URL(link.body.download_url, base));
  const bytes = Buffer.from(await download.arrayBuffer());
  check(download.status === 200 && sha256(bytes) === sha256(documentFiles.pdf('haemoglobin 14.1')), 'downloaded bytes', {
    status: download.status,
  });
  check(
    // A plain ASCII name needs no filename* (RFC 6266); the header comes from content-disposition.
    download.headers.get('content-disposition') === 'attachment; filename="Blood test.pdf"',
    'content-disposition',
    download.headers.get('content-disposition'),
  );
  check(
    download.headers.get('x-content-type-options') === 'nosniff' &&
      download.headers.get('content-type') === 'application/pdf',
    'download headers',
  );

  // Every route with the other user's document: 404, as for a document that does not exist.
  const matrix: string[] = [];
  for (const [who, token, otherId] of [
    ['alice', alice, bobDocument.id],
    ['bob', bob, pdfDocument.id],
  ] as const) {
    const linkReply = await call<{ message: string }>(
      base,
      'GET',
      `/api/get-document-download-link/${otherId}/`,
      undefined,
      token,
    );
    const deleteReply = await call<{ message: string }>(
      base,
      'DELETE',
      '/api/upload/',
      { document_id: otherId },
      token,
    );
    const listed = await call<DocumentListItem[]>(base, 'GET', '/api/upload/', undefined, token);
    matrix.push(
      `${who}: link ${linkReply.status} ${linkReply.body.message}; delete ${deleteReply.status} ${deleteReply.body.message}; list sees other ${listed.body.some((d) => d.id === otherId)}`,
    );
  }
  const expected = [
    'alice: link 404 Document not found.; delete 404 Document not found.; list sees other false',
    'bob: link 404 Document not found.; delete 404 Document not found.; list sees other false',
  ];
  check(JSON.stringify(matrix) === JSON.stringify(expected), 'the 404 matrix', matrix);
  expectStatus(
    await call(base, 'GET', `/api/get-document-download-link/${bobDocument.id}/`, undefined, bob),
    200,
    "bob's own link still works",
  );
  expectStatus(
    await call(base, 'GET', '/api/get-document-download-link/not-a-document/', undefined, alice),
    404,
    'a malformed id',
  );
  expectStatus(await call(base, 'GET', '/api/upload/'), 401, 'the list without a token');

  // A disguised file is refused, naming it, and nothing is added.
  const disguised = await uploadFiles(base, alice, [
    { name: 'invoice.pdf', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)]), type: 'application/pdf' },
  ]);
  check(
    disguised.status === 415 &&
      disguised.body.message === '"invoice.pdf" is not a PDF: it is a Windows program (.exe).',
    'disguised program',
    disguised.body,
  );

  // The quota (Free = 5 here): one more fits, the next is refused with the plan that allows more.
  expectStatus(
    await uploadFiles(base, alice, [{ name: 'fifth.pdf', data: documentFiles.pdf('5') }]),
    201,
    'the fifth document',
  );
  const over = await uploadFiles(base, alice, [{ name: 'sixth.pdf', data: documentFiles.pdf('6') }]);
  check(
    over.status === 402 &&
      over.body.message ===
        'Your Free plan allows 5 documents and you have 5 documents stored, so this file cannot be added. The Standard plan allows 12 documents: see /membership.',
    'quota',
    over.body,
  );

  // Delete: gone from the list at once; the old link stops working once the purge has run.
  const deleted = await call<{ message: string }>(
    base,
    'DELETE',
    '/api/upload/',
    { document_id: pdfDocument.id },
    alice,
  );
  expectStatus(deleted, 200, 'delete');
  const after = await call<DocumentListItem[]>(base, 'GET', '/api/upload/', undefined, alice);
  check(!after.body.some((d) => d.id === pdfDocument.id) && after.body.length === 4, 'list after delete', after.body);
  expectStatus(
    await call(base, 'GET', `/api/get-document-download-link/${pdfDocument.id}/`, undefined, alice),
    404,
    'link after delete',
  );
  await waitFor('the purge of the blob', async () =>
    (await fetch(new URL(link.body.download_url, base))).status === 404 ? true : undefined,
  );
  expectStatus(
    await uploadFiles(base, alice, [{ name: 'sixth.pdf', data: documentFiles.pdf('6') }]),
    201,
    'room again after a delete',
  );

  // All of it in Alice's access history.
  await waitFor('the document accesses in the history', async () => {
    const history = await call<HistoryPage>(base, 'GET', '/api/history/?page_size=100', undefined, alice);
    const seen = new Set(history.body.results?.map((r) => `${r.action}:${r.outcome}`) ?? []);
    return [
      'document.upload:success',
      'document.list:success',
      'document.download-link:success',
      'document.delete:success',
      'document.upload:denied',
      'document.download-link:denied',
    ].every((a) => seen.has(a))
      ? true
      : undefined;
  });
}
