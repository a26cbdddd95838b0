import { randomUUID } from 'node:crypto';
import { pipeline, Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, type CallerIdentity, type DocumentListItem, type UploadReply } from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { fileParts } from '@medfolio/storage';
import { DocumentsConfig } from '../config';
import { classify, ContentInspector, contentTypeOf, displayName, HEAD_BYTES, type ZipLimits } from '../content';
import { DocumentBlobsRepository } from '../repositories/document-blobs.repository';
import { DocumentsRepository, UploadExpiredError, type NewDocument } from '../repositories/documents.repository';
import { EntitlementsRepository } from '../repositories/entitlements.repository';
import { VirusScannerRepository } from '../repositories/virus-scanner.repository';
import { DocumentAudit } from './document-audit';
import { DocumentsMetrics } from './documents-metrics';
import { requireOwner } from './owner';
import { assertRoom, planLimitsFrom, type PlanLimits } from './quota';
import { FileVirusScan, MalwareFoundError } from './virus-scan';

export const UPLOAD_MESSAGES = {
  noFiles: 'At least one file is required',
  notMultipart: 'Send the files as multipart/form-data, in the field "files".',
  wrongField: 'Send the files in the multipart field "files".',
  tooSlow: 'The upload took too long to finish. Please try again.',
  noRoom: (filename: string) => `There is no room left to store "${filename}", so it was not saved. Please try again later.`,
  badSource: 'X-Document-Source must be at most 200 characters of text (URI-encoded), without control characters.',
} as const;

/** The multipart body of POST /internal/documents, as the gateway passed it on. */
export interface UploadRequest {
  contentType: string | undefined;
  body: Readable;
  /** Where an internal caller fetched the files from (connections), kept with each document; absent for the owner's own uploads. */
  source?: string | null;
}

/**
 * Uploads, all or nothing: every file of a request is checked (name, first bytes, structure, size,
 * the owner's quota) while it streams into storage, and the documents are committed together only
 * when all passed. The first refused file ends the request with a message naming it, and every blob
 * the request wrote is removed; the unfinished-upload log covers a process that dies in between.
 */
@Injectable()
export class UploadService {
  private readonly logger = new Logger(UploadService.name);
  private readonly plans: PlanLimits;
  private readonly zipLimits: ZipLimits;

  constructor(
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
    @Inject(DocumentsRepository) private readonly documents: DocumentsRepository,
    @Inject(EntitlementsRepository) private readonly entitlements: EntitlementsRepository,
    @Inject(DocumentBlobsRepository) private readonly blobs: DocumentBlobsRepository,
    @Inject(DocumentAudit) private readonly audit: DocumentAudit,
    @Inject(DocumentsMetrics) private readonly metrics: DocumentsMetrics,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(VirusScannerRepository) private readonly scanner: VirusScannerRepository,
  ) {
    this.plans = planLimitsFrom(config);
    this.zipLimits = {
      maxEntries: config.zipMaxEntries,
      maxUncompressedBytes: config.zipMaxUncompressedBytes,
      maxRatio: config.zipMaxCompressionRatio,
    };
  }

  async upload(caller: CallerIdentity, request: UploadRequest): Promise<UploadReply> {
    const ownerId = requireOwner(caller);
    // A dependant's record is covered by their holder's plan, and counts with the household's documents.
    const scope = await this.entitlements.scopeOf(ownerId);
    const plan = scope.plan;
    const stored = scope.name ? await this.entitlements.householdCount(scope.holderId) : await this.documents.countActive(ownerId);
    const accepted: NewDocument[] = [];
    /** Keys whose blobs this request may have written (each noted as unfinished first). */
    const written: string[] = [];
    let audited = false;
    try {
      for await (const part of fileParts(request.body, request.contentType, {
        files: this.config.maxFilesPerUpload,
        notMultipart: UPLOAD_MESSAGES.notMultipart,
      })) {
        if (part.field !== 'files') throw new DomainError('VALIDATION_FAILED', UPLOAD_MESSAGES.wrongField);
        // Before reading a byte of it: does the plan have room for one more?
        assertRoom(this.plans, plan, stored, accepted.length + 1, scope.name);
        accepted.push(await this.store(ownerId, displayName(part.filename), part.stream, written, request.source ?? null));
      }
      if (accepted.length === 0) throw new DomainError('VALIDATION_FAILED', UPLOAD_MESSAGES.noFiles);

      // Fail closed: no audit record, no upload.
      const uploadedAt = new Date();
      for (const document of accepted) document.uploadedAt = uploadedAt;
      await Promise.all(accepted.map((d) => this.audit.record(caller, 'document.upload', 'success', ownerId, d.id)));
      audited = true;
      try {
        await this.documents.commitUpload(ownerId, accepted, async (count, manager) => {
          const now = await this.entitlements.scopeOf(ownerId, manager);
          const counted = now.name ? await this.entitlements.householdCount(now.holderId, manager) : count;
          assertRoom(this.plans, now.plan, counted, accepted.length, now.name);
        });
      } catch (error) {
        await Promise.all(
          accepted.map((d) => this.audit.recordQuietly(caller, 'document.upload', 'failure', ownerId, d.id)),
        );
        throw error instanceof UploadExpiredError ? new DomainError('UNAVAILABLE', UPLOAD_MESSAGES.tooSlow) : error;
      }
      this.relay.kick();
      this.metrics.uploads.inc({ outcome: 'stored' }, accepted.length);
      return await this.reply(accepted);
    } catch (error) {
      await this.discard(written);
      this.metrics.uploads.inc({ outcome: 'refused' });
      if (error instanceof MalwareFoundError) {
        // The refusal names the signature (never the file): the owner's history shows why.
        await this.audit.recordQuietly(caller, 'document.upload', 'denied', ownerId, undefined, `antivirus:${error.signature}`);
      } else if (!audited) {
        const outcome = error instanceof DomainError && error.code === 'QUOTA_EXCEEDED' ? 'denied' : 'failure';
        await this.audit.recordQuietly(caller, 'document.upload', outcome, ownerId);
      }
      throw error;
    }
  }

