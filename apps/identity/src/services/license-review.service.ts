import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import type { LicenseDispute, ProviderLicense } from '../entities';
import { ProviderLicensesRepository } from '../repositories/provider-licenses.repository';
import { SessionsRepository } from '../repositories/sessions.repository';
import { UsersRepository } from '../repositories/users.repository';
import { providerDisplayName } from './license.service';

/** One claim waiting for an operator, with what the operator needs to check it out of band. */
export interface PendingClaim {
  user_id: string;
  account_name: string;
  email: string;
  npi: string;
  registry: string;
  registry_name: string;
  credential: string;
  specialty: string;
  state: string;
  claimed_at: string;
  /** An open dispute names this number: decide the dispute first. */
  disputed: boolean;
}

export interface OpenDispute {
  id: string;
  npi: string;
  filed_at: string;
  claimant: { user_id: string; account_name: string; email: string };
  /** The account holding the claim; its review state ('pending', 'verified'), or null if it no longer holds it. */
  holder: { user_id: string; account_name: string; email: string; review: string | null };
}

export interface ReviewQueue {
  claims: PendingClaim[];
  disputes: OpenDispute[];
}

export type ReviewDecision = 'approve' | 'reject' | 'uphold' | 'dismiss';

/** An operator's identity as the audit log records it ('operator:<name>'). */
export function operatorCaller(operator: string): CallerIdentity {
  return { userId: `operator:${operator}`.slice(0, 100), roles: ['operator'], correlationId: randomUUID() };
}

/**
 * The operators' review queue of licence claims. A registry name match only
 * makes a claim (self-attested); an operator who has confirmed the person out of band (for example by
 * calling the practice number the registry lists, or seeing the licence and an identity document)
 * approves it, which makes the provider 'verified', or rejects it (no role). Disputes (the real holder
 * says another account's claimed number is theirs) are upheld (the holder's claim is rejected and the
 * number freed for the claimant to claim) or dismissed. Each decision is audited before it takes
 * effect, with the operator as actor, on the provider's own history. A rejected account's sign-ins
 * end at once, so no access token issued before keeps the provider role.
 */
@Injectable()
export class LicenseReviewService {
  constructor(
    @Inject(ProviderLicensesRepository) private readonly licenses: ProviderLicensesRepository,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(SessionsRepository) private readonly sessions: SessionsRepository,
  ) {}

  async queue(): Promise<ReviewQueue> {
    const [pending, disputes] = await Promise.all([this.licenses.pending(), this.licenses.openDisputes()]);
    const disputed = new Set(disputes.map((d) => d.licenseNumber));
    const claims: PendingClaim[] = [];
    for (const license of pending) {
      const user = await this.users.findById(license.userId);
      claims.push({
        user_id: license.userId,
        account_name: user ? `${user.firstName} ${user.lastName}`.trim() : '',
        email: user?.email ?? '',
        npi: license.licenseNumber,
        registry: license.registry,
        registry_name: providerDisplayName(license),
        credential: license.credential,
        specialty: license.specialty,
        state: license.state,
        claimed_at: license.verifiedAt.toISOString(),
        disputed: disputed.has(license.licenseNumber),
      });
    }
    const open: OpenDispute[] = [];
    for (const dispute of disputes) {
      const [claimant, holder, claim] = await Promise.all([this.users.findById(dispute.claimantId), this.users.findById(dispute.holderId), this.licenses.findByUser(dispute.holderId)]);
      open.push({
        id: dispute.id,
        npi: dispute.licenseNumber,
        filed_at: dispute.createdAt.toISOString(),
        claimant: { user_id: dispute.claimantId, account_name: claimant ? `${claimant.firstName} ${claimant.lastName}`.trim() : '', email: claimant?.email ?? '' },
        holder: {
          user_id: dispute.holderId,
          account_name: holder ? `${holder.firstName} ${holder.lastName}`.trim() : '',
          email: holder?.email ?? '',
          review: claim && claim.licenseNumber === dispute.licenseNumber && claim.review !== 'rejected' ? claim.review : null,
        },
      });
    }
    return { claims, disputes: open };
  }

