import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, LessThan, Not, type EntityManager } from 'typeorm';
import { DOCUMENT_PRIVACY_SUBJECTS, DOCUMENTS_SUBJECTS, type DocumentDeletedEvent, type DocumentPrivacyChangedEvent, type DocumentUploadedEvent } from '@medfolio/contracts';
import { Outbox } from '@medfolio/messaging/outbox';
import { DocumentRecord, UnfinishedUpload } from '../entities';

/** The janitor took an upload for abandoned (it ran longer than UNFINISHED_UPLOAD_PURGE_SECONDS). */
export class UploadExpiredError extends Error {
  constructor() {
    super('The upload outlived its unfinished-upload notes');
    this.name = 'UploadExpiredError';
  }
}

/** A document about to be committed: its blob is stored and checked. */
export type NewDocument = Omit<DocumentRecord, 'thumbnailKey' | 'deletedAt'>;

/**
 * Document rows, the unfinished-upload log, and the events that commit with them (transactional
 * outbox). On the embedded database (one session), every query inside a transaction goes through
 * that transaction's manager.
 */
@Injectable()
export class DocumentsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The owner's documents that are not deleted, newest first. */
  listActive(ownerId: string): Promise<DocumentRecord[]> {
    return this.dataSource.getRepository(DocumentRecord).find({
      where: { ownerId, deletedAt: IsNull() },
      order: { uploadedAt: 'DESC', id: 'ASC' },
    });
  }

  countActive(ownerId: string, manager?: EntityManager): Promise<number> {
    return (manager ?? this.dataSource.manager).getRepository(DocumentRecord).countBy({ ownerId, deletedAt: IsNull() });
  }

  /** A document that is not deleted, whoever owns it (the caller decides what the owner may see). */
  findActive(id: string): Promise<DocumentRecord | null> {
    return this.dataSource.getRepository(DocumentRecord).findOneBy({ id, deletedAt: IsNull() });
  }

  /** Any row with this id, deleted or not. */
  findAny(id: string): Promise<DocumentRecord | null> {
    return this.dataSource.getRepository(DocumentRecord).findOneBy({ id });
  }

  /** Notes a blob about to be written, before it is written (autocommit). */
  async noteUnfinished(storageKey: string): Promise<void> {
    await this.dataSource.getRepository(UnfinishedUpload).insert({ storageKey });
  }

  /** Forgets blobs that were removed (a refused upload) or committed. Returns how many notes there were. */
  async forgetUnfinished(storageKeys: string[], manager?: EntityManager): Promise<number> {
    if (storageKeys.length === 0) return 0;
    const result = await (manager ?? this.dataSource.manager)
      .createQueryBuilder()
      .delete()
      .from(UnfinishedUpload)
      .where('storage_key IN (:...keys)', { keys: storageKeys })
      .execute();
    return result.affected ?? 0;
  }

  /** Blobs noted before `startedBefore` whose upload never finished. */
  async staleUnfinished(startedBefore: Date, limit = 100): Promise<string[]> {
    const rows = await this.dataSource.getRepository(UnfinishedUpload).find({
      where: { startedAt: LessThan(startedBefore) },
      order: { startedAt: 'ASC' },
      take: limit,
    });
    return rows.map((r) => r.storageKey);
  }

  /**
   * Takes one abandoned note for the janitor: true if it removed the note (so the upload can no
   * longer commit, and the blob is the janitor's to remove), false if the upload committed first.
   */
  async claimUnfinished(storageKey: string): Promise<boolean> {
    return (await this.forgetUnfinished([storageKey])) === 1;
  }

  /**
   * Commits an upload in one transaction: serialises the owner's uploads (an advisory lock on the
   * owner), counts what they already have, lets `assertRoom(count)` refuse, then inserts every
   * document, forgets their unfinished-upload notes and queues one uploaded event each.
   */
  async commitUpload(
    ownerId: string,
    documents: NewDocument[],
    assertRoom: (stored: number, manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`documents:${ownerId}`]);
      await assertRoom(await this.countActive(ownerId, manager), manager);
      // The janitor removes the notes (and then the blobs) of uploads that ran for hours: if it did, this one is void.
      if (
        (await this.forgetUnfinished(
          documents.map((d) => d.storageKey),
          manager,
        )) !== documents.length
      )
        throw new UploadExpiredError();
      await manager.insert(
        DocumentRecord,
        documents.map((d) => ({ ...d, thumbnailKey: null, deletedAt: null })),
      );
      for (const d of documents) {
        const event: DocumentUploadedEvent = {
          document_id: d.id,
          owner_id: d.ownerId,
          kind: d.kind,
          content_type: d.contentType,
          size: d.size,
          sha256: d.sha256,
          storage_key: d.storageKey,
          uploaded_at: d.uploadedAt.toISOString(),
        };
        await Outbox.add(manager, DOCUMENTS_SUBJECTS.uploaded, { ...event });
      }
    });
  }

  /**
   * Marks the owner's document deleted and queues documents.document.deleted.v1, in one
   * transaction. False if there is no such document of theirs (any more).
   */
  async markDeleted(id: string, ownerId: string, at: Date): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const document = await manager.findOne(DocumentRecord, {
        where: { id, ownerId, deletedAt: IsNull() },
        lock: { mode: 'pessimistic_write' },
      });
      if (!document) return false;
      await manager.update(DocumentRecord, { id }, { deletedAt: at });
      const event: DocumentDeletedEvent = {
        document_id: id,
        owner_id: ownerId,
        storage_key: document.storageKey,
        deleted_at: at.toISOString(),
      };
      await Outbox.add(manager, DOCUMENTS_SUBJECTS.deleted, { ...event });
      return true;
    });
  }

  /**
   * Marks the owner's document private (hidden from proxies) or not, with the event summary keeps
   * the flag from, in one transaction. null: no such document of theirs (deleted meanwhile).
   */
  async setPrivate(id: string, ownerId: string, isPrivate: boolean): Promise<DocumentRecord | null> {
    return this.dataSource.transaction(async (manager) => {
      const document = await manager.findOne(DocumentRecord, { where: { id, ownerId, deletedAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
      if (!document) return null;
      if (Boolean(document.isPrivate) !== isPrivate) {
        await manager.update(DocumentRecord, { id }, { isPrivate });
        const event: DocumentPrivacyChangedEvent = { document_id: id, owner_id: ownerId, private: isPrivate };
        await Outbox.add(manager, DOCUMENT_PRIVACY_SUBJECTS.privacyChanged, { ...event });
      }
      return { ...document, isPrivate };
    });
  }

  /** Records the thumbnail of a document that is still there; false if it was deleted meanwhile. */
  async setThumbnail(id: string, thumbnailKey: string): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(DocumentRecord)
      .set({ thumbnailKey })
      .where('id = :id AND deleted_at IS NULL', { id })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** Removes a deleted document's row, inside the purge handler's transaction. */
  async removeDeleted(id: string, manager: EntityManager): Promise<void> {
    await manager.delete(DocumentRecord, { id, deletedAt: Not(IsNull()) });
  }
}
