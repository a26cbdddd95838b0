import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One FHIR resource fetched through a connection, kept once per type and id (updated in place when
 * its version changes). The JSON is sealed (context `connections.resource:<connection>/<type>/<id>`).
 */
@Entity('connection_resources')
export class ConnectionResource {
  @PrimaryColumn({ name: 'connection_id', type: 'uuid' })
  connectionId!: string;

  @PrimaryColumn({ name: 'resource_type', type: 'text' })
  resourceType!: string;

  @PrimaryColumn({ name: 'resource_id', type: 'text' })
  resourceId!: string;

  @Column({ name: 'version_id', type: 'text', nullable: true })
  versionId!: string | null;

  @Column({ name: 'last_updated', type: 'timestamptz', nullable: true })
  lastUpdated!: Date | null;

  @Column({ name: 'body_sealed', type: 'bytea' })
  bodySealed!: Buffer;

  @Column({ name: 'fetched_at', type: 'timestamptz' })
  fetchedAt!: Date;

  /** For a PDF or C-CDA Binary: its own document in the documents service, once handed over. */
  @Column({ name: 'document_id', type: 'uuid', nullable: true })
  documentId?: string | null;
}
