import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { IDENTITY_SUBJECTS, UpdateProfileDto, type CallerIdentity, type Profile } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { ProfileService } from '../services/profile.service';

@RpcController()
export class ProfileController {
  constructor(@Inject(ProfileService) private readonly profiles: ProfileService) {}

  @Handles(IDENTITY_SUBJECTS.getProfile)
  get(@Caller() caller: CallerIdentity): Promise<Profile> {
    return this.profiles.get(caller);
  }

  @Handles(IDENTITY_SUBJECTS.updateProfile)
  update(@Payload() dto: UpdateProfileDto, @Caller() caller: CallerIdentity): Promise<Profile> {
    return this.profiles.update(caller, dto);
  }
}
