import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  DomainError,
  PATIENT_ROLE,
  PROVIDER_MESSAGES,
  PROVIDER_ROLE,
  type AuditOutcome,
  type CallerIdentity,
  type DisputeLicenseReply,
  type ProviderFacts,
  type UserContact,
  type UserContactDto,
  type VerifyLicenseDto,
  type VerifyLicenseReply,
} from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { IdentityConfig } from '../config';
import type { ProviderLicense, User } from '../entities';
import { LICENSE_VERIFIER, type LicenseVerifier, type RegistryRecord } from '../providers/license-verifier';
import { namesMatch } from '../providers/npi';
import { AuthFailuresRepository } from '../repositories/auth-failures.repository';
import { ProviderLicensesRepository } from '../repositories/provider-licenses.repository';
import { UsersRepository } from '../repositories/users.repository';
import { formatWait } from './brute-force.service';
import { requireUser } from './password.service';

const WINDOW_MS = 60 * 60 * 1000;
const ATTEMPT_SCOPE = 'license';

/** Why an attempt was refused, in the audit record's entity id (never the user's input beyond the number). */
type Refusal = 'malformed' | 'not-found' | 'organisation' | 'name-mismatch' | 'claimed' | 'unavailable' | 'rate-limited' | 'rejected' | 'not-claimed';

/**
 * Licence claims and the provider role (self-attested or operator-verified). The number's check digit is tested here
 * first (a typo never leaves the server); then the registry (LicenseVerifier) must know it as an
 * individual whose name matches the account's, and no other account may hold it. Success stores the
 * registry's facts as a self-attested claim (NPPES is public: a name match is a claim, not proof),
 * which is the provider role: access tokens issued from then on (sign-in and every refresh) carry
 * roles ['patient', 'provider']. An operator verifies or rejects the claim (LicenseReviewService);
 * the real holder of a claimed number may dispute it. Every attempt is counted (LICENSE_ATTEMPTS_PER_HOUR
 * per account) and audited, with its outcome, before the answer.
 */
@Injectable()
export class LicenseService {
  private readonly logger = new Logger(LicenseService.name);

