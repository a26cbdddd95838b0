import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, type EntitySubscriberInterface, type InsertEvent, type UpdateEvent } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';
import { ShareLink } from '../entities/share-link.entity';
import { SEAL_CONTEXT, type ShareLinkKeys } from '../services/share-link-keys';
import { SHARE_LINK_KEYS } from '../services/sharing.service';

/** Rows sealed again per statement batch on start-up (after a key rotation or the envelope's arrival). */
const RESEAL_BATCH = 200;

/**
 * A share link's SMART Health Link key is kept sealed (shl_key_sealed, the shared
 * envelope bound to the row), never in the clear. This subscriber keeps the entity's `shlKey` the
 * plain key the services use: it opens shl_key_sealed when a row is read and seals `shlKey` when one
 * is inserted or saved (only when it changed, so an untouched row is not rewritten).
 *
 * On start-up it also seals again, with the current key, every stored secret of the share links
 * (share id, owner's address, SHL key) sealed in an earlier format or with a retired key, so an old
 * key can be dropped once every replica has started with the new one.
 */
@Injectable()
export class ShlKeySealer implements EntitySubscriberInterface<ShareLink>, OnApplicationBootstrap {
  private readonly logger = new Logger('ShlKeySealer');
  /** The plain key each loaded entity had, to tell a change from a rewrite. */
  private readonly loaded = new WeakMap<object, string | null>();

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(SHARE_LINK_KEYS) private readonly keys: ShareLinkKeys,
  ) {
    dataSource.subscribers.push(this);
  }

  listenTo(): typeof ShareLink {
    return ShareLink;
  }

  afterLoad(entity: ShareLink): void {
    const sealed = entity.shlKeySealed;
    try {
      entity.shlKey = sealed ? this.keys.open(Buffer.from(sealed), SEAL_CONTEXT.shlKey(entity.id)) : null;
    } catch {
      // Sealed with a key no longer given: the link works without its SMART Health Link (and keeps the sealed value).
      entity.shlKey = null;
    }
    this.loaded.set(entity, entity.shlKey);
  }

  beforeInsert(event: InsertEvent<ShareLink>): void {
    this.seal(event.entity);
  }

  beforeUpdate(event: UpdateEvent<ShareLink>): void {
    const entity = event.entity as ShareLink | undefined;
    if (!entity || !('shlKey' in entity)) return;
    if (this.loaded.has(entity) && this.loaded.get(entity) === entity.shlKey) return;
    this.seal(entity);
  }

  private seal(entity: ShareLink | undefined): void {
    if (!entity || entity.shlKey === undefined) return;
    entity.shlKeySealed = entity.shlKey ? this.keys.seal(entity.shlKey, SEAL_CONTEXT.shlKey(entity.id)) : null;
    this.loaded.set(entity, entity.shlKey);
  }

  async onApplicationBootstrap(): Promise<void> {
    const resealed = await this.resealAll();
    if (resealed > 0) this.logger.log(`Sealed ${resealed} stored share link secrets again with the current key`);
  }

  /** Seals again every stored secret sealed in an earlier format or with a retired key; returns how many values changed. */
  async resealAll(): Promise<number> {
    const s = `"${schemaOf(this.dataSource)}"`;
    const columns = [
      ['share_sealed', SEAL_CONTEXT.shareId],
      ['notify_email_sealed', SEAL_CONTEXT.email],
      ['shl_key_sealed', SEAL_CONTEXT.shlKey],
    ] as const;
    let changed = 0;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = (await this.dataSource.query(
        `SELECT id, share_sealed, notify_email_sealed, shl_key_sealed FROM ${s}.share_links WHERE id > $1 ORDER BY id LIMIT ${RESEAL_BATCH}`,
        [after],
      )) as Record<string, unknown>[];
      if (rows.length === 0) return changed;
      for (const row of rows) {
        const id = String(row['id']);
        for (const [column, context] of columns) {
          const value = row[column];
          if (value === null || value === undefined) continue;
          const sealed = Buffer.from(value as Uint8Array);
          if (!this.keys.needsResealing(sealed)) continue;
          let plain: string;
          try {
            plain = this.keys.open(sealed, context(id));
          } catch {
            // Sealed with a key no longer given: left as it is (the owner sees the link without its URL).
            continue;
          }
          // Only if the row still holds what was read: a change made meanwhile wins.
          await this.dataSource.query(`UPDATE ${s}.share_links SET ${column} = $1 WHERE id = $2 AND ${column} = $3`, [this.keys.seal(plain, context(id)), id, sealed]);
          changed++;
        }
      }
      after = String(rows[rows.length - 1]!['id']);
    }
  }
}
