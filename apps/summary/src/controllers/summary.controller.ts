import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { CreateSummaryItemDto, SUMMARY_SUBJECTS, type CallerIdentity, type SummaryItemView } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { SummaryService } from '../services/summary.service';

/** Request/reply handlers: thin, each hands the validated payload and the caller to the service. */
@RpcController()
export class SummaryController {
  constructor(@Inject(SummaryService) private readonly service: SummaryService) {}

  @Handles(SUMMARY_SUBJECTS.createItem)
  create(@Payload() dto: CreateSummaryItemDto, @Caller() caller: CallerIdentity): Promise<SummaryItemView> {
    return this.service.create(caller, dto);
  }

  @Handles(SUMMARY_SUBJECTS.listItems)
  list(@Caller() caller: CallerIdentity): Promise<SummaryItemView[]> {
    return this.service.list(caller);
  }
}
