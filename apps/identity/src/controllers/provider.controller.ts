import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  PROVIDERS_SUBJECTS,
  UserContactDto,
  VerifyLicenseDto,
  type CallerIdentity,
  type DisputeLicenseReply,
  type ProviderFacts,
  type UserContact,
  type VerifyLicenseReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { LicenseService } from '../services/license.service';

@RpcController()
export class ProviderController {
  constructor(@Inject(LicenseService) private readonly licenses: LicenseService) {}

  @Handles(PROVIDERS_SUBJECTS.verifyLicense)
  verify(@Payload() dto: VerifyLicenseDto, @Caller() caller: CallerIdentity): Promise<VerifyLicenseReply> {
    return this.licenses.verify(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.disputeLicense)
  dispute(@Payload() dto: VerifyLicenseDto, @Caller() caller: CallerIdentity): Promise<DisputeLicenseReply> {
    return this.licenses.dispute(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.getProvider)
  get(@Caller() caller: CallerIdentity): Promise<ProviderFacts> {
    return this.licenses.facts(caller);
  }

  /** Service to service (no gateway route). */
  @Handles(PROVIDERS_SUBJECTS.userContact)
  contact(@Payload() dto: UserContactDto): Promise<UserContact> {
    return this.licenses.contact(dto);
  }
}
