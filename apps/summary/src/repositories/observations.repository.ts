import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Observation } from '@medfolio/clinical';
import { schemaOf } from '@medfolio/persistence';
import { SummaryDocument, TrendObservation } from '../entities';

/** A document read before trends existed, whose observations the backfill reads. */
export interface UnreadObservations {
  documentId: string;
  userId: string;
}

const INSERT_BATCH = 500;

async function insertRows(manager: EntityManager, rows: TrendObservation[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await manager.insert(TrendObservation, rows.slice(i, i + INSERT_BATCH));
}

function rowsOf(documentId: string, userId: string, origin: 'record' | 'facts', list: readonly Observation[]): TrendObservation[] {
  return list.map((observation, seq) => Object.assign(new TrendObservation(), { documentId, userId, origin, seq, observation }));
}

/**
 * A document's observations read from its C-CDA or FHIR file, in the transaction that files its read:
 * what an earlier read (or a dead worker) left is replaced, and the document is marked as read for them.
 */
export async function replaceRecordObservations(
  manager: EntityManager,
  document: { documentId: string; userId: string },
  kind: 'ccda' | 'fhir' | null,
  observations: readonly Observation[],
): Promise<void> {
  await manager.delete(TrendObservation, { documentId: document.documentId });
  await insertRows(manager, rowsOf(document.documentId, document.userId, 'record', observations));
  await manager.update(SummaryDocument, { documentId: document.documentId }, { recordKind: kind, observationsRead: true });
}

/** The lab results and vital signs the summary keeps per patient, for health trends. */
@Injectable()
export class ObservationsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Every observation of the patient's documents that are read (not deleted), oldest document first. */
  async listForUser(userId: string): Promise<Observation[]> {
    const s = `"${schemaOf(this.dataSource)}"`;
    const rows = (await this.dataSource.query(
      `SELECT o.observation FROM ${s}.observations o
         JOIN ${s}.documents d ON d.document_id = o.document_id AND d.state = 'read'
        WHERE o.user_id = $1
        ORDER BY d.uploaded_at, o.document_id, o.origin, o.seq`,
      [userId],
    )) as { observation: Observation }[];
    return rows.map((r) => r.observation);
  }

  /** Removes a document's observations (the document was deleted), in the transaction that notes it. */
  async deleteForDocument(documentId: string, manager: EntityManager): Promise<void> {
    await manager.delete(TrendObservation, { documentId });
  }

  /**
   * The observations the engine read from facts (PDFs, text, and structured records read before
   * trends existed that the backfill could not read again), by document: each rebuild replaces the
   * patient's. Documents whose record observations are kept are left out by the caller.
   */
  async replaceFacts(userId: string, byDocument: ReadonlyMap<string, readonly Observation[]>, manager?: EntityManager): Promise<void> {
    const run = async (m: EntityManager) => {
      await m.delete(TrendObservation, { userId, origin: 'facts' });
      const known = byDocument.size
        ? new Set(
            (await m.getRepository(SummaryDocument).find({ select: { documentId: true }, where: { userId, state: 'read' } })).map((d) => d.documentId),
          )
        : new Set<string>();
      const rows = [...byDocument].filter(([documentId]) => known.has(documentId)).flatMap(([documentId, list]) => rowsOf(documentId, userId, 'facts', list));
      await insertRows(m, rows);
    };
    await (manager ? run(manager) : this.dataSource.transaction(run));
  }

  /** The documents of the patient whose observations come from the file itself (C-CDA, FHIR). */
  async recordDocuments(userId: string): Promise<Set<string>> {
    const rows = await this.dataSource.getRepository(SummaryDocument).find({ select: { documentId: true, recordKind: true }, where: { userId, state: 'read' } });
    return new Set(rows.filter((r) => r.recordKind !== null).map((r) => r.documentId));
  }

  /** Up to `limit` documents read before trends existed (the start-up backfill's work). */
  async unread(limit: number): Promise<UnreadObservations[]> {
    const rows = await this.dataSource.getRepository(SummaryDocument).find({
      select: { documentId: true, userId: true },
      where: { state: 'read', observationsRead: false },
      order: { uploadedAt: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({ documentId: r.documentId, userId: r.userId }));
  }

  /**
   * Schedules a rebuild for the patients of these (backfilled) documents that are not C-CDA or FHIR
   * records: the rebuild writes their results read from facts.
   */
  async scheduleRebuilds(documentIds: string[], at: Date): Promise<void> {
    if (documentIds.length === 0) return;
    const s = `"${schemaOf(this.dataSource)}"`;
    await this.dataSource.query(
      `UPDATE ${s}.patients SET rebuild_due_at = $2
        WHERE user_id IN (SELECT user_id FROM ${s}.documents WHERE document_id = ANY($1::uuid[]) AND state = 'read' AND record_kind IS NULL)`,
      [documentIds, at],
    );
  }

  /** Files the backfill's read of one document (nothing when it was deleted or read again meanwhile). */
  async fileBackfill(document: UnreadObservations, kind: 'ccda' | 'fhir' | null, observations: readonly Observation[]): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const still = await manager
        .getRepository(SummaryDocument)
        .createQueryBuilder('d')
        .setLock('pessimistic_write')
        .where('d.document_id = :id AND d.state = :state AND NOT d.observations_read', { id: document.documentId, state: 'read' })
        .getOne();
      if (!still) return false;
      // Facts-made observations an earlier rebuild wrote for a record go: the record's own replace them.
      await manager.delete(TrendObservation, kind ? { documentId: document.documentId } : { documentId: document.documentId, origin: 'record' });
      await insertRows(manager, rowsOf(document.documentId, document.userId, 'record', observations));
      await manager.update(SummaryDocument, { documentId: document.documentId }, { recordKind: kind, observationsRead: true });
      return true;
    });
  }
}
