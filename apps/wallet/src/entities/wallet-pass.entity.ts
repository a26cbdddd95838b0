import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A patient's Apple Wallet pass (one live per patient, retired ones kept): its serial number and authentication token (in
 * pass.json, so a device can fetch updates), the share link it carries, and the signed .pkpass
 * cached in storage for what it was signed from. No health data.
 */
@Entity('passes')
export class WalletPass {
  @PrimaryColumn({ name: 'serial_number', type: 'uuid' })
  serialNumber!: string;

  /** One live pass per owner (a partial unique index); retired ones stay. */
  @Column({ name: 'owner_id', type: 'text' })
  ownerId!: string;

  /** `Authorization: ApplePass <token>` of the PassKit web service; in the pass, so a secret. */
  @Column({ name: 'authentication_token', type: 'text' })
  authenticationToken!: string;

  /** The patient lets the first name show on the pass. */
  @Column({ name: 'show_name', type: 'boolean', default: false })
  showName!: boolean;

  /** The share link the pass carries (SHARING_SUBJECTS.ensure, purpose 'wallet'); null until first made. */
  @Column({ name: 'link_id', type: 'uuid', nullable: true })
  linkId!: string | null;

  @Column({ name: 'link_version', type: 'integer', default: 0 })
  linkVersion!: number;

  @Column({ name: 'link_url', type: 'text', nullable: true })
  linkUrl!: string | null;

  /** 'active', or what the change event that retired the pass said ('revoked', 'replaced', 'expired'). */
  @Column({ name: 'link_state', type: 'text', default: 'active' })
  linkState!: string;

  /**
   * When the pass's link stopped working (revoked, replaced, expired): the pass is retired for good.
   * Its token answers 401 and no new link is ever made for it; the owner issues a new pass.
   */
  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt!: Date | null;

  /** The update tag (a sequence): `passesUpdatedSince` lists passes whose tag is above the device's. */
  @Column({ name: 'update_tag', type: 'bigint' })
  updateTag!: string;

  /** When the pass last changed (Last-Modified; If-Modified-Since). */
  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  /** A digest of everything the cached .pkpass was signed from; a different one means signing again. */
  @Column({ name: 'signed_digest', type: 'text', nullable: true })
  signedDigest!: string | null;

  /** The storage key of the cached signed .pkpass. */
  @Column({ name: 'signed_key', type: 'text', nullable: true })
  signedKey!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
