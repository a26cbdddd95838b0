import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { IDENTITY_SUBJECTS, type UserRegisteredEvent } from '@medfolio/contracts';
import { Outbox } from '@medfolio/messaging/outbox';
import { User } from '../entities';

/** `id` is set only when a dependant claims their record: the account takes the record's id (docs/guide/family.md). */
export type NewUser = Pick<User, 'email' | 'firstName' | 'lastName' | 'phone' | 'dateOfBirth' | 'passwordHash' | 'emailVerified' | 'googleSubject'> & Partial<Pick<User, 'referralCode' | 'id'>>;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Users, and the account events that must commit with them (transactional outbox). */
@Injectable()
export class UsersRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  findByEmail(email: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ emailNormalized: normalizeEmail(email) });
  }

  /** Inside a transaction, pass its manager: on the embedded database another connection would wait for it. */
  findById(id: string, manager?: EntityManager): Promise<User | null> {
    return (manager ?? this.dataSource.manager).getRepository(User).findOneBy({ id });
  }

  findByGoogleSubject(subject: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ googleSubject: subject });
  }

  /**
   * Creates the user and queues identity.user.registered.v1 (and .verified.v1 for an account that
   * starts verified, e.g. from Google) in one transaction. Returns null if the e-mail is taken.
   */
  async create(data: NewUser, work?: (manager: EntityManager, user: User) => Promise<void>): Promise<User | null> {
    return this.dataSource.transaction(async (manager) => {
      const inserted = await manager
        .createQueryBuilder()
        .insert()
        .into(User)
        .values({ ...data, emailNormalized: normalizeEmail(data.email) })
        .orIgnore()
        .returning('*')
        .execute();
      if (inserted.raw.length === 0) return null;
      const user = manager.create(User, toUser(inserted.raw[0]));
      const event: UserRegisteredEvent = { user_id: user.id, email: user.email, first_name: user.firstName, referral_code: user.referralCode ?? null };
      await Outbox.add(manager, IDENTITY_SUBJECTS.registered, { ...event });
      if (user.emailVerified) await Outbox.add(manager, IDENTITY_SUBJECTS.verified, { ...event });
      if (work) await work(manager, user);
      return user;
    });
  }

  /** Marks the e-mail verified and queues identity.user.verified.v1, inside the caller's transaction. */
  async markVerified(manager: EntityManager, user: User): Promise<void> {
    await manager.update(User, { id: user.id }, { emailVerified: true, updatedAt: new Date() });
    const event: UserRegisteredEvent = { user_id: user.id, email: user.email, first_name: user.firstName, referral_code: user.referralCode ?? null };
    await Outbox.add(manager, IDENTITY_SUBJECTS.verified, { ...event });
  }

  async update(id: string, changes: Partial<Pick<User, 'firstName' | 'lastName' | 'phone' | 'passwordHash' | 'googleSubject' | 'emailVerified' | 'profilePictureKey' | 'gender' | 'dateOfBirth'>>, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).update(User, { id }, { ...changes, updatedAt: new Date() });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}

/** RETURNING * gives column names; map them onto the entity's properties. */
function toUser(row: Record<string, unknown>): Partial<User> {
  return {
    id: row['id'] as string,
    email: row['email'] as string,
    emailNormalized: row['email_normalized'] as string,
    firstName: row['first_name'] as string,
    lastName: row['last_name'] as string,
    phone: row['phone'] as string,
    dateOfBirth: (row['date_of_birth'] as string | null) ?? null,
    passwordHash: (row['password_hash'] as string | null) ?? null,
    emailVerified: row['email_verified'] as boolean,
    googleSubject: (row['google_subject'] as string | null) ?? null,
    profilePictureKey: (row['profile_picture_key'] as string | null) ?? null,
    gender: (row['gender'] as User['gender']) ?? null,
    referralCode: (row['referral_code'] as string | null) ?? null,
  };
}
