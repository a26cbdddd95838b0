import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { SHARING_SUBJECTS, type ShareLinkChangedEvent } from '@medfolio/contracts';
import { Outbox } from '@medfolio/messaging/outbox';
import { schemaOf } from '@medfolio/persistence';
import { ShareLink } from '../entities';

export type ShareLinkState = ShareLinkChangedEvent['state'];

/** The only I/O of share links: rows in share_links, and their changed events through the outbox. */
@Injectable()
export class ShareLinksRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  byHash(shareHash: string): Promise<ShareLink | null> {
    return this.dataSource.getRepository(ShareLink).findOneBy({ shareHash });
  }

  /** `manager`: inside forOwner's transaction (embedded PGlite has one connection: a query outside it would wait for it). */
  ofOwner(ownerId: string, linkId: string, manager?: EntityManager): Promise<ShareLink | null> {
    return (manager ?? this.dataSource.manager).getRepository(ShareLink).findOneBy({ ownerId, id: linkId });
  }

  listForOwner(ownerId: string, manager?: EntityManager): Promise<ShareLink[]> {
    return (manager ?? this.dataSource.manager).getRepository(ShareLink).find({ where: { ownerId }, order: { createdAt: 'DESC', id: 'ASC' } });
  }

  /** The owner's live link for a purpose ('default' or 'wallet'), if any. */
  live(ownerId: string, purpose: ShareLink['purpose'], manager?: EntityManager): Promise<ShareLink | null> {
    return (manager ?? this.dataSource.manager).getRepository(ShareLink).findOneBy({ ownerId, purpose, revokedAt: IsNull() });
  }

  /**
   * Runs `work` in a transaction holding the owner's share-link lock (ensure() made twice at once
   * makes one link), then publishes the events it recorded.
   */
  async forOwner<T>(ownerId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`share-links:${ownerId}`]);
      return work(manager);
    });
  }

  async insert(manager: EntityManager, link: ShareLink): Promise<void> {
    await manager.insert(ShareLink, link);
    await this.changed(manager, link, 'active');
  }

  /** Saves a changed link (version bumped by the caller) with its event. */
  async save(manager: EntityManager, link: ShareLink, state: ShareLinkState): Promise<void> {
    await manager.save(ShareLink, link);
    await this.changed(manager, link, state);
  }

  /**
   * Claims one passcode attempt before the passcode is checked (atomic, so parallel guesses all
   * count): the attempts now used, or null when the link is already at the limit (locked).
   */
  async claimAttempt(linkId: string, limit: number): Promise<number | null> {
    const s = `"${schemaOf(this.dataSource)}"`;
    const result = (await this.dataSource.query(
      `UPDATE ${s}.share_links SET failed_attempts = failed_attempts + 1 WHERE id = $1 AND failed_attempts < $2 RETURNING failed_attempts`,
      [linkId, limit],
    )) as unknown;
    const row = rowsOf(result)[0];
    return row ? Number(row['failed_attempts']) : null;
  }

  /** The right passcode: the attempts start again (unless the owner changed the passcode meanwhile). */
  async resetAttempts(linkId: string, passcodeHash: string): Promise<void> {
    await this.dataSource.getRepository(ShareLink).update({ id: linkId, passcodeHash }, { failedAttempts: 0 });
  }

  /**
   * A view, in one statement: counts it, and claims the owner's e-mail when they asked for one and
   * none was sent for this link in the past hour (SET sees the row as it was, so `notify` is true
   * only for the view that moved last_notified_at).
   */
  async viewed(linkId: string, at: Date): Promise<{ notify: boolean }> {
    const s = `"${schemaOf(this.dataSource)}"`;
    const due = `notify_on_view AND notify_email_sealed IS NOT NULL AND (last_notified_at IS NULL OR last_notified_at <= $2::timestamptz - interval '1 hour')`;
    const result = (await this.dataSource.query(
      `UPDATE ${s}.share_links
          SET view_count = view_count + 1, last_viewed_at = $2,
              last_notified_at = CASE WHEN ${due} THEN $2::timestamptz ELSE last_notified_at END
        WHERE id = $1
        RETURNING last_notified_at = $2::timestamptz AS notify`,
      [linkId, at],
    )) as unknown;
    return { notify: rowsOf(result)[0]?.['notify'] === true };
  }

  /** Gives back an e-mail claim whose sending failed, so the next view tries again. */
  async unclaimNotification(linkId: string, at: Date): Promise<void> {
    await this.dataSource.getRepository(ShareLink).update({ id: linkId, lastNotifiedAt: at }, { lastNotifiedAt: null });
  }

  private async changed(manager: EntityManager, link: ShareLink, state: ShareLinkState): Promise<void> {
    const event: ShareLinkChangedEvent = {
      link_id: link.id,
      owner_id: link.ownerId,
      purpose: link.purpose,
      state,
      version: link.version,
      providers_may_see_documents: link.providersMaySeeDocuments,
      expires_at: link.expiresAt?.toISOString() ?? null,
      changed_at: new Date().toISOString(),
    };
    await Outbox.add(manager, SHARING_SUBJECTS.changed, event);
  }
}

/** node-postgres answers UPDATE ... RETURNING as [rows, count]; PGlite as rows. */
function rowsOf(result: unknown): Array<Record<string, unknown>> {
  return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<Record<string, unknown>>;
}
