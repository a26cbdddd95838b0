import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { hash, verify } from '@node-rs/argon2';
import {
  DomainError,
  SHARE_ID_PATTERN,
  SHARE_PASSCODE_ATTEMPTS,
  SHARING_MESSAGES,
  type CallerIdentity,
  type CreateShareLinkDto,
  type EnsureShareLinkDto,
  type ResolvedShareLink,
  type ResolveShareLinkDto,
  type ShareLinkIdDto,
  type ShareLinkItem,
  type ShareLinkUnlockReply,
  type SummaryItem,
  type SummaryPatient,
  type SummaryQueryDto,
  type TrendSeries,
  type UnlockShareLinkDto,
  type UpdateShareLinkDto,
} from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { SummaryConfig } from '../config';
import { ShareLink } from '../entities';
import { ShareLinksRepository } from '../repositories/share-links.repository';
import { PatientIdentityRepository } from '../repositories/patient-identity.repository';
import { ShareNotifierRepository } from '../repositories/share-notifier.repository';
import { SummaryVersionsRepository } from '../repositories/summary-versions.repository';
import { SEAL_CONTEXT, newShareId, shareHash, type ShareLinkKeys } from './share-link-keys';
import { newShlKey, qrTextOf, shlinkOf } from './shl-links';
import { SummaryAudit } from './summary-audit';
import { TrendsService } from './trends.service';
import { gate } from './trends-model';

export const SHARE_LINK_KEYS = Symbol('SHARE_LINK_KEYS');

/** argon2id with OWASP's minimum, as identity hashes passwords. */
const ARGON2 = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const OWNER_ID = /^[A-Za-z0-9_-]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DEFAULT_LABELS = { default: 'My summary link', wallet: 'Wallet pass' } as const;
/**
 * How long a default link lives when made (the dashboard shows it and the owner can change it on the
 * share panel). A wallet link has none: the pass carries it, and its end retires the pass.
 */
export const DEFAULT_LINK_DAYS = 30;
/** Links an owner may hold that are not revoked. */
const MAX_LIVE_LINKS = 50;
const YEAR_MS = 366 * 24 * 3600 * 1000;

const notValid = () => new DomainError('NOT_FOUND', SHARING_MESSAGES.notValid);

/**
 * Share links to the summary: the owner's calls (ensure, list, create, update, revoke),
 * other services' resolve, and the public side (unlock a passcode link, view the shared summary).
 * Every unusable id answers the same 404 ("This link is not valid."), whatever the reason. Every
 * view is audited first (fail-closed), counted, and e-mailed to the owner at most once per link per
 * hour when they asked for it.
 */
@Injectable()
export class SharingService {
  private readonly logger = new Logger(SharingService.name);

  constructor(
    @Inject(ShareLinksRepository) private readonly links: ShareLinksRepository,
    @Inject(SummaryVersionsRepository) private readonly versions: SummaryVersionsRepository,
    @Inject(ShareNotifierRepository) private readonly notifier: ShareNotifierRepository,
    @Inject(SummaryAudit) private readonly audit: SummaryAudit,
    @Inject(SHARE_LINK_KEYS) private readonly keys: ShareLinkKeys,
    @Inject(SummaryConfig) private readonly config: SummaryConfig,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(PatientIdentityRepository) private readonly identities: PatientIdentityRepository,
    @Inject(TrendsService) private readonly trends: TrendsService,
  ) {}

  // ----- the owner -----

  async ensure(caller: CallerIdentity, dto: EnsureShareLinkDto): Promise<ShareLinkItem> {
    const ownerId = this.owner(caller);
    const link = await this.links.forOwner(ownerId, async (manager) => {
      const live = await this.links.live(ownerId, dto.purpose, manager);
      if (live && !this.expired(live)) return live;
      if (live) {
        // An expired default (or wallet) link is retired, so a new one can take its place.
        live.revokedAt = new Date();
        live.version += 1;
        await this.links.save(manager, live, 'expired');
      }
      const made = this.newLink(ownerId, dto.purpose, dto.label?.trim() || DEFAULT_LABELS[dto.purpose]);
      if (dto.purpose === 'default') made.expiresAt = new Date(Date.now() + DEFAULT_LINK_DAYS * 24 * 3600 * 1000);
      await this.links.insert(manager, made);
      return made;
    });
    this.relay.kick();
    return this.item(link);
  }

