import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SUMMARY_SUBJECTS, type SummaryBuiltEvent, type SummaryItem } from '@medfolio/contracts';
import { Outbox } from '@medfolio/messaging/outbox';
import { schemaOf } from '@medfolio/persistence';
import { FactOverride, SummaryPatient, SummaryVersion } from '../entities';
import type { EngineOutput, Override } from '../services/summary-model';
import { ensurePatientRow } from './summary-patient-row';

/** What a new version is made of; `make` runs inside the transaction that holds the patient's row. */
export interface VersionDraft {
  engine: string;
  output: EngineOutput;
  sections: SummaryItem['sections'];
  text: string;
}

export interface PatientState {
  latestVersion: number;
  confirmedVersion: number | null;
  rebuildDueAt: Date | null;
}

/**
 * Versions, the patient's fact changes and the per-patient state. Every new version is written
 * with its summary.summary.built.v1 event (transactional outbox) under a lock on the patient's row,
 * so versions are numbered 1, 2, 3... with no gap or duplicate.
 */
@Injectable()
export class SummaryVersionsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async patient(userId: string): Promise<PatientState | null> {
    const row = await this.dataSource.getRepository(SummaryPatient).findOneBy({ userId });
    return row ? { latestVersion: row.latestVersion, confirmedVersion: row.confirmedVersion, rebuildDueAt: row.rebuildDueAt } : null;
  }

  latest(userId: string, version: number): Promise<SummaryVersion | null> {
    return version > 0 ? this.dataSource.getRepository(SummaryVersion).findOneBy({ userId, version }) : Promise.resolve(null);
  }

  /** The version the patient confirmed (what share links show), in one query; null when none. */
  confirmedVersion(userId: string): Promise<SummaryVersion | null> {
    return this.dataSource
      .getRepository(SummaryVersion)
      .createQueryBuilder('v')
      .innerJoin(SummaryPatient, 'p', 'p.user_id = v.user_id AND p.confirmed_version = v.version')
      .where('v.user_id = :userId', { userId })
      .getOne();
  }

  async overrides(userId: string, manager?: EntityManager): Promise<Override[]> {
    const rows = await (manager ?? this.dataSource.manager).getRepository(FactOverride).find({ where: { userId }, order: { createdAt: 'ASC', factId: 'ASC' } });
    return rows.map((r) => ({ factId: r.factId, section: r.section, added: r.added, hidden: r.hidden, text: r.text }));
  }

  /**
   * Takes up to `limit` patients whose rebuild is due, pushing their due time `leaseSeconds` ahead
   * (a crashed build is retried then). Returns each with the due time it now holds.
   */
  async claimDue(limit: number, leaseSeconds: number): Promise<Array<{ userId: string; claimedUntil: Date }>> {
    const s = `"${schemaOf(this.dataSource)}"`;
    const result = (await this.dataSource.query(
      `UPDATE ${s}.patients p SET rebuild_due_at = now() + make_interval(secs => $2)
        WHERE p.user_id IN (
          SELECT user_id FROM ${s}.patients
           WHERE rebuild_due_at <= now()
           ORDER BY rebuild_due_at
           LIMIT $1
           FOR UPDATE SKIP LOCKED)
        RETURNING p.user_id, p.rebuild_due_at`,
      [limit, leaseSeconds],
    )) as unknown;
    const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as Array<Record<string, unknown>>;
    return rows.map((r) => ({ userId: String(r['user_id']), claimedUntil: new Date(r['rebuild_due_at'] as string | Date) }));
  }

  /** Gives back a claimed rebuild for later (documents still being read); a newer change keeps its own time. */
  async postpone(userId: string, claimedUntil: Date, at: Date): Promise<void> {
    await this.dataSource.getRepository(SummaryPatient).update({ userId, rebuildDueAt: claimedUntil }, { rebuildDueAt: at });
  }

  /**
   * Writes the next version. `make` gets the patient's changes, read under the lock, and returns the
   * draft (or null to write nothing); `claimedUntil` clears the patient's due rebuild unless a newer
   * change moved it meanwhile. Returns the new version number, or null.
   */
  async write(
    userId: string,
    make: (overrides: Override[], latest: SummaryVersion | null, state: PatientState) => VersionDraft | null,
    options: {
      claimedUntil?: Date;
      /** Runs first under the lock (a review call checks and stores the patient's change); may throw to write nothing. */
      before?: (manager: EntityManager, latest: SummaryVersion | null, overrides: Override[]) => Promise<void>;
      /** Runs last under the lock, once everything is written and before the commit; may throw to write nothing. */
      after?: (manager: EntityManager, version: number) => Promise<void>;
    } = {},
  ): Promise<number | null> {
    return this.dataSource.transaction(async (manager) => {
      await ensurePatientRow(manager, userId);
      const patient = await manager.getRepository(SummaryPatient).findOne({ where: { userId }, lock: { mode: 'pessimistic_write' } });
      if (!patient) throw new Error('The patient row vanished inside its transaction');
      const state: PatientState = { latestVersion: patient.latestVersion, confirmedVersion: patient.confirmedVersion, rebuildDueAt: patient.rebuildDueAt };
      const latest = patient.latestVersion > 0 ? await manager.getRepository(SummaryVersion).findOneBy({ userId, version: patient.latestVersion }) : null;
      if (options.before) await options.before(manager, latest, await this.overrides(userId, manager));
      const draft = make(await this.overrides(userId, manager), latest, state);
      if (!draft) return null;
      const version = patient.latestVersion + 1;
      await manager.insert(SummaryVersion, {
        userId,
        version,
        engine: draft.engine,
        engineOutput: draft.output,
        sections: draft.sections,
        text: draft.text,
        builtAt: new Date(),
      });
      const clears = options.claimedUntil && patient.rebuildDueAt?.getTime() === options.claimedUntil.getTime();
      await manager.update(SummaryPatient, { userId }, { latestVersion: version, ...(clears ? { rebuildDueAt: null } : {}) });
      await Outbox.add(manager, SUMMARY_SUBJECTS.built, { user_id: userId, version } satisfies SummaryBuiltEvent);
      if (options.after) await options.after(manager, version);
      return version;
    });
  }

  async upsertOverride(manager: EntityManager, userId: string, change: Override): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(FactOverride)
      .values({ userId, factId: change.factId, section: change.section, added: change.added, hidden: change.hidden, text: change.text, createdAt: new Date() })
      .orUpdate(['hidden', 'text', 'section'], ['user_id', 'fact_id'])
      .execute();
  }

  async deleteOverride(manager: EntityManager, userId: string, factId: string): Promise<void> {
    await manager.delete(FactOverride, { userId, factId });
  }

  /** Marks `version` confirmed if it is still the latest. False otherwise. */
  async confirm(userId: string, version: number): Promise<boolean> {
    const result = await this.dataSource.getRepository(SummaryPatient).update({ userId, latestVersion: version }, { confirmedVersion: version });
    return (result.affected ?? 0) > 0;
  }
}
