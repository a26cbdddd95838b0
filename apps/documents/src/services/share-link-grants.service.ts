import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PATIENT_ROLE, providerLabel, type CallerIdentity, type ShareLinkChangedEvent } from '@medfolio/contracts';
import { HEADER, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import type { ProviderGrant } from '../entities';
import { ProviderAccessRepository } from '../repositories/provider-access.repository';
import { DocumentAudit, providerPolicy } from './document-audit';

/**
 * Grants made by a share link end with the link. Follows the summary service's
 * `summary.share-link.changed.v1` (as the wallet does for its pass's link): when a link is revoked,
 * replaced or expired, or its "verified providers may see documents" is turned off, every active
 * grant it made (source 'share-link', that link id) is revoked at once, each audited in the
 * patient's history ('provider-access.end'); when its expiry moves earlier, those grants end by then
 * too. Grants the patient approved from a request stay: the patient decided those. The service kit
 * validates the event (ShareLinkChangedEvent) and gives the `once` that applies it once per message.
 */
@Injectable()
export class ShareLinkGrantsService {
  private readonly logger = new Logger(ShareLinkGrantsService.name);

  constructor(
    @Inject(ProviderAccessRepository) private readonly access: ProviderAccessRepository,
    @Inject(DocumentAudit) private readonly audit: DocumentAudit,
  ) {}

  async onLinkChanged(event: EventEnvelope<ShareLinkChangedEvent>, once: OnceInTransaction): Promise<void> {
    const change = event.data;
    const owner = ownerCaller(change.owner_id, event.headers[HEADER.correlationId] || event.id);
    // An event written before the setting travelled with it says nothing about it (undefined): only
    // an explicit false ends the grants of a link that is still active.
    const ends = change.state !== 'active' || change.providers_may_see_documents === false;
    await once(async (manager) => {
      if (ends) {
        const ended = await this.end(manager, owner, change.link_id, new Date());
        if (ended.length > 0) this.logger.log({ linkId: change.link_id, state: change.state, ended: ended.length }, 'grants made by a share link ended with it');
      } else if (change.expires_at) {
        await this.access.capLinkGrants(manager, change.owner_id, change.link_id, new Date(change.expires_at));
      }
    });
  }

  /**
   * Ends the link's active grants (or the one `grantId`) in `manager`'s transaction, each audited
   * fail-closed: a record that is not stored rolls the ending back, and the event is tried again.
   * The actor is the patient: the link's change ended them.
   */
  async end(manager: EntityManager, owner: Owner, linkId: string, now: Date, grantId?: string): Promise<ProviderGrant[]> {
    const ended = await this.access.endLinkGrants(manager, owner.userId, linkId, now, grantId);
    for (const grant of ended) {
      await this.audit.record(owner, 'provider-access.end', 'success', grant.patientId, grant.id, providerPolicy(grant.id, providerLabel(grant.provider)));
    }
    return ended;
  }
}

/** A link's owner as a caller: always a user. */
export type Owner = CallerIdentity & { userId: string };

/** The patient as the actor of what their link's change does (no request of theirs carries it). */
export function ownerCaller(ownerId: string, correlationId: string): Owner {
  return { userId: ownerId, roles: [PATIENT_ROLE], correlationId };
}
