import { Inject, Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import { ProviderAccount, User } from '../entities';

const uniqueViolation = (error: unknown) => error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === '23505';

/** Sign-in provider accounts (issuer, subject) linked to users. */
@Injectable()
export class ProviderAccountsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** The user the provider account is linked to, if any. */
  async findUser(issuer: string, subject: string): Promise<User | null> {
    const link = await this.dataSource.getRepository(ProviderAccount).findOneBy({ issuer, subject });
    return link ? this.dataSource.getRepository(User).findOneBy({ id: link.userId }) : null;
  }

  /** The account of `provider` linked to the user, if any. */
  findByUser(userId: string, provider: string): Promise<ProviderAccount | null> {
    return this.dataSource.getRepository(ProviderAccount).findOneBy({ userId, provider });
  }

  /**
   * Links the provider account to the user (inside the caller's transaction when given one). False
   * when it is linked already, or the user has another account of that provider (a concurrent
   * sign-in won the race on the keys); inside a transaction, that leaves the transaction failed:
   * throw to roll it back.
   */
  async link(link: Pick<ProviderAccount, 'issuer' | 'subject' | 'provider' | 'userId'>, manager?: EntityManager): Promise<boolean> {
    try {
      await (manager ?? this.dataSource.manager).insert(ProviderAccount, link);
      return true;
    } catch (error) {
      if (uniqueViolation(error)) return false;
      throw error;
    }
  }
}