  async list(caller: CallerIdentity): Promise<ShareLinkItem[]> {
    const ownerId = this.owner(caller);
    return (await this.links.listForOwner(ownerId)).map((link) => this.item(link));
  }

  async create(caller: CallerIdentity, dto: CreateShareLinkDto): Promise<ShareLinkItem> {
    const ownerId = this.owner(caller);
    const expiresAt = this.expiry(dto.expires_at ?? null);
    const email = dto.notify_on_view ? await this.notifier.ownerEmail(caller) : null;
    const passcodeHash = dto.passcode ? await hash(dto.passcode, ARGON2) : null;
    const chosenTrends = await this.checkTrends(ownerId, dto.trends ?? []);
    const link = await this.links.forOwner(ownerId, async (manager) => {
      const live = (await this.links.listForOwner(ownerId, manager)).filter((l) => !l.revokedAt).length;
      if (live >= MAX_LIVE_LINKS) throw new DomainError('CONFLICT', `You can have at most ${MAX_LIVE_LINKS} links; revoke one first.`);
      const made = this.newLink(ownerId, 'custom', dto.label.trim());
      made.expiresAt = expiresAt;
      made.passcodeHash = passcodeHash;
      made.notifyOnView = dto.notify_on_view ?? false;
      made.notifyEmailSealed = email ? this.keys.seal(email, SEAL_CONTEXT.email(made.id)) : null;
      made.providersMaySeeDocuments = dto.providers_may_see_documents ?? false;
      made.shlKey = dto.shl ? newShlKey() : null;
      made.showPatientIdentity = dto.show_patient_identity ?? true;
      made.trends = chosenTrends;
      await this.audit.recordShare(caller, 'share-link.create', 'success', made);
      await this.links.insert(manager, made);
      return made;
    });
    this.relay.kick();
    return this.item(link);
  }

  async update(caller: CallerIdentity, dto: UpdateShareLinkDto): Promise<ShareLinkItem> {
    const ownerId = this.owner(caller);
    const expiresAt = dto.expires_at === undefined ? undefined : this.expiry(dto.expires_at);
    const email = dto.notify_on_view ? await this.notifier.ownerEmail(caller) : null;
    const passcodeHash = dto.passcode ? await hash(dto.passcode, ARGON2) : dto.passcode;
    const chosenTrends = dto.trends === undefined ? undefined : await this.checkTrends(ownerId, dto.trends);
    const link = await this.links.forOwner(ownerId, async (manager) => {
      const found = await this.changeable(ownerId, dto.link_id, manager);
      if (dto.label !== undefined) found.label = dto.label.trim();
      if (expiresAt !== undefined) found.expiresAt = expiresAt;
      if (passcodeHash !== undefined) {
        // A new passcode (or none) also unlocks a link locked by wrong guesses.
        found.passcodeHash = passcodeHash;
        found.failedAttempts = 0;
      }
      if (dto.notify_on_view !== undefined) {
        found.notifyOnView = dto.notify_on_view;
        found.notifyEmailSealed = email ? this.keys.seal(email, SEAL_CONTEXT.email(found.id)) : null;
      }
      if (dto.providers_may_see_documents !== undefined) found.providersMaySeeDocuments = dto.providers_may_see_documents;
      if (dto.shl !== undefined) found.shlKey = dto.shl ? (found.shlKey ?? newShlKey()) : null;
      if (dto.show_patient_identity !== undefined) found.showPatientIdentity = dto.show_patient_identity;
      if (chosenTrends !== undefined) found.trends = chosenTrends;
      found.version += 1;
      await this.audit.recordShare(caller, 'share-link.update', 'success', found);
      await this.links.save(manager, found, this.expired(found) ? 'expired' : 'active');
      return found;
    });
    this.relay.kick();
    return this.item(link);
  }

