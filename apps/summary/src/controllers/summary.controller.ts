import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  AddFactDto,
  ConfirmSummaryDto,
  EditFactDto,
  FactIdDto,
  HideFactDto,
  SUMMARY_SUBJECTS,
  SummaryQueryDto,
  type CallerIdentity,
  type SummaryItem,
  type SummaryStatusReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { SummaryService } from '../services/summary.service';

/** Request/reply handlers behind the gateway's /api/summary/ routes. */
@RpcController()
export class SummaryController {
  constructor(@Inject(SummaryService) private readonly summaries: SummaryService) {}

  @Handles(SUMMARY_SUBJECTS.get)
  get(@Payload() dto: SummaryQueryDto, @Caller() caller: CallerIdentity): Promise<SummaryItem[]> {
    return this.summaries.get(caller, dto);
  }

  @Handles(SUMMARY_SUBJECTS.status)
  status(@Caller() caller: CallerIdentity): Promise<SummaryStatusReply> {
    return this.summaries.status(caller);
  }

  @Handles(SUMMARY_SUBJECTS.hide)
  hide(@Payload() dto: HideFactDto, @Caller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.hide(caller, dto);
  }

  @Handles(SUMMARY_SUBJECTS.edit)
  edit(@Payload() dto: EditFactDto, @Caller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.edit(caller, dto);
  }

  @Handles(SUMMARY_SUBJECTS.add)
  add(@Payload() dto: AddFactDto, @Caller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.add(caller, dto);
  }

  @Handles(SUMMARY_SUBJECTS.remove)
  remove(@Payload() dto: FactIdDto, @Caller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.remove(caller, dto);
  }

  @Handles(SUMMARY_SUBJECTS.confirm)
  confirm(@Payload() dto: ConfirmSummaryDto, @Caller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.confirm(caller, dto);
  }
}
