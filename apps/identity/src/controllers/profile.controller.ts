import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { IDENTITY_SERVICE_SUBJECTS, IDENTITY_SUBJECTS, PatientIdentityDto, UpdateProfileDto, type CallerIdentity, type PatientIdentity, type Profile } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { ProfileService } from '../services/profile.service';

@RpcController()
export class ProfileController {
  constructor(@Inject(ProfileService) private readonly profiles: ProfileService) {}

  @Handles(IDENTITY_SUBJECTS.getProfile)
  get(@Caller() caller: CallerIdentity): Promise<Profile> {
    return this.profiles.get(caller);
  }

  /** Service to service (no gateway route): the summary service names the patient on what they share. */
  @Handles(IDENTITY_SERVICE_SUBJECTS.patientIdentity)
  patientIdentity(@Payload() dto: PatientIdentityDto): Promise<PatientIdentity> {
    return this.profiles.patientIdentity(dto);
  }

  @Handles(IDENTITY_SUBJECTS.updateProfile)
  update(@Payload() dto: UpdateProfileDto, @Caller() caller: CallerIdentity): Promise<Profile> {
    return this.profiles.update(caller, dto);
  }
}
