import { Controller, Inject } from '@nestjs/common';
import { IDENTITY_SUBJECTS, STREAMS, UserRegisteredEvent } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { ReferralService } from '../services/referral.service';

/**
 * identity's account events, in order on one durable consumer (registered comes before verified):
 * every account is known to billing (a new address from a known one), sign-ups with a code join a
 * referral, verified e-mails count it. The kit validates the payload and applies each message once
 * (its id recorded in the transaction of the count).
 */
@Controller()
export class IdentityEventsController {
  constructor(@Inject(ReferralService) private readonly referrals: ReferralService) {}

  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'billing-referrals',
    subjects: [IDENTITY_SUBJECTS.registered, IDENTITY_SUBJECTS.verified],
    maxDeliver: 10,
    payload: UserRegisteredEvent,
    once: true,
  })
  async onAccountEvent(event: EventEnvelope<UserRegisteredEvent>, once: OnceInTransaction): Promise<void> {
    const account = event.data;
    await once(async (manager) => {
      if (event.subject === IDENTITY_SUBJECTS.registered) await this.referrals.onRegistered(account, manager);
      else await this.referrals.onVerified(account, manager);
    });
    // Rewards after the count committed, also on a redelivery: reward() gives only months not given yet,
    // so a failed Stripe call is retried with the message.
    if (event.subject === IDENTITY_SUBJECTS.verified) await this.referrals.rewardFor(account.user_id);
  }
}
