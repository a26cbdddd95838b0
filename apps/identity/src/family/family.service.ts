import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AuditRecorder } from '@medfolio/audit-client';
import {
  DomainError,
  FAMILY_MESSAGES,
  FAMILY_TEEN_MESSAGES,
  roleAllows,
  type AddDependantDto,
  type CallerIdentity,
  type CreateFamilyInviteDto,
  type FamilyAccessDto,
  type FamilyAccessReply,
  type FamilyInvite,
  type FamilyInviteIdDto,
  type FamilyInvitePreview,
  type FamilyInviteTokenDto,
  type FamilyMember,
  type FamilyRemovalReply,
  type FamilyNamesDto,
  type FamilyNamesReply,
  type FamilyOverview,
  type FamilyRecord,
  type PlanId,
  type RecordRole,
  type RemoveFamilyMemberDto,
  type UpdateFamilyMemberDto,
} from '@medfolio/contracts';
import { OutboxRelay } from '@medfolio/messaging/outbox';
import { IdentityConfig } from '../config';
import type { FamilyGrant, FamilyInvitation } from '../entities';
import { FamilyRepository, type RecordPerson } from '../repositories/family.repository';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { PlansRepository } from '../repositories/plans.repository';
import { FamilyClaimsService } from './family-claims.service';
import { ageBand, dependantBirthProblem, dependantAccessEnds, FAMILY_CLOCK, grantExpiry, grantState, renewal, type Clock } from './family-rules';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Households (issue 30): dependants, caregivers' grants, invitations, and the access check the
 * gateway makes at every request that names another person's record. The rules of ages and
 * expiry are family-rules.ts; this decides who may do what and keeps the audit trail.
 *
 * Who administers a record (sees its members, invites, changes roles, revokes): the person
 * themself for their own record, the guardian for a dependant's. Caregivers use a record; they
 * do not administer it (a caregiver may give up their own access).
 */
@Injectable()
export class FamilyService {
  private readonly logger = new Logger(FamilyService.name);

  constructor(
    @Inject(FamilyRepository) private readonly family: FamilyRepository,
    @Inject(PlansRepository) private readonly plans: PlansRepository,
    @Inject(NotificationsRepository) private readonly notifications: NotificationsRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(OutboxRelay) private readonly relay: OutboxRelay,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(FAMILY_CLOCK) private readonly clock: Clock,
    @Inject(FamilyClaimsService) private readonly claims: FamilyClaimsService,
  ) {}

