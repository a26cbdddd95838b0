import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import {
  DomainError,
  erasureCaller,
  passFilename,
  RECORD_ERASED_ACTION,
  WALLET_MESSAGES,
  type CallerIdentity,
  type RecordErasedEvent,
  type PassSettingsDto,
  type PassStatus,
  type PassUrlReply,
  type PassView,
  type ShareLinkChangedEvent,
  type WalletClientConfig,
} from '@medfolio/contracts';
import { WalletConfig } from '../config';
import type { WalletPass } from '../entities';
import { ApnsRepository } from '../repositories/apns.repository';
import { PassBlobsRepository } from '../repositories/pass-blobs.repository';
import { PassesRepository } from '../repositories/passes.repository';
import { ProfilesRepository } from '../repositories/profiles.repository';
import { SharingRepository } from '../repositories/sharing.repository';
import { SigningMaterialRepository } from '../repositories/signing-material.repository';
import { googleSaveUrl, parseServiceAccount } from './google-wallet';
import { PASS_DESIGN_VERSION, passDesign } from './pass-design';
import { PASS_SIGNATURE_FORMAT } from './pass-signature';
import { passImages, signPass } from './pass-signer';

/** The pass as it is now: its row, what it shows, and the storage key of its signed .pkpass. */
export interface CurrentPass {
  pass: WalletPass;
  view: PassView;
  key: string;
}

/**
 * The logic of the patient's wallet pass. The pass carries a share link of its own (asked of the
 * summary service as the patient, purpose 'wallet', once, when the pass is first issued). When that
 * link is revoked, replaced or expired the pass is retired for good: its devices are
 * told through APNs, and when they ask for it its token answers 401, so a copy of the pass can never
 * obtain a new link. Only the patient, signed in, issues a new pass (a new serial number, token and
 * link). A signed pass is kept in storage and signed again only when what it is made from changes
 * (the link and its version, the name setting, the certificate, the design).
 */
