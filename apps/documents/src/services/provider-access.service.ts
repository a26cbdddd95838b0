import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DomainError,
  GRANT_DURATION_SECONDS,
  PROVIDER_MESSAGES,
  PROVIDER_ROLE,
  SHARING_MESSAGES,
  providerLabel,
  type AccessRequestItem,
  type CallerIdentity,
  type DecideRequestDto,
  type DocumentListItem,
  type DownloadLinkReply,
  type GrantCheckReply,
  type GrantIdDto,
  type GrantItem,
  type PatientAccessReply,
  type PatientDocumentDto,
  type PatientIdDto,
  type ProviderFacts,
  type ProviderPatientItem,
  type ProviderSummary,
  type RequestAccessDto,
  type RequestAccessReply,
  type ResolvedShareLink,
} from '@medfolio/contracts';
import { DocumentsConfig } from '../config';
import type { AccessRequest, ProviderGrant } from '../entities';
import { DirectoryRepository } from '../repositories/directory.repository';
import { ProviderAccessRepository } from '../repositories/provider-access.repository';
import { DocumentAudit, providerPolicy } from './document-audit';
import { DocumentsService } from './documents.service';
import { requireOwner } from './owner';
import { ownerCaller, ShareLinkGrantsService } from './share-link-grants.service';

/** A grant made by a link with providers_may_see_documents lasts this long (or until the link expires). */
const SHARE_LINK_GRANT_SECONDS = GRANT_DURATION_SECONDS.month;

/**
 * Patient-granted access to documents. A verified provider on a shared summary page
 * asks (the share id is resolved to its owner by the summary service); the patient is e-mailed and
 * sees the request in the app, and approves it for a day, a week or a month, or declines. A link
 * made with providers_may_see_documents grants at once (and the grant ends with the link:
 * ShareLinkGrantsService). A passcode link needs the view token its passcode gave, as its summary
 * does. With an active grant the provider lists the
 * patient's documents and gets download links, read-only; each is audited under the grant, naming
 * the provider. Anything else (no grant, revoked, expired, not a provider) answers 404, as any other
 * user's data does.
 */
@Injectable()
export class ProviderAccessService {
  private readonly logger = new Logger(ProviderAccessService.name);

  constructor(
    @Inject(ProviderAccessRepository) private readonly access: ProviderAccessRepository,
    @Inject(DirectoryRepository) private readonly directory: DirectoryRepository,
    @Inject(DocumentsService) private readonly documents: DocumentsService,
    @Inject(DocumentAudit) private readonly audit: DocumentAudit,
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
    @Inject(ShareLinkGrantsService) private readonly linkGrants: ShareLinkGrantsService,
  ) {}

  async requestAccess(caller: CallerIdentity, dto: RequestAccessDto, now = new Date()): Promise<RequestAccessReply> {
    const providerId = requireOwner(caller);
    const facts = await this.verifiedProvider(caller);
    const link = await this.resolveLink(caller, dto);
    const patientId = link.owner_id;
    if (patientId === providerId) throw new DomainError('VALIDATION_FAILED', 'This is your own summary: you already see your documents.');
    const existing = await this.access.activeGrant(providerId, patientId, now);
    if (existing) return { message: PROVIDER_MESSAGES.alreadyGranted, state: 'granted', patient_id: patientId };

    const provider = toSummary(caller, facts);
    const patient = await this.directory.userContact(caller, patientId);
    // Only an operator-verified provider is let in by the link; a self-attested one asks.
    if (link.providers_may_see_documents && provider.verification === 'verified') {
      const linkEnds = link.expires_at ? new Date(link.expires_at).getTime() : Infinity;
      const expiresAt = new Date(Math.min(now.getTime() + SHARE_LINK_GRANT_SECONDS * 1000, linkEnds));
      const grant = await this.access.createGrant({ patientId, providerId, provider, patientFirstName: patient.first_name, source: 'share-link', requestId: null, linkId: link.link_id, expiresAt });
      await this.audit.record(caller, 'provider-access.grant', 'success', patientId, grant.id, providerPolicy(grant.id, providerLabel(provider)));
      await this.linkStillGrants(caller, dto, link, grant.id);
      return { message: PROVIDER_MESSAGES.granted, state: 'granted', patient_id: patientId };
    }

    const requested = link.providers_may_see_documents ? PROVIDER_MESSAGES.requestedNotVerified : PROVIDER_MESSAGES.requested;
    const request = await this.access.createRequest({ patientId, providerId, provider, patientFirstName: patient.first_name, linkId: link.link_id, linkLabel: link.label });
    if (!request) return { message: requested, state: 'pending', patient_id: null };
    await this.audit.record(caller, 'provider-access.request', 'success', patientId, request.id, providerPolicy(request.id, providerLabel(provider)));
    try {
      await this.directory.mailAccessRequest(
        caller,
        patient.email,
        { first_name: patient.first_name, provider: provider.display_name, verification: provider.verification, review_url: `${this.config.publicBaseUrl.replace(/\/$/, '')}/providers/access` },
        `provider-access-request:${request.id}`,
      );
    } catch (error) {
      // The in-app request stands; the e-mail is a courtesy.
      this.logger.warn({ requestId: request.id, err: error instanceof Error ? error.name : 'Error' }, 'access request e-mail not queued');
    }
    return { message: requested, state: 'pending', patient_id: null };
  }