  /** Approve: the pending claim on this NPI becomes verified. Refused while a dispute of the number is open. */
  async approve(operator: string, npi: string, note: string): Promise<ProviderLicense> {
    const claim = await this.claimOn(npi);
    if (claim.review !== 'pending') throw new DomainError('CONFLICT', `The claim on NPI ${npi} is ${claim.review}, not pending.`);
    if (await this.licenses.hasOpenDispute(npi)) throw new DomainError('CONFLICT', `NPI ${npi} is disputed: uphold or dismiss the dispute first.`);
    return this.decideClaim(operator, claim, 'verified', 'license.review.approve', note);
  }

  /** Reject: the claim on this NPI (pending or verified) is rejected: no role, and the number is freed. */
  async reject(operator: string, npi: string, note: string): Promise<ProviderLicense> {
    const claim = await this.claimOn(npi);
    return this.decideClaim(operator, claim, 'rejected', 'license.review.reject', note);
  }

  /** Uphold: the claimant is the real holder; the holder's claim is rejected (number freed for the claimant to claim). */
  async uphold(operator: string, disputeId: string, note: string): Promise<LicenseDispute> {
    return this.decideDispute(operator, disputeId, 'upheld', note);
  }

  /** Dismiss: the claim stands (and may then be approved). */
  async dismiss(operator: string, disputeId: string, note: string): Promise<LicenseDispute> {
    return this.decideDispute(operator, disputeId, 'dismissed', note);
  }

  private async claimOn(npi: string): Promise<ProviderLicense> {
    const claim = await this.licenses.findByNumber(npi);
    if (!claim) throw new DomainError('NOT_FOUND', `No account claims NPI ${npi}.`);
    return claim;
  }

  private async decideClaim(operator: string, claim: ProviderLicense, to: 'verified' | 'rejected', action: string, note: string): Promise<ProviderLicense> {
    const caller = operatorCaller(operator);
    const by = caller.userId!;
    await this.audit.record(caller, { action, entityType: 'provider-license', entityId: claim.licenseNumber, patientId: claim.userId, outcome: 'success', policy: 'operator-review' });
    const at = new Date();
    if (!(await this.licenses.review(claim.userId, claim.licenseNumber, claim.review, to, by, note, at))) {
      throw new DomainError('CONFLICT', `The claim on NPI ${claim.licenseNumber} changed meanwhile: list the queue again.`);
    }
    // A rejected claim's role must not outlive the decision in access tokens already issued: its
    // sign-ins end (every gateway refuses their tokens at once); the next sign-in has no provider role.
    if (to === 'rejected') await this.sessions.revokeAllForUser(claim.userId, 'licence claim rejected');
    return { ...claim, review: to, reviewedAt: at, reviewedBy: by, reviewNote: note };
  }

  private async decideDispute(operator: string, disputeId: string, state: 'upheld' | 'dismissed', note: string): Promise<LicenseDispute> {
    const dispute = /^[0-9a-f-]{36}$/i.test(disputeId) ? await this.licenses.findDispute(disputeId) : null;
    if (!dispute) throw new DomainError('NOT_FOUND', `No dispute ${disputeId}.`);
    if (dispute.state !== 'open') throw new DomainError('CONFLICT', `Dispute ${disputeId} is already ${dispute.state}.`);
    const caller = operatorCaller(operator);
    const action = state === 'upheld' ? 'license.dispute.uphold' : 'license.dispute.dismiss';
    // On both accounts' histories: the claimant's dispute and the holder's claim.
    await this.audit.record(caller, { action, entityType: 'provider-license', entityId: dispute.licenseNumber, patientId: dispute.claimantId, outcome: 'success', policy: `dispute:${dispute.id}` });
    await this.audit.record(caller, { action, entityType: 'provider-license', entityId: dispute.licenseNumber, patientId: dispute.holderId, outcome: 'success', policy: `dispute:${dispute.id}` });
    const at = new Date();
    if (!(await this.licenses.decideDispute(dispute, state, caller.userId!, note, at))) throw new DomainError('CONFLICT', `Dispute ${disputeId} was decided meanwhile.`);
    if (state === 'upheld') await this.sessions.revokeAllForUser(dispute.holderId, 'licence claim rejected (dispute upheld)');
    return { ...dispute, state, decidedAt: at, decidedBy: caller.userId!, note };
  }
}