  /**
   * The gateway's check, at every request naming another record: the caller's role on it, or 403.
   * Reads the grant each time (no cache), so a revocation or expiry counts from the next request.
   */
  async access(caller: CallerIdentity, dto: FamilyAccessDto): Promise<FamilyAccessReply> {
    const userId = this.signedIn(caller);
    const person = await this.family.person(dto.patient_id);
    if (dto.patient_id === userId && person) return { role: 'owner', patient_first_name: person.firstName };
    if (!person) throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.noAccess);
    const grant = await this.family.liveGrant(dto.patient_id, userId);
    if (!grant || grantState(grant, this.clock.now()) !== 'active') throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.noAccess);
    if (!roleAllows(grant.role, dto.needed)) throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.viewOnly(person.firstName));
    await this.family.touch(grant.id).catch((error: unknown) => this.logger.warn({ err: String(error) }, 'last activity not recorded'));
    return { role: grant.role, patient_first_name: person.firstName };
  }

  async overview(caller: CallerIdentity): Promise<FamilyOverview> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const me = await this.family.person(userId);
    if (!me) throw new DomainError('NOT_FOUND', 'The account no longer exists');
    const grants = await this.family.grantsOf(userId);
    const people = await this.family.people(grants.map((g) => g.patientId));
    const records: FamilyRecord[] = [this.record(me, 'self', 'owner', null, now)];
    for (const grant of grants) {
      const person = people.get(grant.patientId);
      if (!person || grantState(grant, now) !== 'active') continue;
      records.push(this.record(person, grant.role === 'guardian' ? 'dependant' : 'shared', grant.role, grant.expiresAt, now));
    }
    const administered = [userId, ...grants.filter((g) => g.role === 'guardian').map((g) => g.patientId)];
    const [members, invites] = await Promise.all([this.members(administered, userId, now), this.family.invitesOn(administered)]);
    return { records, members, invites: invites.map((i) => this.inviteView(i, now)) };
  }

  async addDependant(caller: CallerIdentity, dto: AddDependantDto): Promise<FamilyRecord> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const problem = dependantBirthProblem(dto.date_of_birth, now);
    if (problem === 'invalid') throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.dobInvalid, { date_of_birth: [FAMILY_MESSAGES.dobInvalid] });
    if (problem === 'future') throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.dobInFuture, { date_of_birth: [FAMILY_MESSAGES.dobInFuture] });
    if (problem === 'adult') throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.dobAdult, { date_of_birth: [FAMILY_MESSAGES.dobAdult] });
    const plan = await this.plans.planOf(caller);
    if (!this.familyPlans().includes(plan)) throw new DomainError('QUOTA_EXCEEDED', `${FAMILY_MESSAGES.familyPlanNeeded} See /membership.`);
    const dependant = await this.family.addDependant(userId, { firstName: dto.first_name, lastName: dto.last_name, dateOfBirth: dto.date_of_birth }, dependantAccessEnds(dto.date_of_birth));
    this.relay.kick();
    await this.audit.record({ ...caller, actor: { userId, role: 'guardian' }, userId: dependant.id }, { action: 'family.dependant.add', entityType: 'user', entityId: dependant.id, patientId: dependant.id, outcome: 'success' });
    const person: RecordPerson = { id: dependant.id, firstName: dependant.firstName, lastName: dependant.lastName, dateOfBirth: dependant.dateOfBirth, email: null, holderId: userId };
    return this.record(person, 'dependant', 'guardian', dependantAccessEnds(dependant.dateOfBirth), now);
  }

  /** Changes a caregiver's role, or renews their access (the age rules decide until when). */
  async updateMember(caller: CallerIdentity, dto: UpdateFamilyMemberDto): Promise<FamilyMember> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    if (dto.role === undefined && dto.renew === undefined) throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.roleOrRenew);
    const target = await this.memberTarget(userId, dto.member_id);
    if (target.kind === 'dependant') throw new DomainError('VALIDATION_FAILED', dto.renew ? FAMILY_MESSAGES.dependantRenew : FAMILY_MESSAGES.guardianFixed);
    const { grant, record } = target;
    if (grant.role === 'guardian') throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.guardianFixed);
    if (grant.revokedAt) throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.notYourMember);
    const changes: Partial<Pick<FamilyGrant, 'role' | 'expiresAt' | 'reminderSentAt'>> = {};
    if (dto.role) changes.role = dto.role;
    if (dto.renew) {
      const renewed = renewal({ dependant: record.holderId !== null, dateOfBirth: record.dateOfBirth }, now, this.config.familyProxyMonths);
      if (!renewed.ok) throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.cannotRenewAdult(record.firstName));
      changes.expiresAt = renewed.expiresAt;
      changes.reminderSentAt = null;
    }
    await this.family.updateGrant(grant.id, changes);
    const action = dto.renew ? 'family.grant.renew' : 'family.grant.role';
    await this.audit.record(this.asAdmin(caller, userId, record), { action, entityType: 'family-grant', entityId: grant.id, patientId: record.id, outcome: 'success' });
    const updated = { ...grant, ...changes } as FamilyGrant;
    const grantee = await this.family.person(grant.granteeId);
    return this.caregiverView(updated, grantee, now);
  }

  /**
   * Revokes a caregiver's grant at once (the administrator, or the caregiver giving up their own
   * access), or removes a dependant: only their guardian, who types the first name to confirm. The
   * dependant's record is then erased: identity ends everything at once (not listed, grants and
   * invitations ended, the access check refuses it) and every service deletes its data on the
   * event (`identity.user.record-erased.v1`, through the outbox); the answer is 202.
   */
  async removeMember(caller: CallerIdentity, dto: RemoveFamilyMemberDto): Promise<FamilyRemovalReply> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const own = await this.family.findGrant(dto.member_id);
    // A co-parent (a guardian grant of someone other than the person who added the child) may give it up too.
    const coParent = async (grant: FamilyGrant) => grant.role === 'guardian' && (await this.claims.holderOf(grant.patientId)) !== grant.granteeId;
    if (own && own.granteeId === userId && (own.role !== 'guardian' || (await coParent(own)))) {
      if (!own.revokedAt) await this.family.updateGrant(own.id, { revokedAt: now });
      const record = await this.family.person(own.patientId);
      await this.audit.record({ ...caller, userId: own.patientId, actor: { userId, role: own.role } }, { action: 'family.grant.leave', entityType: 'family-grant', entityId: own.id, patientId: own.patientId, outcome: 'success' });
      return { message: record ? `You no longer have access to ${record.firstName}'s record.` : FAMILY_MESSAGES.revoked, accepted: false, erased_at: null };
    }
    if (!own) await this.refuseCaregiverRemoval(userId, dto.member_id);
    const target = await this.memberTarget(userId, dto.member_id);
    if (target.kind === 'dependant') {
      // Erasing a child's record is for the account holder who added them (their plan holds it), not a co-parent.
      if (target.record.holderId !== userId) throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.onlyHolderRemoves(target.record.firstName));
      return this.eraseDependant(caller, userId, target.record, dto.confirm_name, now);
    }
    const { grant, record } = target;
    // The guardian who added the child cannot be revoked; a co-parent's guardian grant can, by another guardian.
    if (grant.role === 'guardian' && !(await coParent(grant))) throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.guardianNotRevocable(record.firstName));
    if (!grant.revokedAt) await this.family.updateGrant(grant.id, { revokedAt: now });
    await this.audit.record(this.asAdmin(caller, userId, record), { action: 'family.grant.revoke', entityType: 'family-grant', entityId: grant.id, patientId: record.id, outcome: 'success' });
    return { message: FAMILY_MESSAGES.revoked, accepted: false, erased_at: null };
  }

  /** A caregiver (view or manage) of a dependant knows the record exists: 403 rather than 404. */
  private async refuseCaregiverRemoval(userId: string, memberId: string): Promise<void> {
    const grant = await this.family.liveGrant(memberId, userId);
    if (!grant || grant.role === 'guardian') return;
    const person = await this.family.person(memberId);
    if (person?.holderId && grantState(grant, this.clock.now()) === 'active') throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.onlyGuardianRemoves(person.firstName));
  }

  private async eraseDependant(caller: CallerIdentity, userId: string, record: RecordPerson, confirmName: string | undefined, now: Date): Promise<FamilyRemovalReply> {
    const typed = (confirmName ?? '').trim().replace(/\s+/g, ' ').toLocaleLowerCase();
    if (!typed) throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.confirmNameNeeded(record.firstName), { confirm_name: [FAMILY_MESSAGES.confirmNameNeeded(record.firstName)] });
    if (typed !== record.firstName.trim().replace(/\s+/g, ' ').toLocaleLowerCase()) {
      throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.confirmNameWrong(record.firstName), { confirm_name: [FAMILY_MESSAGES.confirmNameWrong(record.firstName)] });
    }
    const erasedAt = await this.family.eraseDependant(record.id, userId, now);
    // Erased by a concurrent request in between: the same answer (the erasure is under way).
    this.relay.kick();
    if (erasedAt) {
      await this.audit.record({ ...caller, userId: record.id, actor: { userId, role: 'guardian' } }, { action: 'family.dependant.remove', entityType: 'user', entityId: record.id, patientId: record.id, outcome: 'success' });
    }
    return { message: FAMILY_MESSAGES.erasing(record.firstName), accepted: true, erased_at: (erasedAt ?? now).toISOString() };
  }

  async invite(caller: CallerIdentity, dto: CreateFamilyInviteDto): Promise<FamilyInvite> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const record = await this.administered(userId, dto.patient_id);
    // A co-parent: only a guardian (administering a dependant's record, not their own) of a person under 18.
    if (dto.role === 'guardian' && (record.id === userId || !record.dateOfBirth || ageBand(record.dateOfBirth, now) === 'adult')) {
      throw new DomainError('VALIDATION_FAILED', FAMILY_TEEN_MESSAGES.guardianRoleOnlyForChild, { role: [FAMILY_TEEN_MESSAGES.guardianRoleOnlyForChild] });
    }
    const me = await this.family.person(userId);
    if (me?.email && me.email.trim().toLowerCase() === dto.email && record.id === userId) {
      throw new DomainError('VALIDATION_FAILED', 'You cannot invite yourself.', { email: ['You cannot invite yourself.'] });
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + this.config.familyInviteDays * 86_400_000);
    const invite = await this.family.createInvite({ patientId: record.id, email: dto.email, role: dto.role, tokenHash: hashToken(token), invitedBy: userId, expiresAt }, now);
    if (!invite) throw new DomainError('CONFLICT', 'This address already has a pending invitation to this record.');
    await this.audit.record(this.asAdmin(caller, userId, record), { action: 'family.invite.create', entityType: 'family-invite', entityId: invite.id, patientId: record.id, outcome: 'success' });
    const acceptUrl = `${this.config.publicBaseUrl.replace(/\/$/, '')}/family/invite/${token}`;
    await this.notifications.send(
      caller,
      dto.email,
      'family-invite',
      { inviter_name: me?.firstName ?? '', patient_name: record.firstName, role: dto.role, accept_url: acceptUrl, expires_on: isoDate(expiresAt) },
      `family-invite:${invite.id}`,
    );
    return this.inviteView(invite, now);
  }

  async withdrawInvite(caller: CallerIdentity, dto: FamilyInviteIdDto): Promise<FamilyInvite> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const invite = await this.family.findInvite(dto.invite_id);
    if (!invite) throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.notYourInvite);
    const record = await this.administered(userId, invite.patientId, FAMILY_MESSAGES.notYourInvite);
    if (!invite.acceptedAt && !invite.withdrawnAt) {
      await this.family.withdrawInvite(invite.id, now);
      invite.withdrawnAt = now;
      await this.audit.record(this.asAdmin(caller, userId, record), { action: 'family.invite.withdraw', entityType: 'family-invite', entityId: invite.id, patientId: record.id, outcome: 'success' });
    }
    return this.inviteView(invite, now);
  }

  /** Public: what the link offers. Unknown, used, withdrawn and expired links answer the same 404. */
  async previewInvite(dto: FamilyInviteTokenDto): Promise<FamilyInvitePreview> {
    const { invite, record, inviter } = await this.pendingInvite(dto.token);
    return { inviter_first_name: inviter?.firstName ?? '', patient_first_name: record.firstName, role: invite.role, expires_at: invite.expiresAt.toISOString() };
  }

  /**
   * The signed-in account accepts. The address it signs in with need not be the invited one: the
   * link is the secret (as a share link is), people often have several addresses, and the record's
   * administrator sees who accepted (name and address) and can revoke at once.
   */
  async acceptInvite(caller: CallerIdentity, dto: FamilyInviteTokenDto): Promise<FamilyRecord> {
    const userId = this.ownCaller(caller);
    const now = this.clock.now();
    const { invite, record } = await this.pendingInvite(dto.token);
    if (record.id === userId || record.holderId === userId) throw new DomainError('VALIDATION_FAILED', FAMILY_MESSAGES.inviteSelf);
    // A co-parent's guardian grant ends on the 18th birthday, like the first guardian's.
    const expiresAt =
      invite.role === 'guardian' && record.dateOfBirth
        ? dependantAccessEnds(record.dateOfBirth)
        : grantExpiry({ dependant: record.holderId !== null, dateOfBirth: record.dateOfBirth }, now, this.config.familyProxyMonths);
    if (expiresAt.getTime() <= now.getTime()) throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.inviteInvalid);
    const grant = await this.family.acceptInvite(invite.id, userId, invite.role, expiresAt, now);
    if (grant === 'gone') throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.inviteInvalid);
    if (grant === 'has-access') throw new DomainError('CONFLICT', FAMILY_MESSAGES.alreadyHasAccess);
    await this.audit.record({ ...caller, userId: record.id, actor: { userId, role: grant.role } }, { action: 'family.invite.accept', entityType: 'family-grant', entityId: grant.id, patientId: record.id, outcome: 'success' });
    return this.record(record, grant.role === 'guardian' ? 'dependant' : 'shared', grant.role, grant.expiresAt, now);
  }

  /** For the record's history: the first names of the people who acted on it, and how each relates to it. */
  async names(dto: FamilyNamesDto): Promise<FamilyNamesReply> {
    const ids = [...new Set(dto.user_ids)].slice(0, 200);
    const grants = await this.family.grantsByGrantees(dto.patient_id, ids.filter((id) => id !== dto.patient_id));
    const known = new Set([...(ids.includes(dto.patient_id) ? [dto.patient_id] : []), ...grants.map((g) => g.granteeId)]);
    const people = await this.family.people([...known]);
    const now = this.clock.now();
    return {
      people: [...known].flatMap((id): FamilyNamesReply['people'] => {
        const person = people.get(id);
        if (!person) return [];
        if (id === dto.patient_id) return [{ user_id: id, first_name: person.firstName, relation: 'self' }];
        const theirs = grants.filter((g) => g.granteeId === id);
        const relation = theirs.some((g) => g.role === 'guardian') ? ('guardian' as const) : theirs.some((g) => grantState(g, now) === 'active') ? ('caregiver' as const) : ('former caregiver' as const);
        return [{ user_id: id, first_name: person.firstName, relation }];
      }),
    };
  }

  // ---- helpers ----

  private signedIn(caller: CallerIdentity): string {
    if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Sign in first.');
    return caller.actor?.userId ?? caller.userId;
  }

  /** Family administration is done as oneself, never on behalf of someone else. */
  private ownCaller(caller: CallerIdentity): string {
    if (!caller.userId) throw new DomainError('UNAUTHENTICATED', 'Sign in first.');
    if (caller.actor) throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.notOnBehalf);
    return caller.userId;
  }

  private familyPlans(): PlanId[] {
    return this.config.familyPlans.split(',') as PlanId[];
  }

  /** The caller for the audit record of an administrator's act on a record (their own, or a dependant's as guardian). */
  private asAdmin(caller: CallerIdentity, userId: string, record: RecordPerson): CallerIdentity {
    return record.id === userId ? caller : { ...caller, userId: record.id, actor: { userId, role: 'guardian' } };
  }

  /** The record, when the caller administers it (their own, or their live dependant's); 403 otherwise, 404 when unknown. */
  private async administered(userId: string, patientId: string, unknown: string = FAMILY_MESSAGES.noAccess): Promise<RecordPerson> {
    const record = await this.family.person(patientId);
    if (!record) throw new DomainError(unknown === FAMILY_MESSAGES.noAccess ? 'FORBIDDEN' : 'NOT_FOUND', unknown);
    if (record.id === userId) return record;
    const grant = await this.family.liveGrant(patientId, userId);
    if (grant?.role === 'guardian' && grantState(grant, this.clock.now()) === 'active') return record;
    // The guardian of a dependant who has come of age: nothing more to administer by proxy.
    if (grant?.role === 'guardian') throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.cannotRenewAdult(record.firstName));
    if (unknown !== FAMILY_MESSAGES.noAccess) throw new DomainError('NOT_FOUND', unknown);
    throw new DomainError('FORBIDDEN', grant ? FAMILY_MESSAGES.notAdmin : FAMILY_MESSAGES.noAccess);
  }

  /** A member id as the caller may act on it: a dependant they hold, or a grant on a record they administer. */
  private async memberTarget(userId: string, memberId: string): Promise<{ kind: 'dependant'; record: RecordPerson } | { kind: 'grant'; grant: FamilyGrant; record: RecordPerson }> {
    const grant = await this.family.findGrant(memberId);
    if (grant) {
      const record = await this.administered(userId, grant.patientId, FAMILY_MESSAGES.notYourMember);
      return { kind: 'grant', grant, record };
    }
    const person = await this.family.person(memberId);
    if (person?.holderId) {
      const record = await this.administered(userId, person.id, FAMILY_MESSAGES.notYourMember);
      return { kind: 'dependant', record };
    }
    throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.notYourMember);
  }

  private async pendingInvite(token: string): Promise<{ invite: FamilyInvitation; record: RecordPerson; inviter: RecordPerson | null }> {
    const invite = await this.family.findInviteByTokenHash(hashToken(token));
    const now = this.clock.now();
    if (!invite || invite.acceptedAt || invite.withdrawnAt || invite.expiresAt.getTime() <= now.getTime()) throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.inviteInvalid);
    const people = await this.family.people([invite.patientId, invite.invitedBy]);
    const record = people.get(invite.patientId);
    if (!record) throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.inviteInvalid);
    // A dependant's record whose people have come of age can no longer be shared by proxy.
    if (record.holderId && record.dateOfBirth && ageBand(record.dateOfBirth, now) === 'adult') throw new DomainError('NOT_FOUND', FAMILY_MESSAGES.inviteInvalid);
    return { invite, record, inviter: people.get(invite.invitedBy) ?? null };
  }

  private async members(administered: string[], userId: string, now: Date): Promise<FamilyMember[]> {
    const grants = await this.family.grantsOn(administered);
    const dependantIds = administered.filter((id) => id !== userId);
    const [people, states] = await Promise.all([this.family.people([...dependantIds, ...grants.map((g) => g.granteeId)]), this.claims.states(dependantIds, now)]);
    const members: FamilyMember[] = [];
    for (const id of dependantIds) {
      const person = people.get(id);
      const guardian = grants.find((g) => g.patientId === id && g.granteeId === userId && g.role === 'guardian' && !g.revokedAt);
      if (!person) continue;
      members.push({
        id,
        kind: 'dependant',
        patient_id: id,
        name: `${person.firstName} ${person.lastName}`.trim(),
        email: null,
        role: 'guardian',
        status: guardian ? (grantState(guardian, now) as FamilyMember['status']) : 'revoked',
        last_active_at: guardian?.lastActiveAt?.toISOString() ?? null,
        expires_at: guardian?.expiresAt?.toISOString() ?? null,
        date_of_birth: person.dateOfBirth,
        sign_in: states.get(id)?.sign_in ?? 'none',
        assent: states.get(id)?.assent ?? null,
      });
    }
    for (const grant of grants) {
      // The caller's own guardian grant is the dependant's line above; another guardian (a co-parent) is listed.
      if (grant.role === 'guardian' && grant.granteeId === userId) continue;
      const view = this.caregiverView(grant, people.get(grant.granteeId) ?? null, now);
      members.push(grant.role === 'guardian' ? { ...view, first_guardian: (await this.claims.holderOf(grant.patientId)) === grant.granteeId } : view);
    }
    return members;
  }

  private caregiverView(grant: FamilyGrant, grantee: RecordPerson | null, now: Date): FamilyMember {
    return {
      id: grant.id,
      kind: 'caregiver',
      patient_id: grant.patientId,
      name: grantee ? `${grantee.firstName} ${grantee.lastName}`.trim() : '',
      email: grantee?.email ?? null,
      role: grant.role,
      status: grantState(grant, now),
      last_active_at: grant.lastActiveAt?.toISOString() ?? null,
      expires_at: grant.expiresAt?.toISOString() ?? null,
      date_of_birth: null,
    };
  }

  private record(person: RecordPerson, kind: FamilyRecord['kind'], role: RecordRole, expiresAt: Date | null, now: Date): FamilyRecord {
    return {
      patient_id: person.id,
      first_name: person.firstName,
      last_name: person.lastName,
      date_of_birth: person.dateOfBirth,
      kind,
      my_role: role,
      age_band: ageBand(person.dateOfBirth, now),
      access_expires_at: expiresAt ? expiresAt.toISOString() : null,
    };
  }

  private inviteView(invite: FamilyInvitation, now: Date): FamilyInvite {
    const status: FamilyInvite['status'] = invite.acceptedAt ? 'accepted' : invite.withdrawnAt ? 'withdrawn' : invite.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
    return { id: invite.id, patient_id: invite.patientId, email: invite.email, role: invite.role, expires_at: invite.expiresAt.toISOString(), status };
  }
}