  async revoke(caller: CallerIdentity, dto: ShareLinkIdDto): Promise<ShareLinkItem> {
    const ownerId = this.owner(caller);
    const link = await this.links.forOwner(ownerId, async (manager) => {
      const found = await this.links.ofOwner(ownerId, dto.link_id, manager);
      if (!found) throw new DomainError('NOT_FOUND', SHARING_MESSAGES.linkNotFound);
      if (found.revokedAt) return found;
      found.revokedAt = new Date();
      found.version += 1;
      await this.audit.recordShare(caller, 'share-link.revoke', 'success', found);
      await this.links.save(manager, found, 'revoked');
      return found;
    });
    this.relay.kick();
    return this.item(link);
  }

  // ----- other services -----

  /**
   * A usable link's owner and flags, for another service acting on it (a provider's access request).
   * A passcode link needs its view token, exactly as its summary does: what a link leads to is never
   * more than the link itself opens.
   */
  async resolve(dto: ResolveShareLinkDto): Promise<ResolvedShareLink> {
    const link = await this.usable(dto.share_id);
    if (!link) throw notValid();
    this.requirePasscode(link, dto.view_token);
    return {
      link_id: link.id,
      owner_id: link.ownerId,
      label: link.label,
      purpose: link.purpose,
      providers_may_see_documents: link.providersMaySeeDocuments,
      expires_at: link.expiresAt?.toISOString() ?? null,
    };
  }

  // ----- anyone holding the link -----

  /**
   * The id of one of `ownerId`'s own usable links (View Summary opens the default link): the
   * summary service then shows the owner their own summary, as for their user id. A revoked,
   * expired or locked link is not (it answers "not valid" like any other).
   */
  async ownersLink(ownerId: string | undefined, shareId: string): Promise<Pick<ShareLink, 'id' | 'showPatientIdentity'> | null> {
    if (!ownerId) return null;
    const link = await this.usable(shareId);
    return link?.ownerId === ownerId ? link : null;
  }

  /**
   * A passcode: right → a view token for this link (good for SHARE_VIEW_TOKEN_SECONDS, and only while
   * the passcode stays the same); wrong → 401 with the attempts left. Each attempt is claimed before
   * the passcode is checked, so parallel guesses cannot go past the limit.
   */
  async unlock(caller: CallerIdentity, dto: UnlockShareLinkDto): Promise<ShareLinkUnlockReply> {
    const link = await this.usable(dto.user);
    if (!link) throw notValid();
    const expiresAt = new Date(Date.now() + this.config.shareViewTokenSeconds * 1000);
    if (!link.passcodeHash) return { view_token: this.keys.viewToken(link.id, '', expiresAt), expires_at: expiresAt.toISOString() };
    const used = await this.links.claimAttempt(link.id, SHARE_PASSCODE_ATTEMPTS);
    if (used === null) throw notValid();
    if (await verify(link.passcodeHash, dto.passcode).catch(() => false)) {
      await this.links.resetAttempts(link.id, link.passcodeHash);
      return { view_token: this.keys.viewToken(link.id, link.passcodeHash, expiresAt), expires_at: expiresAt.toISOString() };
    }
    const left = Math.max(0, SHARE_PASSCODE_ATTEMPTS - used);
    await this.audit.recordShareQuietly(caller, left === 0 ? 'share-link.locked' : 'share-link.unlock', 'failure', link);
    throw new DomainError('UNAUTHENTICATED', SHARING_MESSAGES.wrongPasscode(left), { passcode: [SHARING_MESSAGES.wrongPasscode(left)], remaining_attempts: [String(left)] });
  }

