import { Inject, Injectable } from '@nestjs/common';
import { DataSource, LessThan } from 'typeorm';
import { schemaOf } from '@medfolio/persistence';
import { AuthFailure } from '../entities';

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

  /** Housekeeping: drops failures older than the window. */
  async prune(before: Date): Promise<void> {
    await this.dataSource.getRepository(AuthFailure).delete({ occurredAt: LessThan(before) });
  }
}