@Injectable()
export class WalletService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Wallet');

  constructor(
    @Inject(WalletConfig) private readonly config: WalletConfig,
    @Inject(PassesRepository) private readonly passes: PassesRepository,
    @Inject(PassBlobsRepository) private readonly blobs: PassBlobsRepository,
    @Inject(SharingRepository) private readonly sharing: SharingRepository,
    @Inject(ProfilesRepository) private readonly profiles: ProfilesRepository,
    @Inject(SigningMaterialRepository) private readonly signing: SigningMaterialRepository,
    @Inject(ApnsRepository) private readonly apns: ApnsRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  /**
   * After start-up, off the request path: the signing material (made once on first run: two RSA
   * keys) and the images, so the first patient's pass is not the one that waits for them.
   */
  onApplicationBootstrap(): void {
    setTimeout(() => {
      void Promise.all([this.signing.get(), passImages()]).catch((error: Error) => this.logger.error(`Wallet signing is not ready: ${error.message}`));
    }, 1000).unref();
  }

  /** GET /api/get-pass-url/: a short-lived signed link to the caller's signed pass (a new pass when the last was retired). */
  async passUrl(caller: CallerIdentity): Promise<PassUrlReply> {
    const ownerId = requireUser(caller);
    const { pass, key } = await this.current(ownerId, caller.correlationId);
    await this.audit.record(caller, { action: 'wallet.pass.download', entityType: 'wallet-pass', entityId: pass.serialNumber, patientId: ownerId, outcome: 'success', policy: 'owner' });
    return { url: await this.blobs.downloadUrl(key, passFilename(ownerId), this.config.downloadLinkSeconds) };
  }

  /** What the caller's pass shows (the /wallet-preview front). */
  async view(caller: CallerIdentity): Promise<PassView> {
    const ownerId = requireUser(caller);
    const { pass, view } = await this.current(ownerId, caller.correlationId);
    await this.audit.record(caller, { action: 'wallet.pass.view', entityType: 'wallet-pass', entityId: pass.serialNumber, patientId: ownerId, outcome: 'success', policy: 'owner' });
    return view;
  }

  async updateSettings(caller: CallerIdentity, dto: PassSettingsDto): Promise<PassView> {
    const ownerId = requireUser(caller);
    const pass = await this.passOf(ownerId);
    if (pass.showName !== dto.show_name) {
      await this.passes.markChanged(pass.serialNumber, { showName: dto.show_name });
      await this.audit.record(caller, { action: 'wallet.pass.settings', entityType: 'wallet-pass', entityId: pass.serialNumber, patientId: ownerId, outcome: 'success', policy: 'owner' });
      await this.tellDevices(pass.serialNumber);
    }
    return (await this.current(ownerId, caller.correlationId)).view;
  }

  async googleSaveUrl(caller: CallerIdentity): Promise<PassUrlReply> {
    const ownerId = requireUser(caller);
    const { issuerId, account } = this.google() ?? {};
    if (!issuerId || !account) throw new DomainError('UNAVAILABLE', WALLET_MESSAGES.googleNotConfigured);
    const { pass, view } = await this.current(ownerId, caller.correlationId);
    await this.audit.record(caller, { action: 'wallet.google.save-link', entityType: 'wallet-pass', entityId: pass.serialNumber, patientId: ownerId, outcome: 'success', policy: 'owner' });
    return { url: await googleSaveUrl({ issuerId, account, view, publicBaseUrl: this.config.publicBaseUrl }) };
  }

  /** GET /api/wallet/status/: whether the caller has a live pass, or had one that was retired. Makes nothing. */
  async status(caller: CallerIdentity): Promise<PassStatus> {
    const ownerId = requireUser(caller);
    if (await this.passes.byOwner(ownerId)) return { state: 'active', retired_at: null };
    const retired = await this.passes.lastRetired(ownerId);
    return retired?.retiredAt ? { state: 'retired', retired_at: retired.retiredAt.toISOString() } : { state: 'none', retired_at: null };
  }

  clientConfig(): WalletClientConfig {
    return { apple_wallet: true, google_wallet: this.google() !== null };
  }

  /**
   * summary.share-link.changed.v1: the pass's own link changed (a new update tag), or revoked,
   * replaced or expired: the pass is retired. Either way its devices are told; a retired pass's
   * devices then get 401 and stop asking (no new link is made for it). Events about other links, or
   * older than what the pass has, change nothing (redelivery too).
   */
  async onLinkChanged(event: ShareLinkChangedEvent): Promise<void> {
    if (event.purpose !== 'wallet') return;
    const pass = await this.passes.markLinkChanged(event.owner_id, event.link_id, event.version, event.state);
    if (pass) await this.tellDevices(pass.serialNumber);
  }

  /**
   * identity.user.record-erased.v1: the wallet's part of erasing a record. Every pass of the
   * patient's is retired as a revoked link retires it (nothing left to show: no link, no name), its
   * signed copies are deleted and its devices are told through APNs; then the passes and their
   * device registrations are deleted: a device that asks gets nothing updated and 404 for the pass,
   * and stops. (No one can delete a pass from a phone: the copy there keeps a link that answers
   * "not valid".) Every step is harmless to repeat: a redelivery finds nothing left.
   */
  async onRecordErased(event: RecordErasedEvent, correlationId: string): Promise<void> {
    const passes = await this.passes.passesOf(event.patient_id);
    await this.passes.retireErased(event.patient_id);
    for (const pass of passes) if (pass.signedKey) await this.blobs.delete(pass.signedKey);
    for (const pass of passes) await this.tellDevices(pass.serialNumber);
    const deleted = await this.passes.deleteAllOf(event.patient_id);
    await this.audit.record(erasureCaller(event, correlationId), { action: RECORD_ERASED_ACTION, entityType: 'record', entityId: event.patient_id, patientId: event.patient_id, outcome: 'success' });
    this.logger.log(`record erased: ${deleted} passes deleted`);
  }

  /** The owner's live pass as it is now: issued (with its link) and signed if needed. */
  async current(ownerId: string, correlationId: string): Promise<CurrentPass> {
    return this.render(await this.passOf(ownerId), correlationId, { mayMakeLink: true });
  }

  /**
   * A pass as it is now, signed if needed. Its link is asked of the summary service only when the
   * pass has none yet (just issued, and only with `mayMakeLink`: the patient's own calls); otherwise
   * the link is the one kept here and followed through the summary service's change events. A pass
   * without an active link (retired) is never rendered: a device's token cannot obtain a link.
   */
  async render(given: WalletPass, correlationId: string, { mayMakeLink }: { mayMakeLink: boolean }): Promise<CurrentPass> {
    const owner: CallerIdentity = { userId: given.ownerId, roles: ['patient'], correlationId };
    let pass = given;
    if (pass.retiredAt) throw new DomainError('UNAUTHENTICATED', WALLET_MESSAGES.passRetired);
    let link: { id: string; version: number; url: string };
    if (pass.linkId && pass.linkUrl && pass.linkState === 'active') {
      link = { id: pass.linkId, version: pass.linkVersion, url: pass.linkUrl };
    } else if (!pass.linkId && mayMakeLink) {
      const ensured = await this.sharing.walletLink(owner).catch((error: unknown) => {
        if (error instanceof DomainError && error.code !== 'UPSTREAM_TIMEOUT' && error.code !== 'UNAVAILABLE') throw error;
        throw new DomainError('UNAVAILABLE', WALLET_MESSAGES.passUnavailable);
      });
      link = { id: ensured.id, version: ensured.version, url: ensured.url };
      pass = await this.passes.markChanged(pass.serialNumber, { linkId: link.id, linkVersion: link.version, linkUrl: link.url, linkState: 'active' });
    } else {
      throw new DomainError('UNAUTHENTICATED', WALLET_MESSAGES.passRetired);
    }
    const holderName = pass.showName ? await this.profiles.firstName(owner) : null;
    const material = await this.signing.get();
    const design = (updatedAt: Date) =>
      passDesign({ serialNumber: pass.serialNumber, organizationName: this.config.organizationName, holderName, showName: pass.showName, qrUrl: link.url, publicBaseUrl: this.config.publicBaseUrl, updatedAt });
    const webServiceUrl = this.webServiceUrl();
    const { updated_at: _time, ...shown } = design(pass.updatedAt);
    const digest = createHash('sha256')
      .update(JSON.stringify({ shown, design: PASS_DESIGN_VERSION, signature: PASS_SIGNATURE_FORMAT, link: [link.id, link.version], ptid: this.config.passTypeIdentifier, team: this.config.teamIdentifier, webServiceUrl, token: pass.authenticationToken, cert: material.fingerprint }))
      .digest('hex')
      .slice(0, 32);
    if (pass.signedDigest === digest && pass.signedKey) return { pass, view: design(pass.updatedAt), key: pass.signedKey };

    // What the pass shows changed without a link change (the name, a new certificate): still a change for devices.
    if (pass.signedDigest) pass = await this.passes.markChanged(pass.serialNumber, {});
    const view = design(pass.updatedAt);
    const bytes = await signPass({ view, passTypeIdentifier: this.config.passTypeIdentifier, teamIdentifier: this.config.teamIdentifier, authenticationToken: pass.authenticationToken, webServiceUrl, material });
    const key = this.blobs.keyFor(pass.serialNumber, digest);
    await this.blobs.put(key, bytes);
    const previous = pass.signedKey;
    await this.passes.recordSigned(pass.serialNumber, digest, key);
    if (previous && previous !== key) await this.blobs.delete(previous).catch(() => undefined);
    return { pass: { ...pass, signedDigest: digest, signedKey: key }, view, key };
  }

  /** The owner's live pass row, made on first use or after the last was retired (a new serial number and authentication token). */
  async passOf(ownerId: string): Promise<WalletPass> {
    return (await this.passes.byOwner(ownerId)) ?? this.passes.createIfAbsent({ serialNumber: randomUUID(), ownerId, authenticationToken: randomBytes(24).toString('base64url') });
  }

  webServiceUrl(): string {
    return this.config.webServiceUrl ?? `${this.config.publicBaseUrl.replace(/\/+$/, '')}/api/passkit/`;
  }

  /** APNs to every device that registered the pass; a token APNs says is gone (410) is dropped. */
  private async tellDevices(serialNumber: string): Promise<void> {
    if (!this.apns.enabled) return;
    const registrations = await this.passes.pushTokensOf(serialNumber);
    const results = await this.apns.notify(registrations.map((r) => r.pushToken));
    let failed = 0;
    for (const [i, result] of results.entries()) {
      if (result.status === 410) await this.passes.unregister(registrations[i]!.deviceLibraryIdentifier, serialNumber);
      else if (result.status !== 200) failed += 1;
    }
    if (failed) this.logger.warn(`APNs: ${failed} of ${results.length} pushes for a pass failed`);
  }

  private google(): { issuerId: string; account: ReturnType<typeof parseServiceAccount> } | null {
    const { googleWalletIssuerId: issuerId, googleWalletServiceAccount: json } = this.config;
    if (!issuerId || !json) return null;
    return { issuerId, account: parseServiceAccount(json) };
  }
}

/** The signed-in user, from the caller identity the gateway built from the verified token. */
export function requireUser(caller: CallerIdentity): string {
  if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
  return caller.userId;
}
