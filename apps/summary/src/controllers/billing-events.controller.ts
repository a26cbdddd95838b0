import { Controller, Inject } from '@nestjs/common';
import { BILLING_SUBJECTS, EntitlementChangedEvent, STREAMS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { TrendsService } from '../services/trends.service';

/**
 * Billing's plan changes, kept as the summary's own projection (health trends are gated by plan),
 * applied once per message in the transaction that records it, as the documents service does.
 */
@Controller()
export class BillingEventsController {
  constructor(@Inject(TrendsService) private readonly trends: TrendsService) {}

  @OnEvent({
    stream: STREAMS.BILLING.name,
    durable: 'summary-entitlements',
    subjects: [BILLING_SUBJECTS.entitlementChanged],
    maxDeliver: 10,
    payload: EntitlementChangedEvent,
    once: true,
  })
  async onEntitlementChanged(event: EventEnvelope<EntitlementChangedEvent>, once: OnceInTransaction): Promise<void> {
    await once((manager) => this.trends.applyEntitlement(event.data, manager));
  }
}
