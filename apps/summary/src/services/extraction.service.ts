import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { extractDocument, type ExtractionResult, type OcrScheduler } from '@medfolio/clinical';
import type { DocumentDeletedEvent, DocumentUploadedEvent } from '@medfolio/contracts';
import { PollingLoop, type OnceInTransaction } from '@medfolio/messaging/outbox';
import { SummaryConfig } from '../config';
import { DocumentContentRepository, DocumentGoneError } from '../repositories/document-content.repository';
import { SummaryDocumentsRepository, type ClaimedDocument } from '../repositories/summary-documents.repository';
import { ObservationsRepository } from '../repositories/observations.repository';
import { BuilderService } from './builder.service';
import { observationsOfRecord } from './trends-model';
import { OCR_SCHEDULER } from './engine';

/** How often the reader looks for work besides being kicked (claims run out, other replicas' rows). */
const POLL_MS = 2000;
/** After this many failed attempts (the service unreachable, a crash while reading), a document is given up. */
export const MAX_ATTEMPTS = 3;

export const READ_MESSAGES = {
  nothingRead: 'Nothing could be read from this document.',
  gone: 'The document is no longer stored.',
  failed: 'This document could not be read. Try uploading it again.',
} as const;

/** How a finished read is filed: read (with any per-part problems) or unreadable. */
export function verdictOf(result: ExtractionResult, filename: string): { state: 'read' | 'unreadable'; problems: string[] } {
  const problems = result.problems.map((p) => (p.filename && p.filename !== filename ? `${p.filename}: ${p.reason}` : p.reason));
  const anything = result.texts.some((t) => t.text.trim() !== '') || result.facts.length > 0 || result.noneKnown.length > 0;
  if (anything) return { state: 'read', problems };
  return { state: 'unreadable', problems: problems.length > 0 ? problems : [READ_MESSAGES.nothingRead] };
}

/**
 * Reads uploaded documents off the request path: the DOCUMENTS events only note the work in rows
 * (idempotently, in the dedup transaction); a loop claims rows and reads up to
 * SUMMARY_EXTRACT_CONCURRENCY documents at a time (spool to a temporary file, extractDocument with
 * the shared OCR workers, delete the file). The work lives in rows: a restart resumes what was
 * pending, a read cut off mid-way is taken again when its claim runs out, and a finished one is
 * never read twice. Each finished read (or deletion) kicks the builder, which looks at once; the
 * due time in the patient's row still holds the rebuild back until the debounce has passed.
 */
