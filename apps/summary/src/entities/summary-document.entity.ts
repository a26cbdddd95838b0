import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ClinicalFact, NoneKnown } from '@medfolio/clinical';

/** pending → processing → read | unreadable; deleted is a tombstone (a late upload event changes nothing). */
export type DocumentState = 'pending' | 'processing' | 'read' | 'unreadable' | 'deleted';

/**
 * One of a patient's documents as the summary sees it: its reading state, the problems the patient
 * is shown, and the structured facts read from it (C-CDA, FHIR). Its text is in SummaryPage rows.
 */
@Entity('documents')
export class SummaryDocument {
  @PrimaryColumn({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  /** Learnt from documents when the bytes are read (events carry no filename). */
  @Column({ type: 'text' })
  filename!: string;

  /** Where the document was fetched from (learnt with the filename); null for the patient's own uploads. */
  @Column({ type: 'text', nullable: true })
  source?: string | null;

  @Column({ name: 'content_type', type: 'text' })
  contentType!: string;

  @Column({ name: 'uploaded_at', type: 'timestamptz' })
  uploadedAt!: Date;

  @Column({ type: 'text' })
  state!: DocumentState;

  /** Reasons the patient sees ("page 3 could not be read: ..."). */
  @Column({ type: 'jsonb' })
  problems!: string[];

  @Column({ type: 'jsonb' })
  facts!: ClinicalFact[];

  @Column({ name: 'none_known', type: 'jsonb' })
  noneKnown!: NoneKnown[];

  @Column({ name: 'document_date', type: 'text', nullable: true })
  documentDate!: string | null;

  /** While processing: until when this claim holds (a dead worker's claim runs out and is retaken). */
  @Column({ name: 'claimed_until', type: 'timestamptz', nullable: true })
  claimedUntil!: Date | null;

  @Column({ type: 'int' })
  attempts!: number;

  /** A C-CDA or FHIR record (its observations are read from the file itself); null for other documents. */
  @Column({ name: 'record_kind', type: 'text', nullable: true })
  recordKind!: 'ccda' | 'fhir' | null;

  /** Its observations were read (false for documents read before trends existed: the backfill reads them). */
  @Column({ name: 'observations_read', type: 'boolean', default: false })
  observationsRead!: boolean;
}
