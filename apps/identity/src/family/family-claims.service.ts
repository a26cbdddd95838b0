import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import {
  DomainError,
  FAMILY_MESSAGES,
  FAMILY_TEEN_MESSAGES,
  type AssentDto,
  type CallerIdentity,
  type ClaimInviteDto,
  type ClaimRecordDto,
  type FamilyAssent,
  type FamilyClaimInvite,
  type FamilyClaimPreview,
  type FamilyClaimTokenDto,
  type MessageReply,
} from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { IdentityConfig } from '../config';
import type { Dependant, FamilyClaim } from '../entities';
import { FamilyClaimsRepository } from '../repositories/family-claims.repository';
import { FamilyRepository, type RecordPerson } from '../repositories/family.repository';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { UsersRepository } from '../repositories/users.repository';
import { PasswordHasher } from '../services/password-hasher';
import { assentPending, claimAllowed, FAMILY_CLOCK, grantState, type Clock } from './family-rules';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** Thrown inside the account's transaction when the link was used or replaced meanwhile: nothing is kept. */
class ClaimGone extends Error {}

/**
 * A dependant's own sign-in (docs/guide/family.md, "A dependant's own sign-in"):
 * - the guardian e-mails a claim link (from 13 with FAMILY_TEEN_SIGN_IN, otherwise from 18; after
 *   the 18th birthday for FAMILY_CLAIM_GRACE_DAYS);
 * - whoever opens it chooses a password: the account is created **with the dependant's id** as its
 *   user id, so the JWT's `sub` is the record's id and no service changes how it keys data. The
 *   address is the invited one (the link proves the mailbox: the account starts verified);
 * - the teen then answers whether their proxies keep access (FAMILY_TEEN_ASSENT_REQUIRED).
 */
@Injectable()
export class FamilyClaimsService {
  constructor(
    @Inject(FamilyRepository) private readonly family: FamilyRepository,
    @Inject(FamilyClaimsRepository) private readonly claims: FamilyClaimsRepository,
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(PasswordHasher) private readonly hasher: PasswordHasher,
    @Inject(NotificationsRepository) private readonly notifications: NotificationsRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(FAMILY_CLOCK) private readonly clock: Clock,
  ) {}