  async patientAccess(caller: CallerIdentity, now = new Date()): Promise<PatientAccessReply> {
    const patientId = requireOwner(caller);
    const [requests, grants] = await Promise.all([this.access.pendingOfPatient(patientId), this.access.grantsOfPatient(patientId)]);
    return { requests: requests.map(toRequestItem), grants: grants.map((g) => toGrantItem(g, now)) };
  }

  async decide(caller: CallerIdentity, dto: DecideRequestDto, now = new Date()): Promise<PatientAccessReply> {
    const patientId = requireOwner(caller);
    const expiresAt = new Date(now.getTime() + GRANT_DURATION_SECONDS[dto.duration ?? 'day'] * 1000);
    const action = dto.decision === 'approve' ? 'provider-access.approve' : 'provider-access.decline';
    const request = await this.access.findPendingRequest(patientId, dto.request_id);
    if (!request) throw new DomainError('NOT_FOUND', PROVIDER_MESSAGES.requestNotFound);
    // Audited before it takes effect (fail closed): no record, no grant.
    await this.audit.record(caller, action, 'success', patientId, dto.request_id, providerPolicy(request.id, providerLabel(request.provider)));
    const decided = await this.access.decide(patientId, dto.request_id, dto.decision, expiresAt, now);
    if (!decided) throw new DomainError('NOT_FOUND', PROVIDER_MESSAGES.requestNotFound);
    return this.patientAccess(caller, now);
  }

  async revoke(caller: CallerIdentity, dto: GrantIdDto, now = new Date()): Promise<PatientAccessReply> {
    const patientId = requireOwner(caller);
    const grant = await this.access.findGrant(patientId, dto.grant_id);
    if (!grant) throw new DomainError('NOT_FOUND', PROVIDER_MESSAGES.requestNotFound);
    await this.audit.record(caller, 'provider-access.revoke', 'success', patientId, grant.id, providerPolicy(grant.id, providerLabel(grant.provider)));
    await this.access.revoke(patientId, grant.id, now);
    return this.patientAccess(caller, now);
  }

  async patients(caller: CallerIdentity, now = new Date()): Promise<ProviderPatientItem[]> {
    const providerId = requireOwner(caller);
    await this.verifiedProvider(caller);
    const grants = await this.access.activeGrantsOfProvider(providerId, now);
    const seen = new Set<string>();
    const items: ProviderPatientItem[] = [];
    for (const grant of grants) {
      if (seen.has(grant.patientId)) continue;
      seen.add(grant.patientId);
      items.push({ patient_id: grant.patientId, first_name: grant.patientFirstName, grant_id: grant.id, expires_at: grant.expiresAt.toISOString() });
    }
    return items;
  }

  async patientDocuments(caller: CallerIdentity, dto: PatientIdDto, now = new Date()): Promise<DocumentListItem[]> {
    const grant = await this.grantFor(caller, dto.patient_id, now, 'document.list');
    return this.documents.listFor(caller, dto.patient_id, providerPolicy(grant.id, providerLabel(grant.provider)));
  }

  async patientDownloadLink(caller: CallerIdentity, dto: PatientDocumentDto, now = new Date()): Promise<DownloadLinkReply> {
    const grant = await this.grantFor(caller, dto.patient_id, now, 'document.download-link');
    return this.documents.downloadLinkFor(caller, dto.patient_id, dto.document_id, providerPolicy(grant.id, providerLabel(grant.provider)));
  }

  /** Service to service (summary): the caller's active grant to this patient, or NOT_FOUND. */
  async check(caller: CallerIdentity, dto: PatientIdDto, now = new Date()): Promise<GrantCheckReply> {
    const providerId = requireOwner(caller);
    const grant = await this.stillHolds(caller, caller.roles.includes(PROVIDER_ROLE) ? await this.access.activeGrant(providerId, dto.patient_id, now) : null);
    if (!grant) throw new DomainError('NOT_FOUND', PROVIDER_MESSAGES.patientNotFound);
    return { grant_id: grant.id, display_name: providerLabel(grant.provider) };
  }

