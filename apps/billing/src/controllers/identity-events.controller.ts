import { Controller, Inject } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IDENTITY_SUBJECTS, STREAMS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { IdempotentConsumer } from '@medfolio/messaging/outbox';
import { ReferralService, type AccountEvent } from '../services/referral.service';

/**
 * identity's account events, in order on one durable consumer (registered comes before verified):
 * every account is known to billing (a new address from a known one), sign-ups with a code join a
 * referral, verified e-mails count it. Each message once (processed ids in the same transaction).
 */
@Controller()
export class IdentityEventsController {
  private readonly once: IdempotentConsumer;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(ReferralService) private readonly referrals: ReferralService,
  ) {
    this.once = new IdempotentConsumer(dataSource, 'billing-referrals');
  }

  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'billing-referrals',
    subjects: [IDENTITY_SUBJECTS.registered, IDENTITY_SUBJECTS.verified],
    maxDeliver: 10,
  })
  async onAccountEvent(event: EventEnvelope): Promise<void> {
    const data = accountEvent(event.data);
    if (!data) throw new Error(`Malformed account event ${event.id}`);
    await this.once.handle(event, async (manager) => {
      if (event.subject === IDENTITY_SUBJECTS.registered) await this.referrals.onRegistered(data, manager);
      else await this.referrals.onVerified(data, manager);
    });
    // Rewards after the count committed, also on a redelivery: reward() gives only months not given yet,
    // so a failed Stripe call is retried with the message.
    if (event.subject === IDENTITY_SUBJECTS.verified) await this.referrals.rewardFor(data.user_id);
  }
}

function accountEvent(value: unknown): AccountEvent | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  if (typeof v['user_id'] !== 'string' || typeof v['email'] !== 'string') return null;
  return { user_id: v['user_id'], email: v['email'], referral_code: typeof v['referral_code'] === 'string' ? v['referral_code'] : null };
}
