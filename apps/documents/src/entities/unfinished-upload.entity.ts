import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A blob written for an upload that has not committed yet. The row is written before the blob and
 * removed in the transaction that creates the document (or after the blob is removed when the upload
 * is refused). One left behind means the process died in between; the janitor removes the blob,
 * then the row.
 */
@Entity('unfinished_uploads')
@Index('unfinished_uploads_started_idx', ['startedAt'])
export class UnfinishedUpload {
  @PrimaryColumn({ name: 'storage_key', type: 'text' })
  storageKey!: string;

  @Column({ name: 'started_at', type: 'timestamptz', default: () => 'now()' })
  startedAt!: Date;
}
