import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A document's "hidden from proxies" flag, as documents last said it (documents.document.privacy-changed.v1). */
@Entity('private_documents')
export class PrivateDocument {
  @PrimaryColumn({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @Column({ name: 'private', type: 'boolean' })
  isPrivate!: boolean;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}
