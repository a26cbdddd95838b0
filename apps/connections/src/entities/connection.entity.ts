import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One patient's link to one endpoint of the directory. The tokens and the EHR's patient id are sealed
 * (libs/security's envelope, context `connections.<field>:<id>`); the endpoints the grant came with
 * (token, revocation) are kept from its discovery.
 */
@Entity('connections')
export class Connection {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'owner_id', type: 'text' })
  ownerId!: string;

  @Column({ name: 'endpoint_id', type: 'text' })
  endpointId!: string;

  /** 'connected', or 'reconnect' once the grant expired or was revoked. */
  @Column({ type: 'text' })
  status!: 'connected' | 'reconnect';

  @Column({ type: 'text' })
  scope!: string;

  @Column({ name: 'patient_sealed', type: 'bytea' })
  patientSealed!: Buffer;

  @Column({ name: 'access_token_sealed', type: 'bytea' })
  accessTokenSealed!: Buffer;

  @Column({ name: 'refresh_token_sealed', type: 'bytea', nullable: true })
  refreshTokenSealed!: Buffer | null;

  @Column({ name: 'access_expires_at', type: 'timestamptz' })
  accessExpiresAt!: Date;

  @Column({ name: 'token_endpoint', type: 'text' })
  tokenEndpoint!: string;

  @Column({ name: 'revocation_endpoint', type: 'text', nullable: true })
  revocationEndpoint!: string | null;

  @Column({ name: 'client_id', type: 'text' })
  clientId!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_sync_at', type: 'timestamptz', nullable: true })
  lastSyncAt!: Date | null;

  /** 'syncing' while a sync holds the connection (one at a time; a claim older than the stale limit is taken over). */
  @Column({ name: 'sync_state', type: 'text', default: 'idle' })
  syncState!: 'idle' | 'syncing';

  @Column({ name: 'sync_started_at', type: 'timestamptz', nullable: true })
  syncStartedAt!: Date | null;

  /** The last sync's problem in plain words (never a server's body), null when it went well. */
  @Column({ name: 'last_sync_error', type: 'text', nullable: true })
  lastSyncError!: string | null;

  /** Per search (resource type): the newest meta.lastUpdated fetched, for `_lastUpdated=gt…` next time. */
  @Column({ name: 'sync_checkpoints', type: 'jsonb', default: {} })
  syncCheckpoints!: Record<string, string>;

  /** Resources kept per resource type after the last sync. */
  @Column({ name: 'sync_counts', type: 'jsonb', default: {} })
  syncCounts!: Record<string, number>;

  /** The patient's document (documents service) holding these records as a FHIR Bundle; replaced after a sync that changed something. */
  @Column({ name: 'record_document_id', type: 'uuid', nullable: true })
  recordDocumentId!: string | null;

  /** true: records changed since the document was made (a handoff failed); the next sync hands it over again. */
  @Column({ name: 'record_document_stale', type: 'boolean', default: false })
  recordDocumentStale!: boolean;
}
