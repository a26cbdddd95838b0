import { Inject, Injectable } from '@nestjs/common';
import { DataSource, In, IsNull, QueryFailedError, type EntityManager } from 'typeorm';
import { ERASURE_SUBJECTS, FAMILY_SERVICE_SUBJECTS, type FamilyRole, type HouseholdChangedEvent, type RecordErasedEvent } from '@medfolio/contracts';
import { Outbox } from '@medfolio/messaging/outbox';
import { Dependant, FamilyGrant, FamilyInvitation, User } from '../entities';

const uniqueViolation = (error: unknown) => error instanceof QueryFailedError && (error.driverError as { code?: string } | undefined)?.code === '23505';

/** The person a record belongs to: an account holder, or a dependant (with their holder). */
export interface RecordPerson {
  id: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  email: string | null;
  /** Set for a dependant: the account holder who added them. */
  holderId: string | null;
}

/** Dependants, grants and invitations (identity's households), and the events that commit with them. */
@Injectable()
export class FamilyRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** A record's person, whoever they are; null for an unknown id. */
  async person(id: string): Promise<RecordPerson | null> {
    return (await this.people([id])).get(id) ?? null;
  }

  /** Record people by id (users and dependants). */
  async people(ids: string[]): Promise<Map<string, RecordPerson>> {
    const unique = [...new Set(ids)];
    const found = new Map<string, RecordPerson>();
    if (unique.length === 0) return found;
    const users = await this.dataSource.getRepository(User).findBy({ id: In(unique) });
    for (const u of users) found.set(u.id, { id: u.id, firstName: u.firstName, lastName: u.lastName ?? '', dateOfBirth: u.dateOfBirth ?? null, email: u.email, holderId: null });
    const rest = unique.filter((id) => !found.has(id));
    if (rest.length) {
      // An erased dependant is nobody: no access, not listed, no name.
      const dependants = await this.dataSource.getRepository(Dependant).findBy({ id: In(rest), erasedAt: IsNull() });
      for (const d of dependants) found.set(d.id, { id: d.id, firstName: d.firstName, lastName: d.lastName, dateOfBirth: d.dateOfBirth, email: null, holderId: d.holderId });
    }
    return found;
  }

  /**
   * Adds the dependant, their holder's guardian grant (ending on `accessEnds`) and the household
   * event, in one transaction.
   */
  async addDependant(holderId: string, data: Pick<Dependant, 'firstName' | 'lastName' | 'dateOfBirth'>, accessEnds: Date): Promise<Dependant> {
    return this.dataSource.transaction(async (manager) => {
      const dependant = await manager.save(manager.create(Dependant, { ...data, holderId }));
      await manager.insert(FamilyGrant, { patientId: dependant.id, granteeId: holderId, role: 'guardian', createdBy: holderId, expiresAt: accessEnds });
      const event: HouseholdChangedEvent = { patient_id: dependant.id, holder_id: holderId, first_name: dependant.firstName };
      await Outbox.add(manager, FAMILY_SERVICE_SUBJECTS.householdChanged, { ...event });
      return dependant;
    });
  }

  dependantsOf(holderId: string): Promise<Dependant[]> {
    return this.dataSource.getRepository(Dependant).find({ where: { holderId, erasedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }

  /**
   * Erases a dependant's record, in one transaction: the row becomes a tombstone (erased_at; name
   * and date of birth cleared), every grant on the record is revoked and every pending invitation
   * withdrawn, and the outbox takes the erasure (every service deletes its data) and the household
   * change (documents drops the dependant from the household). null when already erased or unknown.
   */
  async eraseDependant(patientId: string, erasedBy: string, now: Date): Promise<Date | null> {
    return this.dataSource.transaction(async (manager) => {
      // A record its person claimed with their own sign-in is theirs: never erased by a guardian.
      const row = await manager.getRepository(Dependant).createQueryBuilder('d').where('d.id = :id AND d.erased_at IS NULL AND d.claimed_at IS NULL', { id: patientId }).setLock('pessimistic_write').getOne();
      if (!row) return null;
      await manager.createQueryBuilder().update(Dependant).set({ erasedAt: now, firstName: '', lastName: '', dateOfBirth: () => 'NULL' }).where('id = :id', { id: patientId }).execute();
      await manager.update(FamilyGrant, { patientId, revokedAt: IsNull() }, { revokedAt: now });
      await manager.update(FamilyInvitation, { patientId, acceptedAt: IsNull(), withdrawnAt: IsNull() }, { withdrawnAt: now });
      const household: HouseholdChangedEvent = { patient_id: patientId, holder_id: null, first_name: '' };
      await Outbox.add(manager, FAMILY_SERVICE_SUBJECTS.householdChanged, { ...household });
      const erased: RecordErasedEvent = { patient_id: patientId, erased_at: now.toISOString(), erased_by: erasedBy };
      await Outbox.add(manager, ERASURE_SUBJECTS.erased, { ...erased });
      return now;
    });
  }

  /** The unrevoked grant of `granteeId` on the record, if any (it may have expired). */
  liveGrant(patientId: string, granteeId: string): Promise<FamilyGrant | null> {
    return this.dataSource.getRepository(FamilyGrant).findOneBy({ patientId, granteeId, revokedAt: IsNull() });
  }

  findGrant(id: string): Promise<FamilyGrant | null> {
    return this.dataSource.getRepository(FamilyGrant).findOneBy({ id });
  }

  /** Every unrevoked grant the user holds. */
  grantsOf(granteeId: string): Promise<FamilyGrant[]> {
    return this.dataSource.getRepository(FamilyGrant).find({ where: { granteeId, revokedAt: IsNull() }, order: { createdAt: 'ASC' } });
  }

  /** Every grant on these records, revoked ones too (the admin's list), newest first. */
  grantsOn(patientIds: string[]): Promise<FamilyGrant[]> {
    if (patientIds.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(FamilyGrant).find({ where: { patientId: In(patientIds) }, order: { createdAt: 'DESC' }, take: 500 });
  }

  /** Grants (revoked ones too) of these people on one record: how each relates to it. */
  grantsByGrantees(patientId: string, granteeIds: string[]): Promise<FamilyGrant[]> {
    if (granteeIds.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(FamilyGrant).find({ where: { patientId, granteeId: In(granteeIds) }, order: { createdAt: 'ASC' } });
  }

  async updateGrant(id: string, changes: Partial<Pick<FamilyGrant, 'role' | 'expiresAt' | 'revokedAt' | 'reminderSentAt'>>): Promise<void> {
    await this.dataSource.getRepository(FamilyGrant).update({ id }, changes);
  }

  /** Marks the grant used now, at most once a minute (one cheap UPDATE that usually changes nothing). */
  async touch(id: string): Promise<void> {
    await this.dataSource
      .createQueryBuilder()
      .update(FamilyGrant)
      .set({ lastActiveAt: () => 'now()' })
      .where("id = :id AND (last_active_at IS NULL OR last_active_at < now() - interval '1 minute')", { id })
      .execute();
  }

  /** Creates the invitation; null when the address has a pending one to this record already. */
  async createInvite(data: Pick<FamilyInvitation, 'patientId' | 'email' | 'role' | 'tokenHash' | 'invitedBy' | 'expiresAt'>, now: Date): Promise<FamilyInvitation | null> {
    return this.dataSource.transaction(async (manager) => {
      const pending = await manager
        .getRepository(FamilyInvitation)
        .createQueryBuilder('i')
        .where('i.patient_id = :patientId AND i.email = :email AND i.accepted_at IS NULL AND i.withdrawn_at IS NULL AND i.expires_at > :now', { patientId: data.patientId, email: data.email, now })
        .setLock('pessimistic_write')
        .getOne();
      if (pending) return null;
      return manager.save(manager.create(FamilyInvitation, data));
    });
  }

  findInvite(id: string): Promise<FamilyInvitation | null> {
    return this.dataSource.getRepository(FamilyInvitation).findOneBy({ id });
  }

  findInviteByTokenHash(tokenHash: string): Promise<FamilyInvitation | null> {
    return this.dataSource.getRepository(FamilyInvitation).findOneBy({ tokenHash });
  }

  invitesOn(patientIds: string[]): Promise<FamilyInvitation[]> {
    if (patientIds.length === 0) return Promise.resolve([]);
    return this.dataSource.getRepository(FamilyInvitation).find({ where: { patientId: In(patientIds), acceptedAt: IsNull(), withdrawnAt: IsNull() }, order: { createdAt: 'DESC' }, take: 200 });
  }

  async withdrawInvite(id: string, now: Date): Promise<void> {
    await this.dataSource.getRepository(FamilyInvitation).update({ id, acceptedAt: IsNull(), withdrawnAt: IsNull() }, { withdrawnAt: now });
  }

  /**
   * Accepts the invitation for `granteeId` in one transaction: the invitation is locked and must
   * still be pending; an expired grant of the same person on the record is closed first; the new
   * grant is made. 'gone': not pending any more; 'has-access': the person has live access already.
   */
  async acceptInvite(inviteId: string, granteeId: string, role: FamilyRole, expiresAt: Date, now: Date): Promise<FamilyGrant | 'gone' | 'has-access'> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const invite = await manager.getRepository(FamilyInvitation).createQueryBuilder('i').where('i.id = :id', { id: inviteId }).setLock('pessimistic_write').getOne();
        if (!invite || invite.acceptedAt || invite.withdrawnAt || invite.expiresAt.getTime() <= now.getTime()) return 'gone' as const;
        const live = await manager.getRepository(FamilyGrant).findOneBy({ patientId: invite.patientId, granteeId, revokedAt: IsNull() });
        if (live && (!live.expiresAt || live.expiresAt.getTime() > now.getTime())) return 'has-access' as const;
        if (live) await manager.update(FamilyGrant, { id: live.id }, { revokedAt: now });
        const grant = await manager.save(manager.create(FamilyGrant, { patientId: invite.patientId, granteeId, role, createdBy: invite.invitedBy, expiresAt, lastActiveAt: now }));
        await manager.update(FamilyInvitation, { id: invite.id }, { acceptedAt: now, acceptedBy: granteeId });
        return grant;
      });
    } catch (error) {
      if (uniqueViolation(error)) return 'has-access';
      throw error;
    }
  }

  /** Active grants ending before `before` whose record's owner has not been reminded yet (adult records only: the caller filters). */
  expiringGrants(now: Date, before: Date): Promise<FamilyGrant[]> {
    return this.dataSource
      .getRepository(FamilyGrant)
      .createQueryBuilder('g')
      .where("g.revoked_at IS NULL AND g.reminder_sent_at IS NULL AND g.role <> 'guardian' AND g.expires_at > :now AND g.expires_at <= :before", { now, before })
      .orderBy('g.expires_at', 'ASC')
      .take(200)
      .getMany();
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}

export type { FamilyRole };