  /**
   * The caller's active grant to this patient. The role in the token is required (identity signed
   * it); the grant itself is the authority, while the caller still holds the licence claim it was
   * given under (stillHolds). No grant: 404, and a denied attempt in the patient's history.
   */
  private async grantFor(caller: CallerIdentity, patientId: string, now: Date, action: 'document.list' | 'document.download-link'): Promise<ProviderGrant> {
    const providerId = requireOwner(caller);
    const grant = await this.stillHolds(caller, caller.roles.includes(PROVIDER_ROLE) ? await this.access.activeGrant(providerId, patientId, now) : null);
    if (!grant) {
      if (patientId !== providerId) await this.audit.recordQuietly(caller, action, 'denied', patientId, undefined, 'provider:none');
      throw new DomainError('NOT_FOUND', PROVIDER_MESSAGES.patientNotFound);
    }
    return grant;
  }

  /**
   * The link the provider is on, resolved by summary: a passcode link only with the view token its
   * passcode gave (FORBIDDEN "This link needs a passcode." otherwise, and nothing is
   * asked or granted). Unusable: "This link is not valid."
   */
  private async resolveLink(caller: CallerIdentity, dto: RequestAccessDto): Promise<ResolvedShareLink> {
    try {
      return await this.directory.resolveShare(caller, dto.share_id, dto.view_token);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw new DomainError('NOT_FOUND', SHARING_MESSAGES.notValid);
      throw error;
    }
  }

  /**
   * A grant a link just made stands only if the link still makes it. The link may have been revoked,
   * or its documents setting turned off, while the grant was being written; the change's event (which
   * ends the link's grants) may then have come before the grant existed. Asked once more after the
   * grant is stored, summary's answer is current: either it still allows the grant, or any later
   * change's event finds the grant and ends it. Otherwise it ends here (audited), and the provider is
   * told as if they had come after the change.
   */
  private async linkStillGrants(caller: CallerIdentity, dto: RequestAccessDto, link: ResolvedShareLink, grantId: string): Promise<void> {
    let refusal: unknown = null;
    try {
      const now = await this.resolveLink(caller, dto);
      if (now.link_id === link.link_id && now.providers_may_see_documents) return;
      refusal = new DomainError('CONFLICT', PROVIDER_MESSAGES.linkChanged);
    } catch (error) {
      refusal = error;
    }
    const owner = ownerCaller(link.owner_id, caller.correlationId);
    await this.access.transaction((manager) => this.linkGrants.end(manager, owner, link.link_id, new Date(), grantId));
    throw refusal;
  }

  /**
   * A grant was given to a provider as identity named them then (their NPI claim). It works only while
   * the caller still holds that claim now: a claim dropped by a name change,
   * rejected by an operator, or exchanged for another NPI ends it at once, whatever roles an access
   * token issued before still carries. Identity unreachable: the error (503), never access.
   */
  private async stillHolds(caller: CallerIdentity, grant: ProviderGrant | null): Promise<ProviderGrant | null> {
    if (!grant) return null;
    try {
      return (await this.directory.providerFacts(caller)).npi === grant.provider.npi ? grant : null;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return null;
      throw error;
    }
  }

  private async verifiedProvider(caller: CallerIdentity): Promise<ProviderFacts> {
    try {
      return await this.directory.providerFacts(caller);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') throw new DomainError('FORBIDDEN', PROVIDER_MESSAGES.notProvider);
      throw error;
    }
  }
}

function toSummary(caller: CallerIdentity, facts: ProviderFacts): ProviderSummary {
  const verification = facts.verification === 'verified' ? 'verified' : 'self_attested';
  return { user_id: caller.userId!, display_name: facts.display_name, verification, npi: facts.npi, credential: facts.credential, specialty: facts.specialty, state: facts.state };
}

/** Requests and grants made before the levels existed were name matches only: self-attested. */
function withLevel(provider: ProviderSummary): ProviderSummary {
  return { ...provider, verification: provider.verification === 'verified' ? 'verified' : 'self_attested' };
}

function toRequestItem(request: AccessRequest): AccessRequestItem {
  return { id: request.id, provider: withLevel(request.provider), link_label: request.linkLabel, state: request.state, created_at: request.createdAt.toISOString() };
}

function toGrantItem(grant: ProviderGrant, now: Date): GrantItem {
  return {
    id: grant.id,
    provider: withLevel(grant.provider),
    source: grant.source,
    granted_at: grant.grantedAt.toISOString(),
    expires_at: grant.expiresAt.toISOString(),
    revoked_at: grant.revokedAt ? grant.revokedAt.toISOString() : null,
    active: !grant.revokedAt && grant.expiresAt.getTime() > now.getTime(),
  };
}
