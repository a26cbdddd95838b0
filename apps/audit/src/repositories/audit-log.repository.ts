import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AuditEventDto } from '@medfolio/contracts';
import { schemaOf } from '@medfolio/persistence';
import { AuditLogEntry } from '../entities/audit-log-entry.entity';
import { chainHash, GENESIS_HASH, type StoredEntry } from '../services/hash-chain';

export type AppendResult = 'appended' | 'duplicate';

/** The only I/O of the audit service: the audit_log table. */
@Injectable()
export class AuditLogRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  private get table(): string {
    return `"${schemaOf(this.dataSource)}"."audit_log"`;
  }

  /**
   * Appends one entry at the end of the chain. A transaction-scoped advisory lock serialises
   * appenders (several replicas may consume), so positions are gap-free and each entry links to the
   * one before. An event id already in the log is not appended twice (redelivery is harmless).
   */
  async append(event: AuditEventDto, recordedAt: Date): Promise<AppendResult> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [this.table]);
      const existing: unknown[] = await manager.query(`SELECT 1 FROM ${this.table} WHERE event_id = $1`, [event.id]);
      if (existing.length > 0) return 'duplicate';
      const last: { position: string; hash: string }[] = await manager.query(
        `SELECT position, hash FROM ${this.table} ORDER BY position DESC LIMIT 1`,
      );
      const prevHash = last[0]?.hash ?? GENESIS_HASH;
      const entry: StoredEntry = {
        position: last[0] ? Number(last[0].position) + 1 : 1,
        eventId: event.id,
        occurredAt: new Date(event.occurredAt),
        recordedAt,
        service: event.service,
        actor: event.actor,
        action: event.action,
        entityType: event.entityType,
        entityId: event.entityId ?? null,
        patientId: event.patientId ?? null,
        outcome: event.outcome,
        ip: event.ip ?? null,
        userAgent: event.userAgent ?? null,
        correlationId: event.correlationId,
        policy: event.policy ?? null,
        prevHash,
        hash: '',
      };
      entry.hash = chainHash(prevHash, entry);
      await manager.insert(AuditLogEntry, entry);
      return 'appended';
    });
  }

  /** A patient's entries, newest first. */
  async pageForPatient(patientId: string, page: number, pageSize: number): Promise<[AuditLogEntry[], number]> {
    return this.dataSource.getRepository(AuditLogEntry).findAndCount({
      where: { patientId },
      order: { position: 'DESC' },
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
  }

  /** Every entry in chain order, a batch at a time (bounded memory for any log size). */
  async *inChainOrder(batchSize = 1000): AsyncGenerator<AuditLogEntry> {
    let after = 0;
    for (;;) {
      const batch = await this.dataSource
        .getRepository(AuditLogEntry)
        .createQueryBuilder('e')
        .where('e.position > :after', { after })
        .orderBy('e.position', 'ASC')
        .take(batchSize)
        .getMany();
      if (batch.length === 0) return;
      yield* batch;
      after = batch[batch.length - 1]!.position;
    }
  }
}