  /**
   * GET /api/summary/?user={shareId} for anyone but the owner: the latest CONFIRMED version, without
   * documents, sources or review state (none confirmed yet: status `unreviewed`, no sections). Unknown, revoked, expired and locked ids all answer 404.
   */
  async view(caller: CallerIdentity, query: SummaryQueryDto): Promise<SummaryItem[]> {
    const link = await this.opened(caller, query);
    // Read while the view is recorded; handed out only once it is (a failed record throws).
    const [item] = await Promise.all([this.sharedItem(link, caller), this.recordView(caller, link)]);
    return [item];
  }

  /**
   * The link `query.user` opens for anyone holding it (and the view token, for a passcode link):
   * usable, else the same 404 (recorded as denied); a passcode link without a valid view token: 403.
   * Not yet a view: the caller records one (recordView) when it hands the summary out.
   */
  async opened(caller: CallerIdentity, query: SummaryQueryDto): Promise<ShareLink> {
    const link = SHARE_ID_PATTERN.test(query.user) ? await this.links.byHash(shareHash(query.user)) : null;
    if (!link) {
      // A patient's id asked for by someone else: recorded against that patient, as before share links.
      if (UUID.test(query.user) && OWNER_ID.test(query.user)) await this.audit.recordQuietly(caller, 'summary.read', 'denied', query.user);
      throw notValid();
    }
    if (!this.open(link)) {
      await this.audit.recordShareQuietly(caller, 'summary.shared-view', 'denied', link);
      throw notValid();
    }
    this.requirePasscode(link, query.view_token);
    return link;
  }

  /**
   * One view of the shared summary through `link` (the page, a format, an SHL manifest or file):
   * audited first (fail-closed: no record, nothing handed out), counted, and e-mailed to the owner
   * when they asked (at most once per link per hour).
   */
  async recordView(caller: CallerIdentity, link: ShareLink): Promise<void> {
    await this.audit.recordShare(caller, 'summary.shared-view', 'success', link);
    const viewedAt = new Date();
    const { notify } = await this.links.viewed(link.id, viewedAt);
    if (notify) void this.notifyOwner(caller, link, viewedAt);
  }

  /**
   * The summary as a link shows it (also what a provider with a grant reads), naming the
   * patient when the link shows them.
   */
  async sharedItem(
    link: Pick<ShareLink, 'ownerId' | 'label' | 'expiresAt' | 'showPatientIdentity'> & { trends?: string[] },
    caller?: CallerIdentity,
  ): Promise<SummaryItem> {
    const [confirmed, patient, trends] = await Promise.all([
      this.versions.confirmedVersion(link.ownerId),
      link.showPatientIdentity ? this.patientOf(link.ownerId, caller) : Promise.resolve(null),
      this.sharedTrends(link.ownerId, link.trends ?? []),
    ]);
    const shared = { label: link.label, expires_at: link.expiresAt?.toISOString() ?? null, show_patient_identity: link.showPatientIdentity };
    const withTrends = trends.length ? { trends } : {};
    if (!confirmed) {
      // Before the patient's review nothing is shown, and nothing is claimed either: no section says
      // "not recorded" (the documents may well mention it), and whether any documents exist is not told.
      return { summary: '', status: 'unreviewed', version: 0, confirmed_version: null, updated_at: new Date().toISOString(), sections: [], documents: [], shared, patient, ...withTrends };
    }
    const sections = confirmed.sections.map((section) => {
      const facts = section.facts
        .filter((fact) => !fact.hidden)
        .map((fact) => ({ ...fact, hidden: false, edited: false, added_by_patient: false, sources: [] }));
      return {
        ...section,
        state: section.state === 'facts' && facts.length === 0 ? ('not_recorded' as const) : section.state,
        facts,
        none_known: section.none_known ? { text: section.none_known.text, sources: [] } : null,
      };
    });
    return {
      summary: confirmed.text,
      status: 'ready',
      version: confirmed.version,
      confirmed_version: confirmed.version,
      updated_at: confirmed.builtAt.toISOString(),
      sections,
      documents: [],
      shared,
      patient,
      ...withTrends,
    };
  }

