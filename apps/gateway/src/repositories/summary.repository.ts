import { Inject, Injectable } from '@nestjs/common';
import {
  SUMMARY_SUBJECTS,
  type AddFactDto,
  type CallerIdentity,
  type ConfirmSummaryDto,
  type EditFactDto,
  type FactIdDto,
  type HideFactDto,
  type SummaryItem,
  type SummaryQueryDto,
  type SummaryStatusReply,
} from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/** The gateway's request/reply calls to the summary service. */
@Injectable()
export class SummaryRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  get(query: SummaryQueryDto, caller: CallerIdentity): Promise<SummaryItem[]> {
    return this.rpc.send(SUMMARY_SUBJECTS.get, query, caller);
  }

  status(caller: CallerIdentity): Promise<SummaryStatusReply> {
    return this.rpc.send(SUMMARY_SUBJECTS.status, {}, caller);
  }

  hide(dto: HideFactDto, caller: CallerIdentity): Promise<SummaryItem> {
    return this.rpc.send(SUMMARY_SUBJECTS.hide, dto, caller);
  }

  edit(dto: EditFactDto, caller: CallerIdentity): Promise<SummaryItem> {
    return this.rpc.send(SUMMARY_SUBJECTS.edit, dto, caller);
  }

  add(dto: AddFactDto, caller: CallerIdentity): Promise<SummaryItem> {
    return this.rpc.send(SUMMARY_SUBJECTS.add, dto, caller);
  }

  remove(dto: FactIdDto, caller: CallerIdentity): Promise<SummaryItem> {
    return this.rpc.send(SUMMARY_SUBJECTS.remove, dto, caller);
  }

  confirm(dto: ConfirmSummaryDto, caller: CallerIdentity): Promise<SummaryItem> {
    return this.rpc.send(SUMMARY_SUBJECTS.confirm, dto, caller);
  }
}
