import { Inject, Injectable } from '@nestjs/common';
import { DataSource, Not, QueryFailedError, type EntityManager } from 'typeorm';
import { LicenseDispute, ProviderLicense } from '../entities';
import type { LicenseReview } from '../entities/provider-license.entity';

const uniqueViolation = (error: unknown) => error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === '23505';

/**
 * Licence claims and disputes. A licence number is on one account at most among claims that are not
 * rejected (the partial unique index decides races).
 */
@Injectable()
export class ProviderLicensesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  findByUser(userId: string): Promise<ProviderLicense | null> {
    return this.dataSource.getRepository(ProviderLicense).findOneBy({ userId });
  }

  /** Does the account hold the provider role: a claim that is not rejected (self-attested or verified)? */
  async holdsRole(userId: string): Promise<boolean> {
    return (await this.dataSource.getRepository(ProviderLicense).countBy({ userId, review: Not('rejected' as LicenseReview) })) > 0;
  }

  /** The claim holding this number (not rejected), if any. */
  findByNumber(licenseNumber: string): Promise<ProviderLicense | null> {
    return this.dataSource.getRepository(ProviderLicense).findOneBy({ licenseNumber, review: Not('rejected' as LicenseReview) });
  }

  /**
   * Stores (or replaces) the account's claim. Returns false when the number is already another
   * account's (a concurrent claim lost the race on the unique index).
   */
  async save(license: ProviderLicense): Promise<boolean> {
    try {
      await this.dataSource.getRepository(ProviderLicense).upsert(license, ['userId']);
      return true;
    } catch (error) {
      if (uniqueViolation(error)) return false;
      throw error;
    }
  }

  /** Drops the account's claim (a name change): the role goes with it. True when there was one. */
  async drop(userId: string, manager?: EntityManager): Promise<boolean> {
    const result = await (manager ?? this.dataSource.manager).getRepository(ProviderLicense).delete({ userId });
    return (result.affected ?? 0) > 0;
  }

  /**
   * An operator's decision on a claim, only from the state the operator saw (`from`): false when the
   * claim changed meanwhile (dropped, re-claimed, decided by someone else).
   */
  async review(userId: string, licenseNumber: string, from: LicenseReview, to: LicenseReview, by: string, note: string, at: Date, manager?: EntityManager): Promise<boolean> {
    const result = await (manager ?? this.dataSource.manager)
      .getRepository(ProviderLicense)
      .update({ userId, licenseNumber, review: from }, { review: to, reviewedBy: by, reviewNote: note, reviewedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** Claims waiting for an operator, oldest first. */
  pending(): Promise<ProviderLicense[]> {
    return this.dataSource.getRepository(ProviderLicense).find({ where: { review: 'pending' }, order: { verifiedAt: 'ASC' } });
  }

  async hasOpenDispute(licenseNumber: string): Promise<boolean> {
    return (await this.dataSource.getRepository(LicenseDispute).countBy({ licenseNumber, state: 'open' })) > 0;
  }

  /** Files a dispute, or answers the caller's open one on the same number (filing twice is one dispute). */
  async fileDispute(dispute: LicenseDispute): Promise<LicenseDispute> {
    const repository = this.dataSource.getRepository(LicenseDispute);
    try {
      await repository.insert(dispute);
      return dispute;
    } catch (error) {
      if (!uniqueViolation(error)) throw error;
      const open = await repository.findOneBy({ licenseNumber: dispute.licenseNumber, claimantId: dispute.claimantId, state: 'open' });
      if (!open) throw error;
      return open;
    }
  }

  openDisputes(): Promise<LicenseDispute[]> {
    return this.dataSource.getRepository(LicenseDispute).find({ where: { state: 'open' }, order: { createdAt: 'ASC' } });
  }

  findDispute(id: string): Promise<LicenseDispute | null> {
    return this.dataSource.getRepository(LicenseDispute).findOneBy({ id });
  }

  /** Decides an open dispute; when upheld, the holder's claim is rejected in the same transaction (its number is freed). */
  async decideDispute(dispute: LicenseDispute, state: 'upheld' | 'dismissed', by: string, note: string, at: Date): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const decided = await manager.getRepository(LicenseDispute).update({ id: dispute.id, state: 'open' }, { state, decidedBy: by, decidedAt: at, note });
      if ((decided.affected ?? 0) === 0) return false;
      if (state === 'upheld') {
        await manager
          .getRepository(ProviderLicense)
          .update({ userId: dispute.holderId, licenseNumber: dispute.licenseNumber, review: Not('rejected' as LicenseReview) }, { review: 'rejected', reviewedBy: by, reviewNote: `dispute ${dispute.id} upheld`, reviewedAt: at });
      }
      return true;
    });
  }
}
