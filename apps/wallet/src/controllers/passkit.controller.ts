import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  PassKitLogDto,
  PassKitPassDto,
  PassKitRegistrationDto,
  PassKitUpdatedDto,
  WALLET_SUBJECTS,
  type CallerIdentity,
  type PassKitPassReply,
  type PassKitRegisterReply,
  type PassKitUpdatedReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { PassKitService } from '../services/passkit.service';

/** The PassKit web service's calls, passed on by the gateway's /api/passkit/v1/... routes. */
@RpcController()
export class PassKitController {
  constructor(@Inject(PassKitService) private readonly service: PassKitService) {}

  @Handles(WALLET_SUBJECTS.passkitRegister)
  register(@Payload() dto: PassKitRegistrationDto): Promise<PassKitRegisterReply> {
    return this.service.register(dto);
  }

  @Handles(WALLET_SUBJECTS.passkitUnregister)
  unregister(@Payload() dto: PassKitRegistrationDto): Promise<Record<string, never>> {
    return this.service.unregister(dto);
  }

  @Handles(WALLET_SUBJECTS.passkitUpdated)
  updated(@Payload() dto: PassKitUpdatedDto): Promise<PassKitUpdatedReply> {
    return this.service.updated(dto);
  }

  @Handles(WALLET_SUBJECTS.passkitPass)
  pass(@Payload() dto: PassKitPassDto, @Caller() caller: CallerIdentity): Promise<PassKitPassReply> {
    return this.service.pass(dto, caller);
  }

  @Handles(WALLET_SUBJECTS.passkitLog)
  log(@Payload() dto: PassKitLogDto): Record<string, never> {
    return this.service.log(dto);
  }
}
