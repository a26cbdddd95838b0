import { Inject, Injectable } from '@nestjs/common';
import { DataSource, LessThan, MoreThan, Not } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';
import { AuthFailure } from '../entities';

/** Rows of this scope are not failures but clients an account has signed in from (see BruteForceService). */
const KNOWN_CLIENT = 'known-client';
const KNOWN_FOR_MS = 30 * 24 * 3600 * 1000;

@Injectable()
export class AuthFailuresRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async record(scope: string, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.dataSource.getRepository(AuthFailure).insert(keys.map((subjectKey) => ({ scope, subjectKey })));
  }

  /** Failures since `since` for a key, and the oldest of them (to say when the limit lifts). */
  async window(scope: string, subjectKey: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
    const [row] = (await this.dataSource.query(
      `SELECT count(*)::int AS count, min(occurred_at) AS oldest FROM "${schemaOf(this.dataSource)}".auth_failures
       WHERE scope = $1 AND subject_key = $2 AND occurred_at > $3`,
      [scope, subjectKey, since],
    )) as { count: number; oldest: Date | null }[];
    return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
  }

  /** A success clears the account's failures for that scope. */
  async clear(scope: string, subjectKey: string): Promise<void> {
    await this.dataSource.getRepository(AuthFailure).delete({ scope, subjectKey });
  }

  async isKnownClient(key: string, now: Date): Promise<boolean> {
    return this.dataSource.getRepository(AuthFailure).exists({ where: { scope: KNOWN_CLIENT, subjectKey: key, occurredAt: MoreThan(new Date(now.getTime() - KNOWN_FOR_MS)) } });
  }

  /** Remembers (or refreshes) a client an account proved itself from. */
  async rememberClient(key: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.getRepository(AuthFailure).delete({ scope: KNOWN_CLIENT, subjectKey: key });
      await manager.getRepository(AuthFailure).insert({ scope: KNOWN_CLIENT, subjectKey: key });
    });
  }

  /** Housekeeping: drops failures older than the window, and known clients older than 30 days. */
  async prune(before: Date, now = new Date()): Promise<void> {
    await this.dataSource.getRepository(AuthFailure).delete({ scope: Not(KNOWN_CLIENT), occurredAt: LessThan(before) });
    await this.dataSource.getRepository(AuthFailure).delete({ scope: KNOWN_CLIENT, occurredAt: LessThan(new Date(now.getTime() - KNOWN_FOR_MS)) });
  }
}
