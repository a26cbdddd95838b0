import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  CreateShareLinkDto,
  EnsureShareLinkDto,
  ResolveShareLinkDto,
  SHARING_SUBJECTS,
  ShareLinkIdDto,
  UnlockShareLinkDto,
  UpdateShareLinkDto,
  type CallerIdentity,
  type ResolvedShareLink,
  type ShareLinkItem,
  type ShareLinkUnlockReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { SharingService } from '../services/sharing.service';

/** Request/reply handlers of share links: the owner's /api/share-links/ routes, other services' ensure/resolve, and unlock. */
@RpcController()
export class SharingController {
  constructor(@Inject(SharingService) private readonly sharing: SharingService) {}

  @Handles(SHARING_SUBJECTS.ensure)
  ensure(@Payload() dto: EnsureShareLinkDto, @Caller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.ensure(caller, dto);
  }

  @Handles(SHARING_SUBJECTS.resolve)
  resolve(@Payload() dto: ResolveShareLinkDto): Promise<ResolvedShareLink> {
    return this.sharing.resolve(dto);
  }

  @Handles(SHARING_SUBJECTS.list)
  list(@Caller() caller: CallerIdentity): Promise<ShareLinkItem[]> {
    return this.sharing.list(caller);
  }

  @Handles(SHARING_SUBJECTS.create)
  create(@Payload() dto: CreateShareLinkDto, @Caller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.create(caller, dto);
  }

  @Handles(SHARING_SUBJECTS.update)
  update(@Payload() dto: UpdateShareLinkDto, @Caller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.update(caller, dto);
  }

  @Handles(SHARING_SUBJECTS.revoke)
  revoke(@Payload() dto: ShareLinkIdDto, @Caller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.revoke(caller, dto);
  }

  @Handles(SHARING_SUBJECTS.unlock)
  unlock(@Payload() dto: UnlockShareLinkDto, @Caller() caller: CallerIdentity): Promise<ShareLinkUnlockReply> {
    return this.sharing.unlock(caller, dto);
  }
}
