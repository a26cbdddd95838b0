import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { HistoryQueryDto, SUBJECTS, type CallerIdentity, type HistoryPage } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { AuditLogService } from '../services/audit-log.service';

@RpcController()
export class HistoryController {
  constructor(@Inject(AuditLogService) private readonly service: AuditLogService) {}

  @Handles(SUBJECTS.audit.historyList)
  list(
    @Payload() query: HistoryQueryDto,
    @Caller() caller: CallerIdentity,
  ): Promise<HistoryPage> {
    return this.service.history(caller, query);
  }
}