@Injectable()
export class ExtractionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExtractionService.name);
  private readonly loop = new PollingLoop(() => this.pass(), POLL_MS);
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private renewTimer?: NodeJS.Timeout;
  private backfilling: Promise<void> = Promise.resolve();

  constructor(
    @Inject(SummaryConfig) private readonly config: SummaryConfig,
    @Inject(SummaryDocumentsRepository) private readonly documents: SummaryDocumentsRepository,
    @Inject(DocumentContentRepository) private readonly content: DocumentContentRepository,
    @Inject(OCR_SCHEDULER) private readonly ocr: OcrScheduler,
    /** Told after each finished read or deletion, so the debounced rebuild is looked at once. */
    @Inject(BuilderService) private readonly builder: Pick<BuilderService, 'kick'>,
    @Inject(ObservationsRepository) private readonly observations: ObservationsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
    const every = Math.max(1000, (this.config.extractLeaseSeconds * 1000) / 3);
    this.renewTimer = setInterval(() => void this.renewClaims(), every);
    this.renewTimer.unref();
    this.backfilling = this.backfill();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.renewTimer);
    this.abort.abort();
    await this.loop.stop();
    await Promise.allSettled([...this.inFlight.values(), this.backfilling]);
    await this.ocr.shutdown();
  }

  /** Notes the work through `once` (the kit's record of the message, see DocumentEventsController), then looks for it. */
  async noteUploaded(uploaded: DocumentUploadedEvent, once: OnceInTransaction): Promise<void> {
    const { document_id: documentId, owner_id: userId, content_type: contentType, uploaded_at: uploadedAt } = uploaded;
    await once((manager) =>
      this.documents.noteUploaded({ documentId, userId, contentType, uploadedAt: new Date(uploadedAt) }, manager),
    );
    this.loop.kick();
  }

  async noteDeleted(deleted: DocumentDeletedEvent, once: OnceInTransaction): Promise<void> {
    const { document_id: documentId, owner_id: userId } = deleted;
    await once((manager) => this.documents.noteDeleted(documentId, userId, this.rebuildAt(), manager));
    this.builder.kick();
  }

  /** Runs one pass now (tests; the loop runs them on its own). Resolves when the reads it started end. */
  async drain(): Promise<void> {
    await this.pass();
    await Promise.allSettled(this.inFlight.values());
  }

  private async pass(): Promise<void> {
    try {
      const free = this.config.extractConcurrency - this.inFlight.size;
      const claimed = await this.documents.claim(free, this.config.extractLeaseSeconds);
      for (const document of claimed) {
        const work = this.read(document).finally(() => {
          this.inFlight.delete(document.documentId);
          this.loop.kick();
        });
        this.inFlight.set(document.documentId, work);
      }
    } catch (error) {
      this.logger.error({ err: String(error) }, 'summary: claiming documents to read failed');
    }
  }

  /** Reads one claimed document. Never throws: a failure leaves the claim to run out (retry) or gives up. */
  private async read(claimed: ClaimedDocument): Promise<void> {
    const started = Date.now();
    try {
      const spooled = await this.content.spool(claimed.documentId, claimed.userId, this.abort.signal);
      try {
        await this.documents.noteFilename(claimed.documentId, spooled.filename, spooled.source ?? null);
        const result = await extractDocument(
          { documentId: claimed.documentId, filename: spooled.filename, contentType: spooled.contentType, path: spooled.path },
          { ocrScheduler: this.ocr, signal: this.abort.signal, logger: this.extractLogger(claimed.documentId) },
        );
        const { state, problems } = verdictOf(result, spooled.filename);
        // Health trends: a C-CDA's or FHIR resource's results and vitals, read from the file itself (ranges and codes kept).
        const record = await this.content.readRecord(spooled.path);
        const observations = state === 'read' ? observationsOfRecord(record, { document_id: claimed.documentId, filename: spooled.filename }) : [];
        await this.documents.finish(claimed, spooled.filename, result, state, problems, this.rebuildAt(), { kind: record?.kind ?? null, observations });
        // Counts only: never the text, the facts or the filename.
        this.logger.log(
          { documentId: claimed.documentId, state, pages: result.texts.length, facts: result.facts.length, problems: problems.length, ms: Date.now() - started },
          'summary: document read',
        );
      } finally {
        await spooled.release();
      }
      this.builder.kick();
    } catch (error) {
      if (this.abort.signal.aborted) return; // shutting down: the claim runs out and another start takes it
      const gone = error instanceof DocumentGoneError;
      if (gone || claimed.attempts >= MAX_ATTEMPTS) {
        const empty: ExtractionResult = { documentId: claimed.documentId, filename: '', texts: [], facts: [], noneKnown: [], problems: [] };
        await this.documents
          .finish(claimed, '', empty, 'unreadable', [gone ? READ_MESSAGES.gone : READ_MESSAGES.failed], this.rebuildAt())
          .catch((e: unknown) => this.logger.error({ documentId: claimed.documentId, err: String(e) }, 'summary: could not file an unreadable document'));
        this.builder.kick();
      }
      this.logger.warn({ documentId: claimed.documentId, attempt: claimed.attempts, err: errorName(error) }, 'summary: reading a document failed');
    }
  }

  /** Runs the start-up backfill to its end now (tests). */
  async drainBackfill(): Promise<void> {
    await this.backfilling;
    this.backfilling = this.backfill();
    await this.backfilling;
  }

  /**
   * Documents read before health trends existed: each is fetched once more and, when it is a C-CDA
   * or FHIR record, its observations are read from it; other documents are marked (their results come
   * from the facts of the next rebuild, which this schedules). One document at a time, in the
   * background after start-up; a failure leaves the rest to the next start. Counts only in logs.
   */
  private async backfill(): Promise<void> {
    const tried = new Set<string>();
    let filed = 0;
    try {
      for (;;) {
        const batch = (await this.observations.unread(10)).filter((d) => !tried.has(d.documentId));
        if (batch.length === 0 || this.abort.signal.aborted) break;
        for (const document of batch) {
          tried.add(document.documentId);
          let kind: 'ccda' | 'fhir' | null = null;
          let list: ReturnType<typeof observationsOfRecord> = [];
          try {
            const spooled = await this.content.spool(document.documentId, document.userId, this.abort.signal);
            try {
              const record = await this.content.readRecord(spooled.path);
              kind = record?.kind ?? null;
              list = observationsOfRecord(record, { document_id: document.documentId, filename: spooled.filename });
            } finally {
              await spooled.release();
            }
          } catch (error) {
            if (!(error instanceof DocumentGoneError)) throw error;
          }
          if (await this.observations.fileBackfill(document, kind, list)) filed += 1;
        }
      }
    } catch (error) {
      if (!this.abort.signal.aborted) this.logger.warn({ err: errorName(error), filed }, 'summary: trends backfill stopped; the rest is read at the next start');
      return;
    }
    if (filed > 0) {
      await this.observations.scheduleRebuilds([...tried], this.rebuildAt());
      this.builder.kick();
      this.logger.log({ documents: filed }, 'summary: trends backfill read documents');
    }
  }

  private async renewClaims(): Promise<void> {
    try {
      await this.documents.renew([...this.inFlight.keys()], this.config.extractLeaseSeconds);
    } catch (error) {
      this.logger.warn({ err: String(error) }, 'summary: renewing read claims failed');
    }
  }

  private rebuildAt(): Date {
    return new Date(Date.now() + this.config.rebuildDelayMs);
  }

  private extractLogger(documentId: string) {
    const logger = this.logger;
    return {
      info: (event: string, fields?: Record<string, string | number | boolean>) => logger.debug({ documentId, event, ...fields }, 'extract'),
      warn: (event: string, fields?: Record<string, string | number | boolean>) => logger.warn({ documentId, event, ...fields }, 'extract'),
    };
  }
}

/** An error's class, not its message (a parser's message may quote the document). */
function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}` : typeof error;
}
