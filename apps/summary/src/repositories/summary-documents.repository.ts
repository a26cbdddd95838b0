import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In, IsNull, Not, type EntityManager } from 'typeorm';
import type { EngineInput, ExtractionResult, Observation } from '@medfolio/clinical';
import { schemaOf } from '@medfolio/persistence';
import { SummaryDocument, SummaryPage, SummaryPatient, TrendObservation } from '../entities';
import { replaceRecordObservations } from './observations.repository';
import { ensurePatientRow } from './summary-patient-row';

export interface NewDocument {
  documentId: string;
  userId: string;
  contentType: string;
  uploadedAt: Date;
}

/** A document taken for reading by this worker. */
export interface ClaimedDocument {
  documentId: string;
  userId: string;
  contentType: string;
  attempts: number;
}

/**
 * The documents the summary knows of, their extracted text and facts, and the per-patient rebuild
 * schedule those changes set. Reading work is claimed from rows (not kept in memory), so a restart
 * picks up exactly what was left.
 */
@Injectable()
export class SummaryDocumentsRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** A new upload to read; nothing when the row exists (a redelivery, or deleted before it arrived). */
  async noteUploaded(document: NewDocument, manager: EntityManager): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(SummaryDocument)
      .values({ ...document, filename: '', state: 'pending', problems: [], facts: [], noneKnown: [], documentDate: null, claimedUntil: null, attempts: 0 })
      .orIgnore()
      .execute();
    await ensurePatientRow(manager, document.userId);
  }

  /** Leaves a tombstone (text and facts gone) and schedules the patient's rebuild. */
  async noteDeleted(documentId: string, userId: string, rebuildAt: Date, manager: EntityManager): Promise<void> {
    await manager.delete(SummaryPage, { documentId });
    await manager.delete(TrendObservation, { documentId });
    await manager
      .createQueryBuilder()
      .insert()
      .into(SummaryDocument)
      .values({ documentId, userId, filename: '', contentType: '', uploadedAt: new Date(), state: 'deleted', problems: [], facts: [], noneKnown: [], documentDate: null, claimedUntil: null, attempts: 0 })
      .orUpdate(['state', 'problems', 'facts', 'none_known', 'claimed_until'], ['document_id'])
      .execute();
    await ensurePatientRow(manager, userId);
    await this.scheduleRebuild(userId, rebuildAt, manager);
  }

  /**
   * Takes up to `limit` documents to read: pending ones, and processing ones whose claim ran out
   * (their worker died). Two workers never take the same row (SKIP LOCKED).
   */
  async claim(limit: number, leaseSeconds: number): Promise<ClaimedDocument[]> {
    if (limit <= 0) return [];
    const s = `"${schemaOf(this.dataSource)}"`;
    const rows = (await this.dataSource.query(
      `UPDATE ${s}.documents d
          SET state = 'processing', claimed_until = now() + make_interval(secs => $2), attempts = d.attempts + 1
        WHERE d.document_id IN (
          SELECT document_id FROM ${s}.documents
           WHERE state = 'pending' OR (state = 'processing' AND claimed_until < now())
           ORDER BY uploaded_at
           LIMIT $1
           FOR UPDATE SKIP LOCKED)
        RETURNING d.document_id, d.user_id, d.content_type, d.attempts`,
      [limit, leaseSeconds],
    )) as unknown;
    // UPDATE ... RETURNING answers [rows, count] through TypeORM's postgres driver.
    const list = (Array.isArray(rows) && Array.isArray(rows[0]) ? rows[0] : rows) as Array<Record<string, unknown>>;
    return list.map((r) => ({
      documentId: String(r['document_id']),
      userId: String(r['user_id']),
      contentType: String(r['content_type']),
      attempts: Number(r['attempts']),
    }));
  }

  /** The display name (and where it was fetched from), known once the bytes arrive: shown while the document is still being read. */
  async noteFilename(documentId: string, filename: string, source: string | null = null): Promise<void> {
    await this.dataSource.getRepository(SummaryDocument).update({ documentId, state: 'processing' }, { filename, source });
  }

  /** The patient's documents fetched from somewhere (connections): id → where from and when it arrived. */
  async fetchedSources(userId: string): Promise<Map<string, { source: string; uploadedAt: Date }>> {
    const rows = await this.dataSource.getRepository(SummaryDocument).find({
      select: { documentId: true, source: true, uploadedAt: true },
      where: { userId, state: Not('deleted'), source: Not(IsNull()) },
    });
    return new Map(rows.map((r) => [r.documentId, { source: r.source as string, uploadedAt: r.uploadedAt }]));
  }

  /** Extends the claims of documents still being read. */
  async renew(documentIds: string[], leaseSeconds: number): Promise<void> {
    if (documentIds.length === 0) return;
    await this.dataSource
      .createQueryBuilder()
      .update(SummaryDocument)
      .set({ claimedUntil: () => `now() + make_interval(secs => ${Math.floor(leaseSeconds)})` })
      .where({ documentId: In(documentIds), state: 'processing' })
      .execute();
  }

  /**
   * Stores what was read (text per page, facts, problems) and schedules the rebuild, in one
   * transaction. False when the document was deleted meanwhile (nothing is stored).
   */
  async finish(
    claimed: ClaimedDocument,
    filename: string,
    result: ExtractionResult,
    state: 'read' | 'unreadable',
    problems: string[],
    rebuildAt: Date,
    /** Its results and vital signs read from the file itself (C-CDA, FHIR; none for other documents). */
    trends: { kind: 'ccda' | 'fhir' | null; observations: readonly Observation[] } = { kind: null, observations: [] },
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const updated = await manager
        .createQueryBuilder()
        .update(SummaryDocument)
        .set({ filename, state, problems, facts: result.facts, noneKnown: result.noneKnown, documentDate: result.documentDate ?? null, claimedUntil: null })
        .where({ documentId: claimed.documentId, state: 'processing' })
        .execute();
      if ((updated.affected ?? 0) === 0) return false;
      // A retried read (claim ran out mid-way) replaces what a dead worker may have half-left.
      await manager.delete(SummaryPage, { documentId: claimed.documentId });
      const pages = result.texts.map((t, seq) => ({
        documentId: claimed.documentId,
        seq,
        filename: t.filename,
        page: t.page,
        text: t.text,
        ocr: t.ocr,
        confidence: t.confidence ?? null,
        coveredByFacts: t.coveredByFacts ?? false,
      }));
      for (let i = 0; i < pages.length; i += 500) await manager.insert(SummaryPage, pages.slice(i, i + 500));
      await replaceRecordObservations(manager, claimed, trends.kind, trends.observations);
      await this.scheduleRebuild(claimed.userId, rebuildAt, manager);
      return true;
    });
  }

  /** The patient's documents (not deleted), oldest first. */
  listForUser(userId: string): Promise<SummaryDocument[]> {
    return this.dataSource.getRepository(SummaryDocument).find({
      where: { userId, state: Not('deleted') },
      order: { uploadedAt: 'ASC', documentId: 'ASC' },
    });
  }

  /** What the engine reads: every document of the patient that was read, with its pages. */
  async engineInputs(userId: string): Promise<EngineInput[]> {
    const documents = await this.dataSource.getRepository(SummaryDocument).find({
      where: { userId, state: 'read' },
      order: { uploadedAt: 'ASC', documentId: 'ASC' },
    });
    if (documents.length === 0) return [];
    const pages = await this.dataSource.getRepository(SummaryPage).find({
      where: { documentId: In(documents.map((d) => d.documentId)) },
      order: { documentId: 'ASC', seq: 'ASC' },
    });
    return documents.map((d) => {
      const input: EngineInput = {
        documentId: d.documentId,
        filename: d.filename,
        texts: pages
          .filter((p) => p.documentId === d.documentId)
          .map((p) => ({
            filename: p.filename,
            page: p.page,
            text: p.text,
            ocr: p.ocr,
            ...(p.confidence !== null ? { confidence: p.confidence } : {}),
            ...(p.coveredByFacts ? { coveredByFacts: true } : {}),
          })),
        facts: d.facts,
        noneKnown: d.noneKnown,
        problems: [],
        uploadedAt: d.uploadedAt.toISOString(),
      };
      if (d.documentDate) input.documentDate = d.documentDate;
      return input;
    });
  }

  /** Whether any of the patient's documents waits to be read (a build would soon be outdated). */
  async hasUnread(userId: string): Promise<boolean> {
    const count = await this.dataSource.getRepository(SummaryDocument).countBy({ userId, state: In(['pending', 'processing']) });
    return count > 0;
  }

  /** The debounce: every change moves the patient's rebuild to `at`. */
  private async scheduleRebuild(userId: string, at: Date, manager: EntityManager): Promise<void> {
    await manager.update(SummaryPatient, { userId }, { rebuildDueAt: at });
  }
}
