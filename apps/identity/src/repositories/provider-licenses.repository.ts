import { Inject, Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError } from 'typeorm';
import { ProviderLicense } from '../entities';

/** Verified licences. A licence number is on one account at most (the unique index decides races). */
@Injectable()
export class ProviderLicensesRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  findByUser(userId: string): Promise<ProviderLicense | null> {
    return this.dataSource.getRepository(ProviderLicense).findOneBy({ userId });
  }

  findByNumber(licenseNumber: string): Promise<ProviderLicense | null> {
    return this.dataSource.getRepository(ProviderLicense).findOneBy({ licenseNumber });
  }

  /**
   * Stores (or replaces) the account's licence. Returns false when the number is already another
   * account's (a concurrent claim lost the race on the unique index).
   */
  async save(license: ProviderLicense): Promise<boolean> {
    try {
      await this.dataSource.getRepository(ProviderLicense).upsert(license, ['userId']);
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === '23505') return false;
      throw error;
    }
  }
}