  /**
   * One file: its first bytes decide whether it may be what its name says (nothing is stored if not),
   * then the rest streams through the inspector into storage. Throws the refusal naming the file.
   */
  private async store(ownerId: string, filename: string, stream: Readable, written: string[], source: string | null): Promise<NewDocument> {
    const { head, body } = await takeHead(stream, HEAD_BYTES);
    let classified;
    try {
      classified = await classify(filename, head, this.zipLimits);
    } catch (error) {
      body.destroy();
      stream.destroy();
      throw error;
    }
    let scan: FileVirusScan | undefined;
    try {
      scan = await this.openScan(filename);
    } catch (error) {
      body.destroy();
      stream.destroy();
      throw error;
    }
    const id = randomUUID();
    const storageKey = this.blobs.documentKey(ownerId, id);
    await this.documents.noteUnfinished(storageKey);
    written.push(storageKey);
    const inspector = new ContentInspector(filename, classified.check, this.config.maxFileBytes, scan);
    pipeline(body, inspector, () => undefined);
    const contentType = contentTypeOf(classified.kind);
    try {
      const { size, sha256 } = await this.blobs.put(storageKey, inspector, contentType);
      return {
        id,
        ownerId,
        filename,
        kind: classified.kind,
        contentType,
        size,
        sha256,
        storageKey,
        source,
        uploadedAt: new Date(),
      };
    } catch (error) {
      inspector.destroy();
      // The store's disk is full (or the file is over the process's size limit): the person is told,
      // and upload() removes what was written.
      if (!inspector.failure && storeIsFull(error)) throw new DomainError('UNAVAILABLE', UPLOAD_MESSAGES.noRoom(filename));
      throw inspector.failure ?? error;
    }
  }

  /**
   * The antivirus scan of one file, when clamd is configured: opened before anything is stored, so
   * a scanner that cannot be reached refuses the file (503) with nothing written, unless
   * CLAMD_FAIL_OPEN lets it through unscanned.
   */
  private async openScan(filename: string): Promise<FileVirusScan | undefined> {
    if (!this.scanner.configured) return undefined;
    try {
      return new FileVirusScan(await this.scanner.open(), filename, this.config.clamdFailOpen, this.logger);
    } catch (error) {
      // Throws the 503 (fail closed), or returns (fail open): the file goes on unscanned.
      new FileVirusScan(null, filename, this.config.clamdFailOpen, this.logger).scannerFailed(error);
      return undefined;
    }
  }

  /** Removes what a refused request wrote; a blob that cannot be removed now is left to the janitor. */
  private async discard(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.blobs.delete(key);
        await this.documents.forgetUnfinished([key]);
      } catch (error) {
        this.logger.warn({ err: String(error) }, 'a refused upload left a blob for the janitor');
      }
    }
  }

  private async reply(documents: NewDocument[]): Promise<UploadReply> {
    const urls = await Promise.all(
      documents.map((d) =>
        this.blobs.downloadUrl(d.storageKey, {
          expiresInSeconds: this.config.downloadLinkSeconds,
          filename: d.filename,
          contentType: d.contentType,
        }),
      ),
    );
    const items: DocumentListItem[] = documents.map((d) => ({
      id: d.id,
      filename: d.filename,
      url: null,
      uploaded_at: d.uploadedAt.toISOString(),
      size: d.size,
      content_type: d.contentType,
    }));
    const message =
      documents.length === 1 ? '1 file uploaded successfully.' : `${documents.length} files uploaded successfully.`;
    return { message, image_urls: urls, image_url: urls[0] ?? null, documents: items };
  }
}

/**
 * Reads the first `size` bytes of a stream (fewer if it is shorter; more if they came in one piece)
 * and gives back a stream of the whole, head included. Usually that is the same stream with the head
 * put back at its front, so the file goes on to storage with no extra stage in between; a file that
 * ended within its head comes back as a new stream of just those bytes.
 */
export async function takeHead(stream: Readable, size: number): Promise<{ head: Buffer; body: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < size) {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      length += chunk.length;
      continue;
    }
    if (!(await moreToRead(stream))) {
      ended = true;
      break;
    }
  }
  const head = Buffer.concat(chunks, length);
  if (ended) return { head, body: Readable.from(head.length > 0 ? [head] : [], { objectMode: false }) };
  stream.unshift(head);
  return { head, body: stream };
}

/** Waits until the stream has data to read (true) or has ended (false); rejects if it fails. */
function moreToRead(stream: Readable): Promise<boolean> {
  if (stream.readableEnded) return Promise.resolve(false);
  if (stream.errored) return Promise.reject(stream.errored);
  return new Promise<boolean>((resolve, reject) => {
    const done = (result: boolean | Error) => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onReadable = () => done(true);
    const onEnd = () => done(false);
    const onError = (error: Error) => done(error);
    const onClose = () => done(stream.readableEnded ? false : new Error('The stream closed before it ended'));
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

function storeIsFull(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT';
}