  /** The guardian (a live guardian grant, or one ended by the 18th birthday within the grace days) sends the link. */
  async invite(caller: CallerIdentity, dto: ClaimInviteDto): Promise<FamilyClaimInvite> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const dependant = await this.claims.dependant(dto.member_id);
    const grant = dependant ? await this.family.liveGrant(dependant.id, userId) : null;
    if (!dependant || !grant) throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.notYourMember);
    if (grant.role !== 'guardian') throw new DomainError('FORBIDDEN', FAMILY_TEEN_MESSAGES.notGuardian);
    const person = (await this.family.person(dependant.id)) ?? this.personOf(dependant);
    if (dependant.claimedAt) throw new DomainError('CONFLICT', FAMILY_TEEN_MESSAGES.alreadyClaimed(person.firstName));
    const verdict = claimAllowed(dependant.dateOfBirth, now, { teenSignIn: this.config.familyTeenSignIn, graceDays: this.config.familyClaimGraceDays });
    if (verdict === 'too-young') throw new DomainError('VALIDATION_FAILED', FAMILY_TEEN_MESSAGES.claimTooYoung(person.firstName));
    if (verdict === 'teen-off') throw new DomainError('VALIDATION_FAILED', FAMILY_TEEN_MESSAGES.teenSignInOff(person.firstName));
    if (verdict === 'too-late') throw new DomainError('VALIDATION_FAILED', FAMILY_TEEN_MESSAGES.claimTooLate(person.firstName));
    // An unrevoked guardian grant: live under 18, ended by the 18th birthday after it (the grace days decide).
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + this.config.familyInviteDays * 86_400_000);
    const claim = await this.claims.createClaim({ patientId: dependant.id, email: dto.email, tokenHash: hashToken(token), invitedBy: userId, expiresAt }, now);
    await this.audit.record(
      { ...caller, userId: dependant.id, actor: { userId, role: 'guardian' } },
      { action: 'family.claim.invite', entityType: 'family-claim', entityId: claim.id, patientId: dependant.id, outcome: 'success' },
    );
    const me = await this.family.person(userId);
    const claimUrl = `${this.config.publicBaseUrl.replace(/\/$/, '')}/family/claim/${token}`;
    await this.notifications.send(
      caller,
      dto.email,
      'family-claim-invite',
      { inviter_name: me?.firstName ?? '', patient_name: person.firstName, claim_url: claimUrl, expires_on: isoDate(expiresAt) },
      `family-claim:${claim.id}`,
    );
    return this.claimView(claim, now);
  }

  /** Public: what the link offers. Unknown, used, replaced and expired links answer the same 404. */
  async preview(dto: FamilyClaimTokenDto): Promise<FamilyClaimPreview> {
    const { claim, person } = await this.pending(dto.token);
    const inviter = await this.family.person(claim.invitedBy);
    return { patient_first_name: person.firstName, inviter_first_name: inviter?.firstName ?? '', email: claim.email, expires_at: claim.expiresAt.toISOString() };
  }

  /**
   * Creates the account with the record's id, the invited address (verified) and this password, in
   * the transaction that marks the link used and the dependant claimed. The person then signs in.
   */
  async claim(caller: CallerIdentity, dto: ClaimRecordDto): Promise<MessageReply> {
    const now = this.clock.now();
    const { claim, person, dependant } = await this.pending(dto.token);
    const passwordHash = await this.hasher.hash(dto.password);
    let user;
    try {
      user = await this.users.create(
        {
          id: dependant.id,
          email: claim.email,
          firstName: person.firstName,
          lastName: person.lastName,
          phone: '',
          dateOfBirth: dependant.dateOfBirth,
          passwordHash,
          emailVerified: true,
          googleSubject: null,
        },
        async (manager) => {
          if (!(await this.claims.markClaimed(manager, claim.id, dependant.id, now))) throw new ClaimGone();
        },
      );
    } catch (error) {
      if (error instanceof ClaimGone) throw new DomainError('NOT_FOUND', FAMILY_TEEN_MESSAGES.claimInvalid);
      throw error;
    }
    if (!user) {
      // The address has an account already (or the record was claimed a moment ago).
      const again = await this.claims.dependant(dependant.id);
      if (again?.claimedAt) throw new DomainError('NOT_FOUND', FAMILY_TEEN_MESSAGES.claimInvalid);
      throw new DomainError('CONFLICT', FAMILY_TEEN_MESSAGES.claimEmailTaken);
    }
    this.relay.kick();
    await this.audit.record({ ...caller, userId: dependant.id }, { action: 'family.claim.accept', entityType: 'user', entityId: dependant.id, patientId: dependant.id, outcome: 'success', policy: 'self' });
    return { message: FAMILY_TEEN_MESSAGES.claimed(person.firstName) };
  }

  /** The signed-in owner: whether they are to say if their proxies keep access, and who those are. */
  async assent(caller: CallerIdentity): Promise<FamilyAssent> {
    const userId = this.ownCaller(caller);
    return this.assentOf(userId, this.clock.now());
  }

  /**
   * The teen's answer. Declining ends every live grant on their record at once (the guardian's,
   * co-parents', caregivers') and e-mails each guardian; accepting keeps them until the 18th birthday.
   * A teen who accepted may decline later; a declined answer stands (they can invite people again).
   */
  async answer(caller: CallerIdentity, dto: AssentDto): Promise<FamilyAssent> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const current = await this.assentOf(userId, now);
    const dependant = await this.claims.dependant(userId);
    const answerable = current.status === 'pending' || (current.status === 'given' && !dto.keep_access);
    if (!dependant || !answerable) {
      if (current.status === 'given' || current.status === 'declined') return current;
      throw new DomainError('VALIDATION_FAILED', FAMILY_TEEN_MESSAGES.notATeenRecord);
    }
    const ended = await this.claims.answerAssent(userId, dto.keep_access ? 'given' : 'declined', now);
    await this.audit.record(caller, { action: dto.keep_access ? 'family.assent.give' : 'family.assent.decline', entityType: 'user', entityId: userId, patientId: userId, outcome: 'success', policy: 'self' });
    if (!dto.keep_access) {
      const people = await this.family.people([userId, ...ended.map((g) => g.granteeId)]);
      const me = people.get(userId);
      const base = this.config.publicBaseUrl.replace(/\/$/, '');
      for (const grant of ended.filter((g) => g.role === 'guardian')) {
        const guardian = people.get(grant.granteeId);
        if (!guardian?.email) continue;
        await this.notifications.send(
          caller,
          guardian.email,
          'family-assent-declined',
          { first_name: guardian.firstName, patient_name: me?.firstName ?? '', family_url: `${base}/family` },
          `family-assent-declined:${grant.id}`,
        );
      }
    }
    return this.assentOf(userId, now);
  }

  /** Who added the dependant (their first guardian, whose plan covers the record); null for an adult's own record. */
  async holderOf(patientId: string): Promise<string | null> {
    return (await this.claims.dependant(patientId))?.holderId ?? null;
  }

  /** For the guardian's members list: each dependant's own sign-in and answer. */
  async states(patientIds: string[], now: Date): Promise<Map<string, { sign_in: 'none' | 'invited' | 'signed-in'; assent: 'pending' | 'given' | 'declined' | null }>> {
    const [dependants, latest] = await Promise.all([this.claims.dependants(patientIds), this.claims.latestClaims(patientIds)]);
    const states = new Map<string, { sign_in: 'none' | 'invited' | 'signed-in'; assent: 'pending' | 'given' | 'declined' | null }>();
    for (const d of dependants) {
      const claim = latest.get(d.id);
      const invited = claim && !claim.claimedAt && !claim.replacedAt && claim.expiresAt.getTime() > now.getTime();
      const signIn = d.claimedAt ? 'signed-in' : invited ? 'invited' : 'none';
      const assent = !d.claimedAt ? null : d.assent ?? (this.config.familyTeenAssentRequired ? 'pending' : null);
      states.set(d.id, { sign_in: signIn, assent });
    }
    return states;
  }

  // ---- helpers ----

  private async assentOf(userId: string, now: Date): Promise<FamilyAssent> {
    const dependant = await this.claims.dependant(userId);
    const grants = dependant ? (await this.family.grantsOn([userId])).filter((g) => grantState(g, now) === 'active') : [];
    const people = await this.family.people(grants.map((g) => g.granteeId));
    const proxies = grants
      .sort((a, b) => Number(b.role === 'guardian') - Number(a.role === 'guardian'))
      .flatMap((g) => {
        const p = people.get(g.granteeId);
        return p ? [{ first_name: p.firstName, role: g.role }] : [];
      });
    const answeredAt = dependant?.assentAt ? dependant.assentAt.toISOString() : null;
    if (!dependant || !dependant.claimedAt) return { status: 'not-needed', proxies, answered_at: null };
    if (dependant.assent) return { status: dependant.assent, proxies, answered_at: answeredAt };
    const pending = assentPending({ claimed: true, assent: null, dateOfBirth: dependant.dateOfBirth }, grants.length, now, this.config.familyTeenAssentRequired);
    return { status: pending ? 'pending' : 'not-needed', proxies, answered_at: null };
  }

  private async pending(token: string): Promise<{ claim: FamilyClaim; person: RecordPerson; dependant: Dependant }> {
    const now = this.clock.now();
    const claim = await this.claims.findByTokenHash(hashToken(token));
    if (!claim || claim.claimedAt || claim.replacedAt || claim.expiresAt.getTime() <= now.getTime()) throw new DomainError('NOT_FOUND', FAMILY_TEEN_MESSAGES.claimInvalid);
    const dependant = await this.claims.dependant(claim.patientId);
    if (!dependant || dependant.claimedAt) throw new DomainError('NOT_FOUND', FAMILY_TEEN_MESSAGES.claimInvalid);
    // The setting may have been turned off since the link went; an adult's link stays good until it expires.
    if (claimAllowed(dependant.dateOfBirth, now, { teenSignIn: this.config.familyTeenSignIn, graceDays: 36_500 }) !== 'ok') {
      throw new DomainError('NOT_FOUND', FAMILY_TEEN_MESSAGES.claimInvalid);
    }
    return { claim, person: this.personOf(dependant), dependant };
  }

  private personOf(d: Dependant): RecordPerson {
    return { id: d.id, firstName: d.firstName, lastName: d.lastName, dateOfBirth: d.dateOfBirth, email: null, holderId: d.holderId };
  }

  private ownCaller(caller: CallerIdentity): string {
    if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Sign in first.');
    if (caller.actor) throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.notOnBehalf);
    return caller.userId;
  }

  private claimView(claim: FamilyClaim, now: Date): FamilyClaimInvite {
    const status: FamilyClaimInvite['status'] = claim.claimedAt ? 'claimed' : claim.replacedAt ? 'replaced' : claim.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
    return { id: claim.id, patient_id: claim.patientId, email: claim.email, expires_at: claim.expiresAt.toISOString(), status };
  }
}
