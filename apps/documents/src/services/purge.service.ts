import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DocumentDeletedEvent } from '@medfolio/contracts';
import { PollingLoop, type OnceInTransaction } from '@medfolio/messaging/outbox';
import { DocumentsConfig } from '../config';
import { DocumentBlobsRepository } from '../repositories/document-blobs.repository';
import { DocumentsRepository } from '../repositories/documents.repository';

/** How often the janitor looks for abandoned uploads. */
const JANITOR_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Removes what must not stay: the blobs (document and thumbnail) of deleted documents, then their
 * rows (documents.document.deleted.v1); and, every few minutes, the blobs of uploads that were
 * written but never committed because the process died in between.
 */
@Injectable()
export class PurgeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(PurgeService.name);
  private readonly janitor = new PollingLoop(() => this.sweepQuietly(), JANITOR_INTERVAL_MS);

  constructor(
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
    @Inject(DocumentsRepository) private readonly documents: DocumentsRepository,
    @Inject(DocumentBlobsRepository) private readonly blobs: DocumentBlobsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.janitor.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.janitor.stop();
  }

  /**
   * Idempotent: deleting a missing blob succeeds (so the blobs go on every delivery), and the row
   * goes through `once`, in the transaction that records the message as processed.
   */
  async purge(deleted: DocumentDeletedEvent, once: OnceInTransaction): Promise<void> {
    const { document_id: id, owner_id: ownerId, storage_key: storageKey } = deleted;
    const row = await this.documents.findAny(id);
    const keys = new Set([
      storageKey,
      this.blobs.thumbnailKey(ownerId, id),
      ...(row?.thumbnailKey ? [row.thumbnailKey] : []),
    ]);
    for (const key of keys) await this.blobs.delete(key);
    await once((manager) => this.documents.removeDeleted(id, manager));
  }

  /** One janitor pass: returns how many abandoned blobs it removed. */
  async sweep(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.config.unfinishedUploadPurgeSeconds * 1000);
    let removed = 0;
    for (const key of await this.documents.staleUnfinished(before)) {
      // The note goes first: from then on that upload cannot commit, so its blob is ours to remove.
      if (!(await this.documents.claimUnfinished(key))) continue;
      await this.blobs.delete(key);
      removed += 1;
    }
    if (removed > 0) this.logger.warn({ removed }, 'removed the blobs of abandoned uploads');
    return removed;
  }

  private async sweepQuietly(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.logger.error({ err: String(error) }, 'abandoned-upload sweep failed');
    }
  }
}
