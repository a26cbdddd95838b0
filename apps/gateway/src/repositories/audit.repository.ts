import { Inject, Injectable } from '@nestjs/common';
import { SUBJECTS, type CallerIdentity, type HistoryPage, type HistoryQueryDto } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/** The gateway's I/O towards the audit service (request/reply). */
@Injectable()
export class AuditRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  history(query: HistoryQueryDto, caller: CallerIdentity): Promise<HistoryPage> {
    return this.rpc.send(SUBJECTS.audit.historyList, query, caller);
  }
}
