import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type CallerIdentity, CONNECTIONS_SHL_SUBJECTS, ReceiveShlDto, type ReceiveShlReply } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { ShlReceiverService } from '../services/shl-receiver.service';

/** Receiving a SMART Health Link from a clinic: thin, hands the validated payload and the caller to the service. */
@RpcController()
export class ShlReceiverController {
  constructor(@Inject(ShlReceiverService) private readonly service: ShlReceiverService) {}

  @Handles(CONNECTIONS_SHL_SUBJECTS.receive)
  receive(@Payload() dto: ReceiveShlDto, @Caller() caller: CallerIdentity): Promise<ReceiveShlReply> {
    return this.service.receive(caller, dto);
  }
}