  constructor(
    @Inject(LICENSE_VERIFIER) private readonly verifier: LicenseVerifier,
    @Inject(ProviderLicensesRepository) private readonly licenses: ProviderLicensesRepository,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(AuthFailuresRepository) private readonly attempts: AuthFailuresRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  async verify(caller: CallerIdentity, dto: VerifyLicenseDto): Promise<VerifyLicenseReply> {
    const { userId, number, record } = await this.registryMatch(caller, dto);
    const mine = await this.licenses.findByUser(userId);
    if (mine?.licenseNumber === number && mine.review === 'rejected') return this.refuse(caller, userId, number, 'rejected', 'FORBIDDEN', PROVIDER_MESSAGES.rejected);
    const holder = await this.licenses.findByNumber(number);
    // The registry's name matches this account too: the real holder may be this one, so say how to dispute.
    if (holder && holder.userId !== userId) return this.refuse(caller, userId, number, 'claimed', 'CONFLICT', PROVIDER_MESSAGES.claimedDisputable);
    // The same claim again: it keeps its review (a verified provider stays verified).
    if (mine && mine.licenseNumber === number && mine.review !== 'rejected') {
      await this.audit.record(caller, { action: 'license.verify', entityType: 'provider-license', entityId: number, patientId: userId, outcome: 'success', policy: 'owner' });
      return { message: PROVIDER_MESSAGES.verified, provider: await this.toFacts(mine) };
    }

    // A new claim is self-attested: an operator reviews it (license-review command) before it is verified.
    const license: ProviderLicense = {
      userId,
      registry: this.verifier.registry,
      licenseNumber: number,
      firstName: record.firstName,
      lastName: record.lastName,
      credential: record.credential,
      specialty: record.specialty,
      state: record.state,
      verifiedAt: new Date(),
      review: 'pending',
      reviewedAt: null,
      reviewedBy: null,
      reviewNote: '',
    };
    // Audited before it takes effect: no record, no role.
    await this.audit.record(caller, { action: 'license.verify', entityType: 'provider-license', entityId: number, patientId: userId, outcome: 'success', policy: 'owner' });
    if (!(await this.licenses.save(license))) return this.refuse(caller, userId, number, 'claimed', 'CONFLICT', PROVIDER_MESSAGES.claimedDisputable);
    return { message: PROVIDER_MESSAGES.verified, provider: await this.toFacts(license) };
  }

  /**
   * The real holder of a number another account claims: the registry must know
   * the number under this account's name too (the same checks and limit as a claim). The dispute
   * goes to the operators' review queue; while it is open the holder's claim is not verified, so no
   * link pre-approves it.
   */
  async dispute(caller: CallerIdentity, dto: VerifyLicenseDto): Promise<DisputeLicenseReply> {
    const { userId, number } = await this.registryMatch(caller, dto);
    const holder = await this.licenses.findByNumber(number);
    if (!holder || holder.userId === userId) return this.refuse(caller, userId, number, 'not-claimed', 'VALIDATION_FAILED', PROVIDER_MESSAGES.disputeNotNeeded);
    const id = randomUUID();
    // Audited before it is filed (on the claimant's history; the operator sees both accounts).
    await this.audit.record(caller, { action: 'license.dispute', entityType: 'provider-license', entityId: number, patientId: userId, outcome: 'success', policy: `dispute:${id}` });
    const dispute = await this.licenses.fileDispute({ id, licenseNumber: number, claimantId: userId, holderId: holder.userId, state: 'open', createdAt: new Date(), decidedAt: null, decidedBy: null, note: '' });
    return { message: PROVIDER_MESSAGES.disputeFiled, dispute_id: dispute.id };
  }

  /** The caller's own facts, or NOT_FOUND when the caller holds no claim (or a rejected one). */
  async facts(caller: CallerIdentity): Promise<ProviderFacts> {
    const license = await this.licenses.findByUser(requireUser(caller));
    if (!license) throw new DomainError('NOT_FOUND', PROVIDER_MESSAGES.notProvider);
    if (license.review === 'rejected') throw new DomainError('NOT_FOUND', PROVIDER_MESSAGES.rejected);
    return this.toFacts(license);
  }

  async rolesOf(userId: string): Promise<string[]> {
    return (await this.licenses.holdsRole(userId)) ? [PATIENT_ROLE, PROVIDER_ROLE] : [PATIENT_ROLE];
  }

  /** The facts with the level: verified only when an operator verified the claim and no dispute is open. */
  async toFacts(license: ProviderLicense): Promise<ProviderFacts> {
    const disputed = license.review !== 'rejected' && (await this.licenses.hasOpenDispute(license.licenseNumber));
    return toProviderFacts(license, disputed);
  }

  /**
   * The checks a claim and a dispute share: the per-account limit, the number's form, the registry
   * (an individual), and the account's name against the registry's.
   */
  private async registryMatch(caller: CallerIdentity, dto: VerifyLicenseDto): Promise<{ userId: string; user: User; number: string; record: RegistryRecord }> {
    const userId = requireUser(caller);
    const user = await this.users.findById(userId);
    if (!user) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
    const number = dto.license_number;

    const now = new Date();
    const { count, oldest } = await this.attempts.window(ATTEMPT_SCOPE, `user:${userId}`, new Date(now.getTime() - WINDOW_MS));
    if (count >= this.config.licenseAttemptsPerHour) {
      await this.refused(caller, userId, number, 'rate-limited', 'denied');
      const retryAfter = Math.max(1, Math.ceil(((oldest?.getTime() ?? now.getTime()) + WINDOW_MS - now.getTime()) / 1000));
      throw new DomainError('RATE_LIMITED', `Too many license checks. Please try again in ${formatWait(retryAfter)}.`, { retry_after: [String(retryAfter)] });
    }
    await this.attempts.record(ATTEMPT_SCOPE, [`user:${userId}`]);

    if (!this.verifier.isWellFormed(number)) return this.refuse(caller, userId, number, 'malformed', 'NOT_FOUND', PROVIDER_MESSAGES.notFound);

    const answer = await this.verifier.lookUp(number);
    switch (answer.kind) {
      case 'unavailable':
        this.logger.warn({ registry: this.verifier.registry, reason: answer.reason }, 'licence registry unavailable');
        return this.refuse(caller, userId, number, 'unavailable', 'UNAVAILABLE', PROVIDER_MESSAGES.unavailable);
      case 'not-found':
        return this.refuse(caller, userId, number, 'not-found', 'NOT_FOUND', PROVIDER_MESSAGES.notFound);
      case 'organisation':
        return this.refuse(caller, userId, number, 'organisation', 'VALIDATION_FAILED', PROVIDER_MESSAGES.organisation);
      case 'individual':
        break;
    }
    const record = answer.record;
    if (!namesMatch({ first: user.firstName, last: user.lastName }, { first: record.firstName, middle: record.middleName, last: record.lastName })) {
      return this.refuse(caller, userId, number, 'name-mismatch', 'VALIDATION_FAILED', PROVIDER_MESSAGES.nameMismatch);
    }
    return { userId, user, number, record };
  }

  /** Service to service: where to tell a user something (documents tells a patient about a request). */
  async contact(dto: UserContactDto): Promise<UserContact> {
    const user = await this.users.findById(dto.user_id);
    if (!user) throw new DomainError('NOT_FOUND', 'User not found.');
    return { email: user.email, first_name: user.firstName };
  }

  private async refuse(caller: CallerIdentity, userId: string, number: string, why: Refusal, code: 'NOT_FOUND' | 'UNAVAILABLE' | 'VALIDATION_FAILED' | 'CONFLICT' | 'FORBIDDEN', message: string): Promise<never> {
    await this.refused(caller, userId, number, why, why === 'claimed' || why === 'rejected' ? 'denied' : 'failure');
    throw new DomainError(code, message);
  }

  private async refused(caller: CallerIdentity, userId: string, number: string, why: Refusal, outcome: AuditOutcome): Promise<void> {
    try {
      await this.audit.record(caller, {
        action: 'license.verify',
        entityType: 'provider-license',
        entityId: /^\d{1,20}$/.test(number) ? number : 'malformed',
        patientId: userId,
        outcome,
        policy: `refused:${why}`,
      });
    } catch {
      this.logger.warn({ correlationId: caller.correlationId, why }, 'audit record of a refused licence check was not stored');
    }
  }
}

export function providerDisplayName(license: Pick<ProviderLicense, 'firstName' | 'lastName' | 'licenseNumber'>): string {
  const cap = (name: string) => name.toLowerCase().replace(/(^|[\s'-])(\p{L})/gu, (_m, sep: string, letter: string) => sep + letter.toUpperCase());
  return `Dr ${cap(license.firstName)} ${cap(license.lastName)} (NPI ${license.licenseNumber})`;
}

/** `disputed`: another account's dispute of this number is open (the claim is not verified meanwhile). */
export function toProviderFacts(license: ProviderLicense, disputed: boolean): ProviderFacts {
  return {
    npi: license.licenseNumber,
    registry: license.registry,
    first_name: license.firstName,
    last_name: license.lastName,
    credential: license.credential,
    specialty: license.specialty,
    state: license.state,
    verified_at: license.verifiedAt.toISOString(),
    display_name: providerDisplayName(license),
    verification: license.review === 'verified' && !disputed ? 'verified' : 'self_attested',
    review: disputed ? 'disputed' : license.review,
    reviewed_at: license.review === 'verified' && license.reviewedAt ? license.reviewedAt.toISOString() : null,
  };
}
