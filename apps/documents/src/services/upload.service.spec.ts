import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { CallerIdentity } from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { UploadExpiredError } from '../repositories/documents.repository';
import { VirusScannerRepository } from '../repositories/virus-scanner.repository';
import { fakeRepositories, testConfig, testMetrics } from '../testing/fakes';
import { automock, documentFiles as files, refusal } from '@medfolio/testing';
import { UPLOAD_MESSAGES, UploadService } from './upload.service';

const BOUNDARY = 'unit-boundary';

function request(parts: { name: string; data: Buffer }[]) {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${part.name}"\r\n\r\n`),
      part.data,
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  const body = Buffer.concat(pieces);
  return {
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: Readable.from(
      (function* () {
        for (let i = 0; i < body.length; i += 8192) yield body.subarray(i, i + 8192);
      })(),
    ),
  };
}

function setup(env: Record<string, string> = {}) {
  const { fakes, repos } = fakeRepositories();
  const relay = automock(OutboxRelay);
  const config = testConfig(env);
  const service = new UploadService(
    config,
    repos.documents,
    repos.entitlements,
    repos.blobs,
    repos.audit,
    testMetrics(),
    relay,
    new VirusScannerRepository(config),
  );
  return { ...fakes, relay, service };
}

const owner = randomUUID();
const caller: CallerIdentity = { userId: owner, roles: ['patient'], correlationId: 'unit' };
describe('UploadService: a batch is all or nothing', () => {
  it('stores every file, audits each, then commits them together and kicks the outbox relay', async () => {
    const { service, documents, blobs, audit, relay } = setup({ DOCUMENT_QUOTA_FREE: '10' });
    const reply = await service.upload(
      caller,
      request([
        { name: 'a.pdf', data: files.pdf('a') },
        { name: 'b.png', data: await files.png() },
      ]),
    );

    expect(reply.message).toBe('2 files uploaded successfully.');
    expect(documents.commits).toHaveLength(1);
    expect(documents.commits[0]!.map((d) => [d.filename, d.kind, d.contentType])).toEqual([
      ['a.pdf', 'pdf', 'application/pdf'],
      ['b.png', 'png', 'image/png'],
    ]);
    expect([...blobs.stored.keys()]).toEqual(documents.commits[0]!.map((d) => d.storageKey));
    expect(audit.records.map((r) => [r.action, r.outcome, r.documentId])).toEqual(
      documents.commits[0]!.map((d) => ['document.upload', 'success', d.id]),
    );
    expect(documents.unfinished.size).toBe(0);
    expect(relay.kick).toHaveBeenCalledTimes(1);
    expect(reply.image_urls).toHaveLength(2);
  });

  it('removes the files already stored when a later one is refused, and commits nothing', async () => {
    const { service, documents, blobs, audit, relay } = setup({ DOCUMENT_QUOTA_FREE: '10' });
    const error = await refusal(
      service.upload(
        caller,
        request([
          { name: 'good.pdf', data: files.pdf() },
          { name: 'bad.pdf', data: files.exe() },
        ]),
      ),
    );

    expect(error).toMatchObject({
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: '"bad.pdf" is not a PDF: it is a Windows program (.exe).',
    });
    expect(documents.commits).toEqual([]);
    expect(blobs.stored.size).toBe(0);
    expect(blobs.deleted).toHaveLength(1);
    expect(documents.unfinished.size).toBe(0);
    expect(audit.records).toEqual([{ action: 'document.upload', outcome: 'failure', patientId: owner, actor: owner }]);
    expect(relay.kick).not.toHaveBeenCalled();
  });

  it('fails closed: without an audit record nothing is committed and the blobs go', async () => {
    const { service, documents, blobs, audit } = setup();
    audit.down = true;
    const error = await refusal(service.upload(caller, request([{ name: 'a.pdf', data: files.pdf() }])));
    expect(error.code).toBe('UNAVAILABLE');
    expect(documents.commits).toEqual([]);
    expect(blobs.stored.size).toBe(0);
  });

  it("says the store is full, naming the file, and keeps nothing when the disk is full", async () => {
    const { service, documents, blobs } = setup();
    const put = blobs.put.bind(blobs);
    jest.spyOn(blobs, 'put').mockImplementationOnce(async (key, source, contentType) => {
      await put(key, source, contentType).catch(() => undefined);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    const error = await refusal(service.upload(caller, request([{ name: 'scan.pdf', data: files.pdf() }])));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: UPLOAD_MESSAGES.noRoom('scan.pdf') });
    expect(documents.commits).toEqual([]);
    expect(blobs.stored.size).toBe(0);
  });

  it('checks the quota before reading a byte of a file that would not fit', async () => {
    const { service, documents, blobs, audit } = setup();
    await service.upload(
      caller,
      request([
        { name: '1.pdf', data: files.pdf() },
        { name: '2.pdf', data: files.pdf() },
      ]),
    );
    const puts = jest.spyOn(blobs, 'put');

    const error = await refusal(service.upload(caller, request([{ name: '3.pdf', data: files.pdf() }])));

    expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(puts).not.toHaveBeenCalled();
    expect(documents.commits).toHaveLength(1);
    expect(audit.records.at(-1)).toEqual({
      action: 'document.upload',
      outcome: 'denied',
      patientId: owner,
      actor: owner,
    });
  });

  it('lets the commit refuse what a racing upload took, recording the failure and removing the blobs', async () => {
    const { service, documents, blobs, audit } = setup();
    documents.rows.set('other', {
      id: 'other',
      ownerId: owner,
      filename: 'x.pdf',
      kind: 'pdf',
      contentType: 'application/pdf',
      size: 1,
      sha256: '0'.repeat(64),
      storageKey: 'documents/x/y',
      thumbnailKey: null,
      uploadedAt: new Date(),
      deletedAt: null,
    });
    const countActive = jest.spyOn(documents, 'countActive').mockResolvedValueOnce(0); // what the upload saw at its start
    const error = await refusal(
      service.upload(
        caller,
        request([
          { name: 'a.pdf', data: files.pdf() },
          { name: 'b.pdf', data: files.pdf() },
        ]),
      ),
    );

    expect(countActive).toHaveBeenCalled();
    expect(error.code).toBe('QUOTA_EXCEEDED');
    expect(blobs.stored.size).toBe(0);
    expect(audit.records.filter((r) => r.outcome === 'failure').map((r) => r.action)).toEqual([
      'document.upload',
      'document.upload',
    ]);
  });

  it('answers "took too long" when the janitor took the upload for abandoned', async () => {
    const { service, documents, blobs } = setup();
    documents.failCommit = new UploadExpiredError();
    const error = await refusal(service.upload(caller, request([{ name: 'a.pdf', data: files.pdf() }])));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: UPLOAD_MESSAGES.tooSlow });
    expect(blobs.stored.size).toBe(0);
  });

  it('refuses a caller without a user', async () => {
    const { service } = setup();
    await expect(
      service.upload({ roles: [], correlationId: 'x' }, request([{ name: 'a.pdf', data: files.pdf() }])),
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
