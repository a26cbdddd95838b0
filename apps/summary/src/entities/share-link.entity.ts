import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ShareLinkPurpose } from '@medfolio/contracts';

/**
 * A share link to a patient's summary. The secret share id is never stored in the clear: rows are
 * found by its SHA-256 (`share_hash`), and the id itself is kept sealed (AES-256-GCM, bound to the
 * row id) so the owner can see the URL again. The passcode is stored as an argon2id hash.
 */
@Entity('share_links')
export class ShareLink {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'owner_id', type: 'text' })
  ownerId!: string;

  @Column({ type: 'text' })
  purpose!: ShareLinkPurpose;

  /** SHA-256 of the share id (hex). */
  @Column({ name: 'share_hash', type: 'text' })
  shareHash!: string;

  /** The share id, sealed (services/share-link-keys.ts). */
  @Column({ name: 'share_sealed', type: 'bytea' })
  shareSealed!: Buffer;

  @Column({ type: 'text' })
  label!: string;

  @Column({ type: 'int' })
  version!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'passcode_hash', type: 'text', nullable: true })
  passcodeHash!: string | null;

  /** Wrong passcodes since the passcode was set; the link locks at SHARE_PASSCODE_ATTEMPTS. */
  @Column({ name: 'failed_attempts', type: 'int' })
  failedAttempts!: number;

  @Column({ name: 'notify_on_view', type: 'boolean' })
  notifyOnView!: boolean;

  /** The owner's e-mail address, sealed, learnt from identity when notify_on_view was turned on. */
  @Column({ name: 'notify_email_sealed', type: 'bytea', nullable: true })
  notifyEmailSealed!: Buffer | null;

  @Column({ name: 'last_notified_at', type: 'timestamptz', nullable: true })
  lastNotifiedAt!: Date | null;

  @Column({ name: 'providers_may_see_documents', type: 'boolean' })
  providersMaySeeDocuments!: boolean;

  /** The patient's name and date of birth on what the link hands out (default true). */
  @Column({ name: 'show_patient_identity', type: 'boolean', default: true })
  showPatientIdentity!: boolean;

  /** The trends (series keys of GET /api/trends/) the link shares, on its page and PDF. */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  trends!: string[];

  @Column({ name: 'view_count', type: 'int' })
  viewCount!: number;

  @Column({ name: 'last_viewed_at', type: 'timestamptz', nullable: true })
  lastViewedAt!: Date | null;

  /**
   * The SMART Health Link's key, sealed (services/share-link-keys.ts, bound to the row): never stored
   * in the clear. Written only by repositories/shl-key-sealer.ts from `shlKey` (so optional here).
   */
  @Column({ name: 'shl_key_sealed', type: 'bytea', nullable: true })
  shlKeySealed?: Buffer | null;

  /**
   * The SMART Health Link's key (base64url, 32 bytes) when the link is also an SHL; filled by the SHL
   * feature. Not a column: repositories/shl-key-sealer.ts seals it into shl_key_sealed when a row is
   * written and opens it when one is read.
   */
  shlKey!: string | null;
}
