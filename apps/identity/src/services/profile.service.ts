import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError, PATIENT_ROLE, PROVIDER_ROLE, type CallerIdentity, type PatientIdentity, type PatientIdentityDto, type Profile, type UpdateProfileDto } from '@medfolio/contracts';
import { AuditRecorder } from '@medfolio/audit-client';
import { IdentityConfig } from '../config';
import { ProfilePictureProcessor, readPictureUpload } from '../pictures';
import { ProfilePicturesRepository } from '../repositories/profile-pictures.repository';
import { ProviderLicensesRepository } from '../repositories/provider-licenses.repository';
import { UsersRepository } from '../repositories/users.repository';
import { FamilyRepository } from '../repositories/family.repository';
import { toProviderFacts } from './license.service';
import type { User } from '../entities';
import { checkDateOfBirth } from './date-of-birth';
import { requireUser } from './password.service';

/** A multipart body as the gateway passed it on. */
export interface PictureUpload {
  contentType: string | undefined;
  body: Readable;
}

/** Links to the picture stay valid this long (the web app refetches the profile more often). */
const PICTURE_URL_SECONDS = 3600;

/** The signed-in user's own profile; the user id comes from the verified token, never the payload. */
@Injectable()
export class ProfileService {
  private readonly logger = new Logger(ProfileService.name);
  private readonly processor = new ProfilePictureProcessor();

  constructor(
    @Inject(UsersRepository) private readonly users: UsersRepository,
    @Inject(AuditRecorder) private readonly audit: AuditRecorder,
    @Inject(ProfilePicturesRepository) private readonly pictures: ProfilePicturesRepository,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(ProviderLicensesRepository) private readonly licenses: ProviderLicensesRepository,
    @Inject(FamilyRepository) private readonly family: FamilyRepository,
  ) {}

  async get(caller: CallerIdentity): Promise<Profile> {
    const user = await this.load(caller);
    await this.audit.record(caller, { action: 'profile.read', entityType: 'profile', entityId: user.id, patientId: user.id, outcome: 'success', policy: 'owner' });
    return this.toProfile(user);
  }

  /**
   * Service to service (no gateway route): a patient's name and date of birth for what they share.
   * Not audited here: the summary service audits the view this serves, naming the link.
   */
  async patientIdentity(dto: PatientIdentityDto): Promise<PatientIdentity> {
    // A dependant's record is shared like anyone's: the person is a user or a dependant.
    const person = await this.family.person(dto.user_id);
    if (!person) throw new DomainError('NOT_FOUND', 'User not found.');
    return { first_name: person.firstName, last_name: person.lastName, date_of_birth: person.dateOfBirth };
  }

  /**
   * Takes the one picture of a multipart upload, checks, resizes (400x400) and stores it, then
   * forgets the old one.
   */
  async setPicture(caller: CallerIdentity, upload: PictureUpload): Promise<Profile> {
    const user = await this.load(caller);
    const bytes = await readPictureUpload(upload.body, upload.contentType, this.config.profilePictureMaxBytes);
    const processed = await this.processor.processBytes(bytes);
    const { key } = await this.pictures.save(user.id, processed);
    await this.users.update(user.id, { profilePictureKey: key });
    if (user.profilePictureKey) {
      await this.pictures.delete(user.profilePictureKey).catch((error: unknown) => this.logger.warn({ userId: user.id, err: String(error) }, 'old picture not deleted'));
    }
    await this.audit.record(caller, { action: 'profile.picture.update', entityType: 'profile', entityId: user.id, patientId: user.id, outcome: 'success', policy: 'owner' });
    return this.toProfile({ ...user, profilePictureKey: key });
  }

  /**
   * A name change on an account holding a licence claim drops the claim, so the provider role leaves
   * the next access token: the verified name is locked to the registry's, and a
   * claim made under one name must not be carried to another. The provider claims again under the
   * new name (self-attested until an operator verifies it). Dropped (and audited) before the rename.
   */
  async update(caller: CallerIdentity, dto: UpdateProfileDto): Promise<Profile> {
    const user = await this.load(caller);
    const renamed = dto.first_name !== user.firstName || (dto.last_name ?? '') !== user.lastName;
    const license = renamed ? await this.licenses.findByUser(user.id) : null;
    if (license && license.review !== 'rejected') {
      await this.audit.record(caller, { action: 'license.drop', entityType: 'provider-license', entityId: license.licenseNumber, patientId: user.id, outcome: 'success', policy: 'renamed' });
      await this.licenses.drop(user.id);
    }
    const changes = {
      firstName: dto.first_name,
      lastName: dto.last_name ?? '',
      phone: dto.phone,
      ...(dto.gender !== undefined ? { gender: dto.gender === '' ? null : dto.gender } : {}),
      ...(dto.date_of_birth !== undefined ? { dateOfBirth: checkDateOfBirth(dto.date_of_birth) } : {}),
    };
    await this.users.update(user.id, changes);
    await this.audit.record(caller, { action: 'profile.update', entityType: 'profile', entityId: user.id, patientId: user.id, outcome: 'success', policy: 'owner' });
    return this.toProfile({ ...user, ...changes });
  }

  private async load(caller: CallerIdentity): Promise<User> {
    const user = await this.users.findById(requireUser(caller));
    if (!user) throw new DomainError('UNAUTHENTICATED', 'Please sign in again.');
    return user;
  }

  private async toProfile(user: User): Promise<Profile> {
    const profilePicture = user.profilePictureKey ? await this.pictures.downloadUrl(user.profilePictureKey, PICTURE_URL_SECONDS) : null;
    const found = await this.licenses.findByUser(user.id);
    const license = found && found.review !== 'rejected' ? found : null;
    return {
      ...toProfile(user),
      profile_picture: profilePicture,
      roles: license ? [PATIENT_ROLE, PROVIDER_ROLE] : [PATIENT_ROLE],
      provider: license ? toProviderFacts(license, await this.licenses.hasOpenDispute(license.licenseNumber)) : null,
    };
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
    gender: user.gender ?? null,
    email_verified: user.emailVerified,
    roles: [PATIENT_ROLE],
    provider: null,
  };
}
