import { Controller, Inject, UseFilters } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IDENTITY_SUBJECTS, UpdateProfileDto, type CallerIdentity, type Profile } from '@medfolio/contracts';
import { Caller, RpcErrorFilter } from '@medfolio/messaging';
import { ProfileService } from '../services/profile.service';
import { validated } from './validation';

@Controller()
@UseFilters(RpcErrorFilter)
export class ProfileController {
  constructor(@Inject(ProfileService) private readonly profiles: ProfileService) {}

  @MessagePattern(IDENTITY_SUBJECTS.getProfile)
  get(@Caller() caller: CallerIdentity): Promise<Profile> {
    return this.profiles.get(caller);
  }

  @MessagePattern(IDENTITY_SUBJECTS.updateProfile)
  update(@Payload(validated) dto: UpdateProfileDto, @Caller() caller: CallerIdentity): Promise<Profile> {
    return this.profiles.update(caller, dto);
  }
}
