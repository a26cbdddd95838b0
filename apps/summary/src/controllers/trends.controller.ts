import { Inject } from '@nestjs/common';
import { TRENDS_SUBJECTS, type CallerIdentity, type TrendsCsvReply, type TrendsReply } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { TrendsService } from '../services/trends.service';

/** Request/reply handlers behind GET /api/trends/ and GET /api/trends/export.csv. */
@RpcController()
export class TrendsController {
  constructor(@Inject(TrendsService) private readonly trends: TrendsService) {}

  @Handles(TRENDS_SUBJECTS.get)
  get(@Caller() caller: CallerIdentity): Promise<TrendsReply> {
    return this.trends.get(caller);
  }

  @Handles(TRENDS_SUBJECTS.exportCsv)
  exportCsv(@Caller() caller: CallerIdentity): Promise<TrendsCsvReply> {
    return this.trends.exportCsv(caller);
  }
}
