import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError,
  type CallerIdentity,
  type DeleteDocumentDto,
  type DocumentIdDto,
  type DocumentListItem,
  type DocumentPrivacyDto,
  type DownloadLinkReply,
  FAMILY_TEEN_MESSAGES,
  type MessageReply,
} from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { BlobIntegrityError, BlobNotFoundError } from '@medfolio/storage';
import { DocumentsConfig } from '../config';
import type { DocumentRecord } from '../entities';
import { DocumentBlobsRepository } from '../repositories/document-blobs.repository';
import { DocumentsRepository } from '../repositories/documents.repository';
import { DocumentAudit } from './document-audit';
import { DocumentsMetrics } from './documents-metrics';
import { NOT_FOUND_MESSAGE, requireOwner } from './owner';

export const DOCUMENT_MESSAGES = {
  deleted: 'Document deleted.',
  integrity:
    'This document failed its integrity check, so it cannot be downloaded. We have been alerted and will look into it.',
} as const;

export type IntegrityVerdict = 'intact' | 'changed' | 'missing' | 'unreadable';

/**
 * The owner's documents: list (with thumbnail links), delete, download links. A document of
 * someone else answers exactly as one that does not exist (404), and the attempt is recorded in
 * the real owner's access history. Every access is audited before any data leaves.
 */
@Injectable()
export class DocumentsService {
  private readonly logger = new Logger(DocumentsService.name);

  constructor(
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
    @Inject(DocumentsRepository) private readonly documents: DocumentsRepository,
    @Inject(DocumentBlobsRepository) private readonly blobs: DocumentBlobsRepository,
    @Inject(DocumentAudit) private readonly audit: DocumentAudit,
    @Inject(DocumentsMetrics) private readonly metrics: DocumentsMetrics,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
  ) {}

  async list(caller: CallerIdentity): Promise<DocumentListItem[]> {
    const ownerId = requireOwner(caller);
    // The list is read while the audit record is being stored; nothing of it (no name, no link)
    // leaves before the record is acknowledged (a failed record throws, the rows are dropped).
    const reading = this.documents.listActive(ownerId);
    reading.catch(() => undefined);
    await this.audit.record(caller, 'document.list', 'success', ownerId);
    const rows = await reading;
    // A proxy (caller.actor: a guardian or caregiver) does not see what the owner marked private.
    return Promise.all(rows.filter((row) => !(caller.actor && row.isPrivate)).map((row) => this.toItem(row)));
  }

  /**
   * The owner, acting as themself (never a proxy), marks a document private from the people with
   * proxy access to their record, or not. summary learns it from documents.document.privacy-changed.v1.
   */
  async setPrivate(caller: CallerIdentity, dto: DocumentPrivacyDto): Promise<DocumentListItem> {
    const ownerId = requireOwner(caller);
    if (caller.actor) {
      await this.audit.recordQuietly(caller, 'document.privacy', 'denied', ownerId, dto.document_id);
      throw new DomainError('FORBIDDEN', FAMILY_TEEN_MESSAGES.privateOwnerOnly);
    }
    const document = await this.owned(caller, ownerId, dto.document_id, 'document.privacy');
    await this.audit.record(caller, 'document.privacy', 'success', ownerId, document.id);
    const updated = await this.documents.setPrivate(document.id, ownerId, dto.private);
    if (!updated) throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
    this.relay.kick();
    return this.toItem(updated);
  }

  async delete(caller: CallerIdentity, dto: DeleteDocumentDto): Promise<MessageReply> {
    const ownerId = requireOwner(caller);
    const document = await this.owned(caller, ownerId, dto.document_id, 'document.delete');
    await this.audit.record(caller, 'document.delete', 'success', ownerId, document.id);
    if (!(await this.documents.markDeleted(document.id, ownerId, new Date()))) {
      // Deleted by a request of the same owner a moment ago.
      throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
    }
    this.relay.kick();
    return { message: DOCUMENT_MESSAGES.deleted };
  }

  /**
   * A 5-minute link that downloads the document as an attachment, after its stored bytes were read
   * again and found to match the SHA-256 taken at upload. A mismatch gives no link and raises an
   * alert: an error log, the documents_integrity_failures_total metric and an audit record.
   */
  async downloadLink(caller: CallerIdentity, dto: DocumentIdDto): Promise<DownloadLinkReply> {
    const ownerId = requireOwner(caller);
    const document = await this.owned(caller, ownerId, dto.document_id, 'document.download-link');
    return this.issueLink(caller, ownerId, document, 'owner');
  }

  /**
   * A patient's documents for someone the caller's service already allowed (a provider with an
   * active grant): audited under that policy, read-only.
   */
  async listFor(caller: CallerIdentity, patientId: string, policy: string): Promise<DocumentListItem[]> {
    const rows = await this.documents.listActive(patientId);
    await this.audit.record(caller, 'document.list', 'success', patientId, undefined, policy);
    return Promise.all(rows.map((row) => this.toItem(row)));
  }

