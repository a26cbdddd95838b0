import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { DocumentKind } from '@medfolio/contracts';

/**
 * One stored document. `filename` is the display name (sanitised); the blob lives under
 * `storageKey`, which the server made and which never derives from the name. A deleted document
 * (deletedAt set) is gone for its owner at once; the purge handler removes its blobs, then the row.
 */
@Entity('documents')
@Index('documents_owner_idx', ['ownerId', 'uploadedAt'])
export class DocumentRecord {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'owner_id', type: 'text' })
  ownerId!: string;

  @Column({ type: 'text' })
  filename!: string;

  @Column({ type: 'text' })
  kind!: DocumentKind;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  /** bigint in the database; files are far below 2^53 bytes. */
  @Column({ type: 'bigint', transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) } })
  size!: number;

  /** Hex SHA-256 of the bytes as uploaded; checked again before every download link. */
  @Column({ type: 'text' })
  sha256!: string;

  @Column({ name: 'storage_key', type: 'text', unique: true })
  storageKey!: string;

  @Column({ name: 'thumbnail_key', type: 'text', nullable: true })
  thumbnailKey!: string | null;

  /**
   * Where another service fetched the document from for its owner, in words ("Springfield General
   * Hospital via MyChart"); null for the owner's own uploads. Only internal callers set it (the
   * X-Document-Source header of POST /internal/documents; the gateway never passes a browser's headers).
   */
  @Column({ type: 'text', nullable: true })
  source?: string | null;

  /**
   * Hidden from the people with proxy access to the record (a caller with `actor`): set by the
   * owner acting as themself (PATCH /api/documents/{id}/). Only the owner's own reads see it.
   */
  @Column({ name: 'private', type: 'boolean', default: false })
  isPrivate?: boolean;

  @Column({ name: 'uploaded_at', type: 'timestamptz' })
  uploadedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;
}
