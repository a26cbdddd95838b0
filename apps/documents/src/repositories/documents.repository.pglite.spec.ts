import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ProcessedMessages } from '@medfolio/messaging/outbox';
import { startPgliteDataSource, type PgliteDataSource } from '@medfolio/testing';
import { DOCUMENTS_ENTITIES } from '../entities';
import { DOCUMENTS_MIGRATIONS } from '../migrations';
import { DocumentsRepository, UploadExpiredError, type NewDocument } from './documents.repository';
import { EntitlementsRepository } from './entitlements.repository';

/**
 * The repositories' SQL on PGlite, the database of the embedded one-process mode (`npm start`):
 * the migration, the owner lock (an advisory lock), the commit with its outbox rows, the soft
 * delete, the plan projection's upsert. PostgreSQL itself is covered by the integration tests.
 */
describe('documents repositories on PGlite', () => {
  let database: PgliteDataSource;
  let dataSource: DataSource;
  let documents: DocumentsRepository;
  let entitlements: EntitlementsRepository;

  beforeAll(async () => {
    database = await startPgliteDataSource({ schema: 'documents', entities: DOCUMENTS_ENTITIES, migrations: DOCUMENTS_MIGRATIONS });
    dataSource = database.dataSource;
    documents = new DocumentsRepository(dataSource);
    entitlements = new EntitlementsRepository(dataSource);
  }, 120_000); // PGlite (WASM) starts in 2-5 s alone, over 30 s on a 2-core machine under the whole suite

  afterAll(() => database?.stop());

  const newDocument = (ownerId: string): NewDocument => {
    const id = randomUUID();
    return {
      id,
      ownerId,
      filename: 'a.pdf',
      kind: 'pdf',
      contentType: 'application/pdf',
      size: 3,
      sha256: 'a'.repeat(64),
      storageKey: `documents/${ownerId}/${id}`,
      uploadedAt: new Date(),
    };
  };

  it('commits an upload with its outbox rows, under the owner lock, and only with its unfinished notes', async () => {
    const owner = randomUUID();
    const [a, b] = [newDocument(owner), newDocument(owner)];
    for (const d of [a, b]) await documents.noteUnfinished(d.storageKey);
    const seen: number[] = [];

    await documents.commitUpload(owner, [a!, b!], async (stored) => void seen.push(stored));

    expect(seen).toEqual([0]);
    expect((await documents.listActive(owner)).map((d) => d.id).sort()).toEqual([a!.id, b!.id].sort());
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM documents.unfinished_uploads`)).toEqual([{ n: 0 }]);
    expect(await dataSource.query(`SELECT subject FROM documents.outbox ORDER BY created_at`)).toEqual([
      { subject: 'documents.document.uploaded.v1' },
      { subject: 'documents.document.uploaded.v1' },
    ]);
    // Without its notes (the janitor took them), an upload cannot commit.
    await expect(documents.commitUpload(owner, [newDocument(owner)], async () => undefined)).rejects.toBeInstanceOf(
      UploadExpiredError,
    );
    expect(await documents.countActive(owner)).toBe(2);
  });

  it('rolls the whole commit back when the room check refuses', async () => {
    const owner = randomUUID();
    const d = newDocument(owner);
    await documents.noteUnfinished(d.storageKey);
    await expect(
      documents.commitUpload(owner, [d], async () => {
        throw new Error('no room');
      }),
    ).rejects.toThrow('no room');
    expect(await documents.countActive(owner)).toBe(0);
    expect(await documents.claimUnfinished(d.storageKey)).toBe(true);
  });

  it('soft-deletes once, queues the event, and the purge removes the row in its own transaction', async () => {
    const owner = randomUUID();
    const d = newDocument(owner);
    await documents.noteUnfinished(d.storageKey);
    await documents.commitUpload(owner, [d], async () => undefined);

    expect(await documents.markDeleted(d.id, randomUUID(), new Date())).toBe(false);
    expect(await documents.markDeleted(d.id, owner, new Date())).toBe(true);
    expect(await documents.markDeleted(d.id, owner, new Date())).toBe(false);
    expect(await documents.findActive(d.id)).toBeNull();
    expect(await documents.setThumbnail(d.id, 'document-thumbnails/x.webp')).toBe(false);

    await new ProcessedMessages(dataSource).once('documents-purge', randomUUID(), (manager) => documents.removeDeleted(d.id, manager));
    expect(await documents.findAny(d.id)).toBeNull();
  });

  it('keeps the newest plan of each user', async () => {
    const owner = randomUUID();
    expect(await entitlements.planOf(owner)).toBe('free');
    const apply = (plan: 'basic' | 'plus' | 'free', at: string) =>
      dataSource.transaction((manager) => entitlements.apply(owner, plan, new Date(at), manager));
    expect(await apply('basic', '2026-05-01T00:00:00Z')).toBe(true);
    expect(await apply('free', '2026-04-01T00:00:00Z')).toBe(false);
    expect(await apply('plus', '2026-06-01T00:00:00Z')).toBe(true);
    expect(await entitlements.planOf(owner)).toBe('plus');
  });
});