  /**
   * The trends a link may share: series keys of the patient's that their plan lets them see (every
   * series on Plus and Family, the preview's one otherwise). Unknown keys are refused by name.
   */
  private async checkTrends(ownerId: string, keys: string[]): Promise<string[]> {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return [];
    const { series } = gate(await this.trends.series(ownerId), [], await this.trends.fullAccess(ownerId), new Date());
    const known = new Set(series.map((s) => s.key));
    const unknown = unique.filter((k) => !known.has(k));
    if (unknown.length) {
      throw new DomainError('VALIDATION_FAILED', `trends: ${unknown.map((k) => `"${k}"`).join(', ')} ${unknown.length === 1 ? 'is not one of your' : 'are not among your'} health trends (GET /api/trends/ lists them).`);
    }
    return unique;
  }

  /** The chosen series as a share shows them: values, dates, ranges and flags; no sources (as the shared facts). */
  private async sharedTrends(ownerId: string, keys: string[]): Promise<TrendSeries[]> {
    if (keys.length === 0) return [];
    const chosen = new Set(keys);
    return (await this.trends.series(ownerId))
      .filter((s) => chosen.has(s.key))
      .map((s) => ({ ...s, points: s.points.map((p) => ({ ...p, sources: [] })) }));
  }

  /**
   * The patient's current name and date of birth (identity, asked now: a renamed account shows its
   * new name). Null when identity cannot answer just now: the summary is still handed out (it may be
   * needed in a hurry), and the page says the name could not be loaded; nothing about it is logged
   * but the failure.
   */
  async patientOf(ownerId: string, caller?: CallerIdentity): Promise<SummaryPatient | null> {
    try {
      const found = await this.identities.of(ownerId, { roles: [], correlationId: caller?.correlationId ?? randomUUID() });
      const given = found.first_name.trim();
      const family = found.last_name.trim();
      return { name: [given, family].filter(Boolean).join(' '), given, family, birth_date: found.date_of_birth };
    } catch (error) {
      this.logger.warn({ err: error instanceof DomainError ? error.code : 'error' }, 'the patient\'s name could not be read from identity');
      return null;
    }
  }

