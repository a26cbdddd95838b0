import { Inject, Injectable } from '@nestjs/common';
import { DomainError, type CallerIdentity, type Profile, type UpdateProfileDto } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { UsersRepository } from '../repositories/users.repository';
import type { User } from '../entities';
import { requireUser } from './password.service';

/** The signed-in user's own profile; the user id comes from the verified token, never the payload. */
@Injectable()
export class ProfileService {
  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
  ) {}

  async get(caller: CallerIdentity): Promise<Profile> {
    const user = await this.load(caller);
    await this.audit.record(caller, { action: 'profile.read', entityType: 'profile', entityId: user.id, patientId: user.id, outcome: 'success', policy: 'owner' });
    return toProfile(user);
  }

  async update(caller: CallerIdentity, dto: UpdateProfileDto): Promise<Profile> {
    const user = await this.load(caller);
    await this.users.update(user.id, { firstName: dto.first_name, lastName: dto.last_name ?? '', phone: dto.phone });
    await this.audit.record(caller, { action: 'profile.update', entityType: 'profile', entityId: user.id, patientId: user.id, outcome: 'success', policy: 'owner' });
    return toProfile({ ...user, firstName: dto.first_name, lastName: dto.last_name ?? '', phone: dto.phone });
  }

  private async load(caller: CallerIdentity): Promise<User> {
    const user = await this.users.findById(requireUser(caller));
    if (!user) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
    return user;
  }
}

export function toProfile(user: User): Profile {
  return {
    id: user.id,
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    phone: user.phone,
    profile_picture: null,
    date_of_birth: user.dateOfBirth,
    email_verified: user.emailVerified,
  };
}
