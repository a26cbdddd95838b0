import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  BILLING_SUBJECTS,
  CheckoutDto,
  InviteDto,
  WebhookDto,
  type CallerIdentity,
  type CheckoutReply,
  type MembershipView,
  type PlansReply,
  type ReferralView,
  type WebhookReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { BillingService } from '../services/billing.service';
import { ReferralService } from '../services/referral.service';
import { WebhookService } from '../services/webhook.service';

/** Request/reply handlers: thin, each hands the validated payload and the caller to a service. */
@RpcController()
export class BillingController {
  constructor(
    @Inject(BillingService) private readonly billing: BillingService,
    @Inject(WebhookService) private readonly webhooks: WebhookService,
    @Inject(ReferralService) private readonly referrals: ReferralService,
  ) {}

  @Handles(BILLING_SUBJECTS.plans)
  plans(): PlansReply {
    return this.billing.plans();
  }

  @Handles(BILLING_SUBJECTS.membership)
  membership(@Caller() caller: CallerIdentity): Promise<MembershipView> {
    return this.billing.membership(caller);
  }

  @Handles(BILLING_SUBJECTS.checkout)
  checkout(@Payload() dto: CheckoutDto, @Caller() caller: CallerIdentity): Promise<CheckoutReply> {
    return this.billing.checkout(caller, dto);
  }

  @Handles(BILLING_SUBJECTS.cancel)
  cancel(@Caller() caller: CallerIdentity): Promise<MembershipView> {
    return this.billing.cancel(caller);
  }

  @Handles(BILLING_SUBJECTS.webhook)
  webhook(@Payload() dto: WebhookDto): Promise<WebhookReply> {
    return this.webhooks.receive(dto);
  }

  @Handles(BILLING_SUBJECTS.referral)
  referral(@Caller() caller: CallerIdentity): Promise<ReferralView> {
    return this.referrals.view(caller);
  }

  @Handles(BILLING_SUBJECTS.invite)
  invite(@Payload() dto: InviteDto, @Caller() caller: CallerIdentity): Promise<{ message: string }> {
    return this.referrals.invite(caller, dto);
  }
}