  private async notifyOwner(caller: CallerIdentity, link: ShareLink, viewedAt: Date): Promise<void> {
    try {
      if (!link.notifyEmailSealed) return;
      const to = this.keys.open(link.notifyEmailSealed, SEAL_CONTEXT.email(link.id));
      const hour = Math.floor(viewedAt.getTime() / 3_600_000);
      const when = `${viewedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
      await this.notifier.sendViewed({ roles: [], correlationId: caller.correlationId }, to, { label: link.label, viewed_at: when }, `share-view:${link.id}:${hour}`);
    } catch (error) {
      this.logger.warn({ linkId: link.id, err: String(error) }, 'the view e-mail was not queued; the next view tries again');
      await this.links.unclaimNotification(link.id, viewedAt).catch(() => undefined);
    }
  }

  // ----- helpers -----

  private newLink(ownerId: string, purpose: ShareLink['purpose'], label: string): ShareLink {
    const id = randomUUID();
    const shareId = newShareId();
    return Object.assign(new ShareLink(), {
      id,
      ownerId,
      purpose,
      shareHash: shareHash(shareId),
      shareSealed: this.keys.seal(shareId, SEAL_CONTEXT.shareId(id)),
      label,
      version: 1,
      createdAt: new Date(),
      expiresAt: null,
      revokedAt: null,
      passcodeHash: null,
      failedAttempts: 0,
      notifyOnView: false,
      notifyEmailSealed: null,
      lastNotifiedAt: null,
      providersMaySeeDocuments: false,
      showPatientIdentity: true,
      trends: [],
      viewCount: 0,
      lastViewedAt: null,
      shlKey: null,
    } satisfies ShareLink);
  }

  /** The owner's view of a link, with its URL (the share id unsealed). */
  item(link: ShareLink): ShareLinkItem {
    const shareId = this.unsealShareId(link);
    return {
      id: link.id,
      share_id: shareId,
      url: shareId ? `${this.config.publicBaseUrl.replace(/\/$/, '')}/summary/${shareId}` : '',
      label: link.label,
      purpose: link.purpose,
      version: link.version,
      created_at: link.createdAt.toISOString(),
      expires_at: link.expiresAt?.toISOString() ?? null,
      revoked_at: link.revokedAt?.toISOString() ?? null,
      has_passcode: link.passcodeHash !== null,
      locked: this.locked(link),
      notify_on_view: link.notifyOnView,
      providers_may_see_documents: link.providersMaySeeDocuments,
      show_patient_identity: link.showPatientIdentity,
      trends: link.trends ?? [],
      view_count: link.viewCount,
      last_viewed_at: link.lastViewedAt?.toISOString() ?? null,
      shl: shareId ? shlinkOf(link, shareId, this.config.publicBaseUrl) : null,
      qr_text: shareId ? qrTextOf(link, shareId, this.config.publicBaseUrl) : '',
    };
  }

  /**
   * The share id, or '' when it cannot be unsealed (the key changed, e.g. INTERNAL_API_TOKEN rotated
   * without SHARE_LINK_KEY set): the link still works for those who hold it, but its owner can no
   * longer see its address, and the list says so rather than failing.
   */
  private unsealShareId(link: ShareLink): string {
    try {
      return this.keys.open(link.shareSealed, SEAL_CONTEXT.shareId(link.id));
    } catch {
      this.logger.warn({ linkId: link.id }, 'a share link could not be unsealed (another SHARE_LINK_KEY?)');
      return '';
    }
  }

  /** An id's link when it may be used now (not revoked, expired or locked), else null. */
  async usable(shareId: string): Promise<ShareLink | null> {
    if (!SHARE_ID_PATTERN.test(shareId)) return null;
    const link = await this.links.byHash(shareHash(shareId));
    return link && this.open(link) ? link : null;
  }

  /** A passcode link opens only with a view token made for it under its current passcode. */
  private requirePasscode(link: ShareLink, viewToken: string | undefined): void {
    if (link.passcodeHash && !(viewToken && this.keys.checkViewToken(viewToken, link.id, link.passcodeHash))) {
      throw new DomainError('FORBIDDEN', SHARING_MESSAGES.passcodeRequired, { passcode: [SHARING_MESSAGES.passcodeRequired] });
    }
  }

  private open(link: ShareLink): boolean {
    return !link.revokedAt && !this.expired(link) && !this.locked(link);
  }

  private expired(link: ShareLink, now = Date.now()): boolean {
    return link.expiresAt !== null && link.expiresAt.getTime() <= now;
  }

  private locked(link: ShareLink): boolean {
    return link.passcodeHash !== null && link.failedAttempts >= SHARE_PASSCODE_ATTEMPTS;
  }

  private async changeable(ownerId: string, linkId: string, manager: EntityManager): Promise<ShareLink> {
    const found = await this.links.ofOwner(ownerId, linkId, manager);
    if (!found) throw new DomainError('NOT_FOUND', SHARING_MESSAGES.linkNotFound);
    if (found.revokedAt) throw new DomainError('CONFLICT', 'This link was revoked; make a new one instead.');
    return found;
  }

  private expiry(value: string | null): Date | null {
    if (value === null) return null;
    const at = new Date(value);
    const now = Date.now();
    if (Number.isNaN(at.getTime()) || at.getTime() <= now || at.getTime() > now + YEAR_MS) {
      throw new DomainError('VALIDATION_FAILED', SHARING_MESSAGES.expiryInPast, { expires_at: [SHARING_MESSAGES.expiryInPast] });
    }
    return at;
  }

  private owner(caller: CallerIdentity): string {
    if (!caller.userId || !OWNER_ID.test(caller.userId)) throw new DomainError('UNAUTHENTICATED', 'Please sign in to manage your share links.');
    return caller.userId;
  }
}
