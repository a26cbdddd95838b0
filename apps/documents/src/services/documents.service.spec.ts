import { createHash, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { CallerIdentity } from '@medfolio/contracts';
import { automock, refusal } from '@medfolio/testing';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import type { DocumentRecord } from '../entities';
import { fakeRepositories, testConfig, testMetrics, type FakeBlobs, type FakeDocuments } from '../testing/fakes';
import { DOCUMENT_MESSAGES, DocumentsService } from './documents.service';

function setup() {
  const { fakes, repos } = fakeRepositories();
  const metrics = testMetrics();
  const relay = automock(OutboxRelay);
  const service = new DocumentsService(
    testConfig(),
    repos.documents,
    repos.blobs,
    repos.audit,
    metrics,
    relay,
  );
  return { ...fakes, metrics, relay, service };
}

/** A stored document of `ownerId`, its bytes in the fake storage. */
function storedDocument(
  fakes: { documents: FakeDocuments; blobs: FakeBlobs },
  ownerId: string,
  data = Buffer.from('%PDF-1.4 ...%%EOF'),
): DocumentRecord {
  const id = randomUUID();
  const storageKey = fakes.blobs.documentKey(ownerId, id);
  fakes.blobs.stored.set(storageKey, { data, contentType: 'application/pdf' });
  const row: DocumentRecord = {
    id,
    ownerId,
    filename: 'results.pdf',
    kind: 'pdf',
    contentType: 'application/pdf',
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
    storageKey,
    thumbnailKey: null,
    uploadedAt: new Date('2026-03-01T10:00:00Z'),
    deletedAt: null,
  };
  fakes.documents.rows.set(id, row);
  return row;
}

const user = (userId: string): CallerIdentity => ({ userId, roles: ['patient'], correlationId: 'unit' });
describe('DocumentsService', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('lists only after the audit record is stored (no record, no list, no links)', async () => {
    const fakes = setup();
    const owner = randomUUID();
    storedDocument(fakes, owner);
    fakes.audit.down = true;
    expect((await refusal(fakes.service.list(user(owner)))).code).toBe('UNAVAILABLE');
    expect(fakes.blobs.urls).toEqual([]);
  });

  it('refuses a download link when the stored bytes changed: no link, and the alert is raised three ways', async () => {
    const fakes = setup();
    const owner = randomUUID();
    const document = storedDocument(fakes, owner);
    fakes.blobs.stored.get(document.storageKey)!.data = Buffer.from('%PDF-1.4 ...%%EOF, but changed');
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);

    const error = await refusal(fakes.service.downloadLink(user(owner), { document_id: document.id }));

    expect(error).toMatchObject({ code: 'INTERNAL', message: DOCUMENT_MESSAGES.integrity });
    expect(fakes.blobs.urls).toEqual([]);
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ alert: 'document-integrity', documentId: document.id, reason: 'changed' }),
      expect.any(String),
    );
    expect(JSON.stringify(logged.mock.calls)).not.toContain('results.pdf');
    expect(await fakes.metrics.integrityFailures.get()).toMatchObject({
      values: [{ labels: { reason: 'changed' }, value: 1 }],
    });
    expect(fakes.audit.records).toEqual([
      {
        action: 'document.integrity-check',
        outcome: 'failure',
        patientId: owner,
        documentId: document.id,
        actor: owner,
      },
    ]);
    logged.mockRestore();
  });

  it('treats a missing blob as an integrity failure too', async () => {
    const fakes = setup();
    const owner = randomUUID();
    const document = storedDocument(fakes, owner);
    fakes.blobs.stored.delete(document.storageKey);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    expect((await refusal(fakes.service.downloadLink(user(owner), { document_id: document.id }))).code).toBe(
      'INTERNAL',
    );
    expect(await fakes.metrics.integrityFailures.get()).toMatchObject({
      values: [{ labels: { reason: 'missing' }, value: 1 }],
    });
  });

  it("answers another user's document like a missing one, and records the attempt in the owner's history", async () => {
    const fakes = setup();
    const alice = randomUUID();
    const bob = randomUUID();
    const document = storedDocument(fakes, alice);

    const link = await refusal(fakes.service.downloadLink(user(bob), { document_id: document.id }));
    const deletion = await refusal(fakes.service.delete(user(bob), { document_id: document.id }));
    const missing = await refusal(fakes.service.delete(user(bob), { document_id: randomUUID() }));

    for (const error of [link, deletion, missing])
      expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'Document not found.' });
    expect(fakes.documents.rows.get(document.id)!.deletedAt).toBeNull();
    expect(fakes.audit.records.slice(0, 2)).toEqual([
      { action: 'document.download-link', outcome: 'denied', patientId: alice, documentId: document.id, actor: bob },
      { action: 'document.delete', outcome: 'denied', patientId: alice, documentId: document.id, actor: bob },
    ]);
    expect(fakes.audit.records[2]).toMatchObject({
      action: 'document.delete',
      outcome: 'failure',
      patientId: bob,
      actor: bob,
    });
  });

  it("streams a document's bytes to an internal reader only for the named owner, audited first", async () => {
    const fakes = setup();
    const owner = randomUUID();
    const data = Buffer.from('%PDF-1.4 visit note %%EOF');
    const row = storedDocument(fakes, owner, data);
    const system: CallerIdentity = { userId: 'system', roles: ['system'], correlationId: 'unit' };
    const wrong = await refusal(fakes.service.openContent(system, row.id, randomUUID()));
    expect(wrong).toMatchObject({ code: 'NOT_FOUND', message: 'Document not found.' });
    expect(fakes.audit.records).toEqual([expect.objectContaining({ action: 'document.content-read', outcome: 'denied', patientId: owner, documentId: row.id })]);
    fakes.audit.down = true;
    expect((await refusal(fakes.service.openContent(system, row.id, owner))).code).toBe('UNAVAILABLE');
    fakes.audit.down = false;
    const content = await fakes.service.openContent(system, row.id, owner);
    const chunks: Buffer[] = [];
    for await (const chunk of content.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).toEqual(data);
    expect(content).toMatchObject({ filename: 'results.pdf', contentType: 'application/pdf', size: data.length });
    expect(fakes.audit.records.at(-1)).toMatchObject({ action: 'document.content-read', outcome: 'success', patientId: owner });
  });

  it('deletes for the owner at once and kicks the outbox relay (the purge follows from the event)', async () => {
    const fakes = setup();
    const owner = randomUUID();
    const document = storedDocument(fakes, owner);
    await expect(fakes.service.delete(user(owner), { document_id: document.id })).resolves.toEqual({
      message: 'Document deleted.',
    });
    expect(await fakes.service.list(user(owner))).toEqual([]);
    expect(fakes.relay.kick).toHaveBeenCalledTimes(1);
    expect(fakes.blobs.deleted).toEqual([]);
  });
});
