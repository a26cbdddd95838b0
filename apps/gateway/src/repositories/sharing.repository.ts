import { Inject, Injectable } from '@nestjs/common';
import {
  SHARING_SUBJECTS,
  type CallerIdentity,
  type CreateShareLinkDto,
  type EnsureShareLinkDto,
  type ShareLinkIdDto,
  type ShareLinkItem,
  type ShareLinkUnlockReply,
  type UnlockShareLinkDto,
  type UpdateShareLinkDto,
} from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/** The gateway's request/reply calls about share links (the summary service owns them). */
@Injectable()
export class SharingRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  list(caller: CallerIdentity): Promise<ShareLinkItem[]> {
    return this.rpc.send(SHARING_SUBJECTS.list, {}, caller);
  }

  ensure(dto: EnsureShareLinkDto, caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.rpc.send(SHARING_SUBJECTS.ensure, dto, caller);
  }

  create(dto: CreateShareLinkDto, caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.rpc.send(SHARING_SUBJECTS.create, dto, caller);
  }

  update(dto: UpdateShareLinkDto, caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.rpc.send(SHARING_SUBJECTS.update, dto, caller);
  }

  revoke(dto: ShareLinkIdDto, caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.rpc.send(SHARING_SUBJECTS.revoke, dto, caller);
  }

  unlock(dto: UnlockShareLinkDto, caller: CallerIdentity): Promise<ShareLinkUnlockReply> {
    return this.rpc.send(SHARING_SUBJECTS.unlock, dto, caller);
  }
}
