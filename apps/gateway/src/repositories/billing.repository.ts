import { Inject, Injectable } from '@nestjs/common';
import {
  BILLING_SUBJECTS,
  type CallerIdentity,
  type CheckoutDto,
  type CheckoutReply,
  type InviteDto,
  type MembershipView,
  type PlansReply,
  type ReferralView,
  type WebhookDto,
  type WebhookReply,
} from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/** The gateway's request/reply calls to the billing service. */
@Injectable()
export class BillingRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  plans(caller: CallerIdentity): Promise<PlansReply> {
    return this.rpc.send(BILLING_SUBJECTS.plans, {}, caller);
  }

  membership(caller: CallerIdentity): Promise<MembershipView> {
    return this.rpc.send(BILLING_SUBJECTS.membership, {}, caller);
  }

  checkout(dto: CheckoutDto, caller: CallerIdentity): Promise<CheckoutReply> {
    return this.rpc.send(BILLING_SUBJECTS.checkout, dto, caller);
  }

  cancel(caller: CallerIdentity): Promise<MembershipView> {
    return this.rpc.send(BILLING_SUBJECTS.cancel, {}, caller);
  }

  webhook(dto: WebhookDto, caller: CallerIdentity): Promise<WebhookReply> {
    return this.rpc.send(BILLING_SUBJECTS.webhook, dto, caller);
  }

  referral(caller: CallerIdentity): Promise<ReferralView> {
    return this.rpc.send(BILLING_SUBJECTS.referral, {}, caller);
  }

  invite(dto: InviteDto, caller: CallerIdentity): Promise<{ message: string }> {
    return this.rpc.send(BILLING_SUBJECTS.invite, dto, caller);
  }
}
