import { Controller, Inject, UseFilters, ValidationPipe } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { HistoryQueryDto, SUBJECTS, type CallerIdentity, type HistoryPage } from '@medfolio/contracts';
import { Caller, RpcErrorFilter } from '@medfolio/messaging';
import { AuditLogService } from '../services/audit-log.service';

@Controller()
@UseFilters(RpcErrorFilter)
export class HistoryController {
  constructor(@Inject(AuditLogService) private readonly service: AuditLogService) {}

  @MessagePattern(SUBJECTS.audit.historyList)
  list(
    @Payload(new ValidationPipe({ transform: true, whitelist: true })) query: HistoryQueryDto,
    @Caller() caller: CallerIdentity,
  ): Promise<HistoryPage> {
    return this.service.history(caller, query);
  }
}
