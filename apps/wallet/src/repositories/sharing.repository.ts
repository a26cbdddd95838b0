import { Inject, Injectable } from '@nestjs/common';
import { SHARING_SUBJECTS, type CallerIdentity, type ShareLinkItem } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';
import { WALLET_LINK_LABEL } from '../services/pass-design';

/** The summary service's share links: the pass's own link (purpose 'wallet'), asked for as its owner. */
@Injectable()
export class SharingRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** The owner's active wallet link, made by the summary service if there is none: asked only when a new pass is issued. */
  walletLink(owner: CallerIdentity): Promise<ShareLinkItem> {
    return this.rpc.send(SHARING_SUBJECTS.ensure, { purpose: 'wallet', label: WALLET_LINK_LABEL }, owner);
  }
}
