import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In, IsNull, MoreThan, QueryFailedError, type EntityManager } from 'typeorm';
import { AccessRequest, ProviderGrant } from '../entities';

export type NewRequest = Pick<AccessRequest, 'patientId' | 'providerId' | 'provider' | 'patientFirstName' | 'linkId' | 'linkLabel'>;
export type NewGrant = Pick<ProviderGrant, 'patientId' | 'providerId' | 'provider' | 'patientFirstName' | 'source' | 'requestId' | 'linkId' | 'expiresAt'>;

/** Access requests and grants (the only I/O of provider access). */
@Injectable()
export class ProviderAccessRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The provider's grant to this patient that is neither revoked nor expired at `now`, if any. */
  activeGrant(providerId: string, patientId: string, now: Date): Promise<ProviderGrant | null> {
    return this.dataSource.getRepository(ProviderGrant).findOne({
      where: { providerId, patientId, revokedAt: IsNull(), expiresAt: MoreThan(now) },
      order: { expiresAt: 'DESC' },
    });
  }

  activeGrantsOfProvider(providerId: string, now: Date): Promise<ProviderGrant[]> {
    return this.dataSource.getRepository(ProviderGrant).find({
      where: { providerId, revokedAt: IsNull(), expiresAt: MoreThan(now) },
      order: { grantedAt: 'DESC' },
    });
  }

  grantsOfPatient(patientId: string): Promise<ProviderGrant[]> {
    return this.dataSource.getRepository(ProviderGrant).find({ where: { patientId }, order: { grantedAt: 'DESC' } });
  }

  pendingOfPatient(patientId: string): Promise<AccessRequest[]> {
    return this.dataSource.getRepository(AccessRequest).find({ where: { patientId, state: 'pending' }, order: { createdAt: 'DESC' } });
  }

  findPendingRequest(patientId: string, requestId: string): Promise<AccessRequest | null> {
    return this.dataSource.getRepository(AccessRequest).findOneBy({ id: requestId, patientId, state: 'pending' });
  }

  /** A new pending request, or null when one was made a moment ago (the partial unique index). */
  async createRequest(request: NewRequest): Promise<AccessRequest | null> {
    try {
      return await this.dataSource.getRepository(AccessRequest).save(this.dataSource.getRepository(AccessRequest).create({ ...request, state: 'pending' }));
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === '23505') return null;
      throw error;
    }
  }

  async createGrant(grant: NewGrant): Promise<ProviderGrant> {
    return this.dataSource.getRepository(ProviderGrant).save(this.dataSource.getRepository(ProviderGrant).create({ ...grant, revokedAt: null }));
  }

  /**
   * Decides a pending request of this patient in one transaction (the request row locked), and
   * makes the grant when approved. Null when there is no such pending request of theirs.
   */
  async decide(patientId: string, requestId: string, decision: 'approve' | 'decline', expiresAt: Date, now: Date): Promise<{ request: AccessRequest; grant: ProviderGrant | null } | null> {
    return this.dataSource.transaction(async (manager) => {
      const request = await manager.getRepository(AccessRequest).findOne({ where: { id: requestId, patientId, state: 'pending' }, lock: { mode: 'pessimistic_write' } });
      if (!request) return null;
      request.state = decision === 'approve' ? 'approved' : 'declined';
      request.decidedAt = now;
      await manager.getRepository(AccessRequest).save(request);
      if (decision === 'decline') return { request, grant: null };
      const grant = await manager.getRepository(ProviderGrant).save(
        manager.getRepository(ProviderGrant).create({
          patientId,
          providerId: request.providerId,
          provider: request.provider,
          patientFirstName: request.patientFirstName,
          source: 'approved',
          requestId: request.id,
          linkId: request.linkId,
          grantedAt: now,
          expiresAt,
          revokedAt: null,
        }),
      );
      return { request, grant };
    });
  }

  /** Revokes one of the patient's grants; false when it is not theirs or was revoked already. */
  async revoke(patientId: string, grantId: string, now: Date): Promise<boolean> {
    const result = await this.dataSource.getRepository(ProviderGrant).update({ id: grantId, patientId, revokedAt: IsNull() }, { revokedAt: now });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Ends the grants a share link made (source 'share-link') that are still active at `now`: revoked
   * now, in `manager`'s transaction (rows locked). `grantId` narrows it to one. The grants ended.
   */
  async endLinkGrants(manager: EntityManager, patientId: string, linkId: string, now: Date, grantId?: string): Promise<ProviderGrant[]> {
    const grants = await manager.getRepository(ProviderGrant).find({
      where: { patientId, linkId, source: 'share-link', revokedAt: IsNull(), expiresAt: MoreThan(now), ...(grantId ? { id: grantId } : {}) },
      lock: { mode: 'pessimistic_write' },
    });
    if (grants.length === 0) return [];
    await manager.getRepository(ProviderGrant).update({ id: In(grants.map((g) => g.id)), revokedAt: IsNull() }, { revokedAt: now });
    return grants.map((g) => Object.assign(g, { revokedAt: now }));
  }

  /** A link's expiry moved earlier: the active grants it made end by then too. How many were shortened. */
  async capLinkGrants(manager: EntityManager, patientId: string, linkId: string, endsAt: Date): Promise<number> {
    const result = await manager
      .getRepository(ProviderGrant)
      .update({ patientId, linkId, source: 'share-link', revokedAt: IsNull(), expiresAt: MoreThan(endsAt) }, { expiresAt: endsAt });
    return result.affected ?? 0;
  }

  /** Runs `work` in one transaction. */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  findGrant(patientId: string, grantId: string): Promise<ProviderGrant | null> {
    return this.dataSource.getRepository(ProviderGrant).findOneBy({ id: grantId, patientId });
  }
}