  /** A download link to one of the patient's documents (as `listFor`); another's or a deleted one answers 404. */
  async downloadLinkFor(caller: CallerIdentity, patientId: string, documentId: string, policy: string): Promise<DownloadLinkReply> {
    const document = await this.documents.findActive(documentId);
    if (document?.ownerId !== patientId) {
      await this.audit.recordQuietly(caller, 'document.download-link', 'failure', patientId, documentId, policy);
      throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
    }
    return this.issueLink(caller, patientId, document, policy);
  }

  private async issueLink(caller: CallerIdentity, ownerId: string, document: DocumentRecord, policy: string): Promise<DownloadLinkReply> {
    const verdict = await this.verify(document);
    if (verdict !== 'intact') {
      this.metrics.integrityFailures.inc({ reason: verdict });
      this.logger.error(
        { alert: 'document-integrity', documentId: document.id, ownerId, reason: verdict },
        'a stored document failed its integrity check',
      );
      await this.audit.recordQuietly(caller, 'document.integrity-check', 'failure', ownerId, document.id, policy);
      throw new DomainError('INTERNAL', DOCUMENT_MESSAGES.integrity);
    }
    await this.audit.record(caller, 'document.download-link', 'success', ownerId, document.id, policy);
    const expiresAt = new Date(Date.now() + this.config.downloadLinkSeconds * 1000);
    const url = await this.blobs.downloadUrl(document.storageKey, {
      expiresInSeconds: this.config.downloadLinkSeconds,
      filename: document.filename,
      contentType: document.contentType,
    });
    return { download_url: url, filename: document.filename, expires_at: expiresAt.toISOString() };
  }

  /**
   * The decrypted bytes of a document for another service (summary's extraction), as a stream: the
   * owner the caller names must be the document's, or it answers as a missing document. Audited
   * before any byte leaves, like a download.
   */
  async openContent(
    caller: CallerIdentity,
    documentId: string,
    ownerId: string,
  ): Promise<{ body: Readable; filename: string; contentType: string; size: number; source: string | null }> {
    const document = await this.documents.findActive(documentId);
    if (!document || document.ownerId !== ownerId) {
      await this.audit.recordQuietly(caller, 'document.content-read', document ? 'denied' : 'failure', document?.ownerId ?? ownerId, documentId);
      throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
    }
    await this.audit.record(caller, 'document.content-read', 'success', ownerId, document.id);
    const body = await this.blobs.get(document.storageKey);
    return { body, filename: document.filename, contentType: document.contentType, size: document.size, source: document.source ?? null };
  }

  /** Reads the blob through SHA-256 (streamed, nothing held) and compares size and digest. */
  async verify(document: Pick<DocumentRecord, 'storageKey' | 'size' | 'sha256'>): Promise<IntegrityVerdict> {
    const hash = createHash('sha256');
    let size = 0;
    try {
      for await (const chunk of await this.blobs.get(document.storageKey)) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
    } catch (error) {
      if (error instanceof BlobNotFoundError) return 'missing';
      if (error instanceof BlobIntegrityError) return 'unreadable';
      throw error;
    }
    return size === document.size && hash.digest('hex') === document.sha256 ? 'intact' : 'changed';
  }

  /** The caller's own document, or 404; someone else's is recorded as a denied attempt in its owner's history. */
  private async owned(
    caller: CallerIdentity,
    ownerId: string,
    id: string,
    action: 'document.delete' | 'document.download-link' | 'document.privacy',
  ): Promise<DocumentRecord> {
    const document = await this.documents.findActive(id);
    // A private document answers a proxy as one that does not exist (the attempt is in the owner's history).
    if (document?.ownerId === ownerId && caller.actor && document.isPrivate) {
      await this.audit.recordQuietly(caller, action, 'denied', ownerId, document.id);
      throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
    }
    if (document?.ownerId === ownerId) return document;
    if (document) await this.audit.recordQuietly(caller, action, 'denied', document.ownerId, document.id);
    else await this.audit.recordQuietly(caller, action, 'failure', ownerId, id);
    throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
  }

  private async toItem(row: DocumentRecord): Promise<DocumentListItem> {
    const url = row.thumbnailKey
      ? await this.blobs.downloadUrl(row.thumbnailKey, {
          expiresInSeconds: this.config.thumbnailUrlSeconds,
          filename: 'thumbnail.webp',
          contentType: 'image/webp',
        })
      : null;
    return {
      id: row.id,
      filename: row.filename,
      url,
      uploaded_at: row.uploadedAt.toISOString(),
      size: row.size,
      content_type: row.contentType,
      private: Boolean(row.isPrivate),
    };
  }
}
