import { Inject, Injectable } from '@nestjs/common';
import { Brackets, DataSource } from 'typeorm';
import { Connection, ConnectionResource } from '../entities';

/** What a sync writes back on its connection when it ends (the claim is released). */
export interface SyncOutcome {
  lastSyncAt?: Date;
  lastSyncError: string | null;
  syncCheckpoints?: Record<string, string>;
  syncCounts?: Record<string, number>;
  status?: 'connected' | 'reconnect';
  recordDocumentId?: string | null;
  recordDocumentStale?: boolean;
}

/** The sync's tables: claiming a connection, its tokens and checkpoints, and the fetched resources. */
@Injectable()
export class SyncRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /**
   * Takes the connection for one sync: true when it was connected and idle (or its claim is older
   * than `staleBefore`, a sync that died with its process). At most one sync per connection.
   */
  async claim(id: string, staleBefore: Date): Promise<boolean> {
    const result = await this.dataSource
      .createQueryBuilder()
      .update(Connection)
      .set({ syncState: 'syncing', syncStartedAt: () => 'now()' })
      .where('id = :id AND status = :status', { id, status: 'connected' })
      .andWhere(new Brackets((q) => q.where('sync_state = :idle', { idle: 'idle' }).orWhere('sync_started_at < :staleBefore', { staleBefore })))
      .execute();
    return (result.affected ?? 0) > 0;
  }

  async finish(id: string, outcome: SyncOutcome): Promise<void> {
    await this.dataSource.getRepository(Connection).update({ id }, { ...outcome, syncState: 'idle' });
  }

  findById(id: string): Promise<Connection | null> {
    return this.dataSource.getRepository(Connection).findOne({ where: { id } });
  }

  async saveTokens(id: string, tokens: Pick<Connection, 'accessTokenSealed' | 'refreshTokenSealed' | 'accessExpiresAt'>): Promise<void> {
    await this.dataSource.getRepository(Connection).update({ id }, tokens);
  }

  /**
   * Connected, idle connections whose last sync and last attempt (`sync_started_at`, set by every
   * claim) are both older than `before`, the longest waiting first. A sync that failed is tried again
   * one interval later, not at every tick: connections that keep failing (an endpoint gone from the
   * directory, a hospital down) never hold the others back.
   */
  async due(before: Date, limit: number): Promise<Pick<Connection, 'id' | 'ownerId'>[]> {
    return this.dataSource
      .getRepository(Connection)
      .createQueryBuilder('c')
      .select(['c.id', 'c.ownerId'])
      .where("c.status = 'connected' AND c.sync_state = 'idle'")
      .andWhere(new Brackets((q) => q.where('c.last_sync_at IS NULL').orWhere('c.last_sync_at < :before', { before })))
      .andWhere(new Brackets((q) => q.where('c.sync_started_at IS NULL').orWhere('c.sync_started_at < :before', { before })))
      .orderBy('COALESCE(c.sync_started_at, c.last_sync_at)', 'ASC', 'NULLS FIRST')
      .limit(limit)
      .getMany();
  }

  /** The version key (versionId, else lastUpdated) of every kept resource of one type: to tell what changed. */
  async versions(connectionId: string, resourceType: string): Promise<Map<string, string>> {
    const rows = await this.dataSource
      .getRepository(ConnectionResource)
      .createQueryBuilder('r')
      .select(['r.resourceId', 'r.versionId', 'r.lastUpdated'])
      .where('r.connection_id = :connectionId AND r.resource_type = :resourceType', { connectionId, resourceType })
      .getMany();
    return new Map(rows.map((r) => [r.resourceId, versionKey(r.versionId, r.lastUpdated?.toISOString() ?? null)]));
  }

  /** Inserts or updates in place (same connection, type and id). */
  async upsert(rows: ConnectionResource[]): Promise<void> {
    if (rows.length === 0) return;
    await this.dataSource
      .createQueryBuilder()
      .insert()
      .into(ConnectionResource)
      .values(rows)
      .orUpdate(['version_id', 'last_updated', 'body_sealed', 'fetched_at'], ['connection_id', 'resource_type', 'resource_id'])
      .execute();
  }

  async setDocument(connectionId: string, resourceType: string, resourceId: string, documentId: string): Promise<void> {
    await this.dataSource.getRepository(ConnectionResource).update({ connectionId, resourceType, resourceId }, { documentId });
  }

  /** Resources kept per type for one connection. */
  async counts(connectionId: string): Promise<Record<string, number>> {
    const rows = await this.dataSource
      .getRepository(ConnectionResource)
      .createQueryBuilder('r')
      .select('r.resource_type', 'type')
      .addSelect('count(*)::int', 'count')
      .where('r.connection_id = :connectionId', { connectionId })
      .groupBy('r.resource_type')
      .getRawMany<{ type: string; count: number }>();
    return Object.fromEntries(rows.map((r) => [r.type, r.count]));
  }

  /** The kept resources of one connection (sealed), e.g. to build the bundle handed to the record. */
  all(connectionId: string): Promise<ConnectionResource[]> {
    return this.dataSource.getRepository(ConnectionResource).find({ where: { connectionId }, order: { resourceType: 'ASC', resourceId: 'ASC' } });
  }
}

/** What identifies a resource's version: its meta.versionId, else its meta.lastUpdated. */
export function versionKey(versionId: string | null, lastUpdated: string | null): string {
  return versionId ? `v:${versionId}` : `t:${lastUpdated ?? ''}`;
}
