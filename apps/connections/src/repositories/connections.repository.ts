import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { Connection, PendingAuthorization } from '../entities';

/** The service's tables: connections and started sign-ins. Inside a transaction, pass its manager. */
@Injectable()
export class ConnectionsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async addPending(pending: PendingAuthorization, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).getRepository(PendingAuthorization).insert(pending);
  }

  /**
   * Takes (deletes and answers) the owner's started sign-in with this state, so a state is used at
   * most once; null when there is none for this owner. Expired ones are taken too (the caller checks).
   */
  async takePending(stateHash: string, ownerId: string): Promise<PendingAuthorization | null> {
    const rows = (await this.dataSource
      .createQueryBuilder()
      .delete()
      .from(PendingAuthorization)
      .where('state_hash = :stateHash AND owner_id = :ownerId', { stateHash, ownerId })
      .returning('*')
      .execute()) as { raw: Record<string, unknown>[] };
    const row = rows.raw[0];
    if (!row) return null;
    return Object.assign(new PendingAuthorization(), {
      stateHash: row['state_hash'],
      ownerId: row['owner_id'],
      endpointId: row['endpoint_id'],
      verifierSealed: row['verifier_sealed'],
      redirectUri: row['redirect_uri'],
      clientId: row['client_id'],
      tokenEndpoint: row['token_endpoint'],
      revocationEndpoint: row['revocation_endpoint'],
      expiresAt: new Date(row['expires_at'] as string),
    });
  }

  /** Forgets sign-ins started before `before` and never finished. */
  async prunePending(before: Date): Promise<number> {
    const result = await this.dataSource.createQueryBuilder().delete().from(PendingAuthorization).where('expires_at < :before', { before }).execute();
    return result.affected ?? 0;
  }

  async add(connection: Connection): Promise<void> {
    await this.dataSource.getRepository(Connection).insert(connection);
  }

  /** The user's connections to one endpoint (one per patient account there). */
  listForEndpoint(ownerId: string, endpointId: string): Promise<Connection[]> {
    return this.dataSource.getRepository(Connection).find({ where: { ownerId, endpointId } });
  }

  /** A reconnected connection's new grant (the rest of the row, its sync state included, is left as it is). */
  async renewTokens(connection: Connection): Promise<void> {
    await this.dataSource.getRepository(Connection).update(
      { id: connection.id, ownerId: connection.ownerId },
      {
        status: connection.status,
        scope: connection.scope,
        accessTokenSealed: connection.accessTokenSealed,
        refreshTokenSealed: connection.refreshTokenSealed,
        accessExpiresAt: connection.accessExpiresAt,
        tokenEndpoint: connection.tokenEndpoint,
        revocationEndpoint: connection.revocationEndpoint,
        clientId: connection.clientId,
        lastSyncError: connection.lastSyncError,
      },
    );
  }

  listByOwner(ownerId: string, limit: number): Promise<Connection[]> {
    return this.dataSource.getRepository(Connection).find({ where: { ownerId }, order: { createdAt: 'DESC' }, take: limit });
  }

  countByOwner(ownerId: string): Promise<number> {
    return this.dataSource.getRepository(Connection).count({ where: { ownerId } });
  }

  findOwned(id: string, ownerId: string): Promise<Connection | null> {
    return this.dataSource.getRepository(Connection).findOne({ where: { id, ownerId } });
  }

  async remove(id: string, ownerId: string): Promise<boolean> {
    const result = await this.dataSource.getRepository(Connection).delete({ id, ownerId });
    return (result.affected ?? 0) > 0;
  }

  /** Every connection of the owner's, whatever its state (an erasure). */
  allOwnedBy(ownerId: string): Promise<Connection[]> {
    return this.dataSource.getRepository(Connection).findBy({ ownerId });
  }

  /** Deletes the owner's connections (their fetched resources go with them: ON DELETE CASCADE) and started sign-ins. */
  async deleteAllOf(ownerId: string): Promise<{ connections: number; pending: number }> {
    return this.dataSource.transaction(async (manager) => ({
      connections: (await manager.delete(Connection, { ownerId })).affected ?? 0,
      pending: (await manager.delete(PendingAuthorization, { ownerId })).affected ?? 0,
    }));
  }
}
