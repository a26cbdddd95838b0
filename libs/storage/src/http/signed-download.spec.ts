import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DomainError } from '@medfolio/contracts';
import { FilesystemBlobStorage } from '../fs/filesystem-blob-storage';
import { signDownloadUrl } from '../signed-url';
import { INTERNAL_FILES_PATH, openSignedDownload } from './signed-download';

const signingKey = randomBytes(32).toString('base64url');
let directory: string;
let storage: FilesystemBlobStorage;

/** A link as the store issues it (/api/files/...), as the gateway passes it on (/internal/files/...). */
function passedOn(key: string, options: { expiresAt?: Date; filename?: string; contentType?: string } = {}): string {
  const issued = signDownloadUrl({
    key,
    expiresAt: options.expiresAt ?? new Date(Date.now() + 60_000),
    filename: options.filename ?? 'Befund März.pdf',
    contentType: options.contentType ?? 'application/pdf',
    signingKey,
  });
  return issued.replace('/api/files/', INTERNAL_FILES_PATH);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'signed-download-'));
  storage = new FilesystemBlobStorage({ directory, encryptionKeys: [{ id: 'k', key: randomBytes(32) }], urlSigningKey: signingKey });
  await storage.init();
  await storage.put('documents/u1/d1', Readable.from([Buffer.from('the stored bytes')]), { contentType: 'application/pdf' });
  await storage.put('profile-pictures/u1/p.webp', Readable.from([Buffer.from('a picture')]), { contentType: 'image/webp' });
});

afterAll(() => rm(directory, { recursive: true, force: true }));

describe('openSignedDownload', () => {
  const own = { signingKey, ownPrefixes: ['documents/'] };

  it('streams the blob with the signed type and name, as an attachment, never sniffed', async () => {
    const download = await openSignedDownload(storage, passedOn('documents/u1/d1'), own);

    expect(download.headers).toEqual({
      'content-type': 'application/pdf',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'content-disposition': `attachment; filename="Befund M_rz.pdf"; filename*=UTF-8''Befund%20M%C3%A4rz.pdf`,
    });
    expect((await readAll(download.body)).toString()).toBe('the stored bytes');
  });

  it('shows an unnamed picture or PDF inline, but never an unnamed XML, JSON or unknown type (a C-CDA stylesheet would run)', async () => {
    const unnamed = (contentType?: string) => {
      const issued = signDownloadUrl({ key: 'documents/u1/d1', expiresAt: new Date(Date.now() + 60_000), contentType, signingKey });
      return issued.replace('/api/files/', INTERNAL_FILES_PATH);
    };
    const disposition = async (contentType?: string) =>
      (await openSignedDownload(storage, unnamed(contentType), own)).headers['content-disposition'];

    expect(await disposition('image/webp')).toBe('inline');
    expect(await disposition('application/pdf')).toBe('inline');
    for (const type of ['application/xml', 'application/fhir+json', 'text/html', 'image/svg+xml', undefined]) {
      expect(await disposition(type)).toBe('attachment');
    }
  });

  it('serves a named health record as an attachment with its type, never sniffed', async () => {
    const download = await openSignedDownload(storage, passedOn('documents/u1/d1', { filename: 'ccd.xml', contentType: 'application/xml' }), own);

    expect(download.headers).toMatchObject({
      'content-type': 'application/xml',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'attachment; filename=ccd.xml',
    });
  });

  it.each([
    ['a changed name', (url: string) => url.replace('filename=Befund', 'filename=Other')],
    ['a changed key', (url: string) => url.replace('documents/u1/d1', 'documents/u2/d1')],
    ['no signature', (url: string) => url.replace(/&signature=[^&]+/, '')],
    ['the public path, not the internal one', (url: string) => url.replace(INTERNAL_FILES_PATH, '/api/files/')],
  ])('answers NOT_FOUND for %s', async (_name, change) => {
    const error = await refusal(openSignedDownload(storage, change(passedOn('documents/u1/d1')), own));

    expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'Not found.' });
  });

  it("never serves another service's blob, even with a valid link", async () => {
    const error = await refusal(openSignedDownload(storage, passedOn('profile-pictures/u1/p.webp'), own));

    expect(error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('says when a link has expired, and answers NOT_FOUND for a blob that is gone or without a key', async () => {
    expect(await refusal(openSignedDownload(storage, passedOn('documents/u1/d1', { expiresAt: new Date(Date.now() - 1000) }), own))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'This link has expired.',
    });
    expect(await refusal(openSignedDownload(storage, passedOn('documents/u1/gone'), own))).toMatchObject({ code: 'NOT_FOUND' });
    expect(await refusal(openSignedDownload(storage, passedOn('documents/u1/d1'), { ...own, signingKey: null }))).toMatchObject({ code: 'NOT_FOUND' });
  });
});
