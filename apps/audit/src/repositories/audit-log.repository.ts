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
   * Appends entries at the end of the chain, in the order given, in ONE transaction (the audit
   * writer hands it what arrived together). A transaction-scoped advisory lock serialises appenders
   * (several replicas may consume), so positions are gap-free and each entry links to the one
   * before. An event id already in the log, or given twice, is not appended again (redelivery is
   * harmless): its result is 'duplicate'. Results are in the order of `events`.
   */
  async appendBatch(events: AuditEventDto[], recordedAt: Date): Promise<AppendResult[]> {
    if (events.length === 0) return [];
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [this.table]);
      const stored: { event_id: string }[] = await manager.query(
        `SELECT event_id FROM ${this.table} WHERE event_id = ANY($1::uuid[])`,
        [events.map((event) => event.id)],
      );
      const seen = new Set(stored.map((row) => row.event_id.toLowerCase()));
      const last: { position: string; hash: string }[] = await manager.query(
        `SELECT position, hash FROM ${this.table} ORDER BY position DESC LIMIT 1`,
      );
      let prevHash = last[0]?.hash ?? GENESIS_HASH;
      let position = last[0] ? Number(last[0].position) : 0;
      const entries: StoredEntry[] = [];
      const results = events.map((event): AppendResult => {
        const id = event.id.toLowerCase();
        if (seen.has(id)) return 'duplicate';
        seen.add(id);
        position += 1;
        const entry = toEntry(event, position, recordedAt, prevHash);
        entries.push(entry);
        prevHash = entry.hash;
        return 'appended';
      });
      if (entries.length > 0) await manager.query(INSERT_ENTRIES(this.table), columnsOf(entries));
      return results;
    });
  }

  /** Appends one entry (see appendBatch). */
  async append(event: AuditEventDto, recordedAt: Date): Promise<AppendResult> {
    return (await this.appendBatch([event], recordedAt))[0]!;
  }

  /**
   * A patient's entries, newest first, and how many there are: two queries at once on the
   * (patient_id, position) index. A plain count(*), where TypeORM's findAndCount counts
   * DISTINCT primary keys (a sort of every entry of the patient on each page view).
   */
  async pageForPatient(patientId: string, page: number, pageSize: number): Promise<[AuditLogEntry[], number]> {
    const [entries, counted] = await Promise.all([
      this.dataSource.getRepository(AuditLogEntry).find({
        where: { patientId },
        order: { position: 'DESC' },
        skip: (page - 1) * pageSize,
        take: pageSize,
      }),
      this.dataSource.query(`SELECT count(*)::int AS total FROM ${this.table} WHERE patient_id = $1`, [patientId]) as Promise<{ total: number }[]>,
    ]);
    return [entries, counted[0]?.total ?? 0];
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

function toEntry(event: AuditEventDto, position: number, recordedAt: Date, prevHash: string): StoredEntry {
  const entry: StoredEntry = {
    position,
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
  return entry;
}

/**
 * One INSERT for a whole batch, a column per array parameter (17 parameters whatever the batch
 * size; cheaper to build and to parse than TypeORM's multi-row insert, which showed in the
 * writer's profile).
 */
const INSERT_ENTRIES = (table: string) => `
  INSERT INTO ${table} (position, event_id, occurred_at, recorded_at, service, actor, action, entity_type, entity_id,
                        patient_id, outcome, ip, user_agent, correlation_id, policy, prev_hash, hash)
  SELECT * FROM unnest($1::bigint[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::text[], $6::text[], $7::text[],
                       $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
                       $16::text[], $17::text[])`;

function columnsOf(entries: StoredEntry[]): unknown[] {
  return [
    entries.map((e) => e.position),
    entries.map((e) => e.eventId),
    entries.map((e) => e.occurredAt.toISOString()),
    entries.map((e) => e.recordedAt.toISOString()),
    entries.map((e) => e.service),
    entries.map((e) => e.actor),
    entries.map((e) => e.action),
    entries.map((e) => e.entityType),
    entries.map((e) => e.entityId),
    entries.map((e) => e.patientId),
    entries.map((e) => e.outcome),
    entries.map((e) => e.ip),
    entries.map((e) => e.userAgent),
    entries.map((e) => e.correlationId),
    entries.map((e) => e.policy),
    entries.map((e) => e.prevHash),
    entries.map((e) => e.hash),
  ];
}
