import { Inject, Injectable, Logger } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DataSource } from 'typeorm';
import { EntitlementChangedEvent } from '@medfolio/contracts';
import { type EventEnvelope } from '@medfolio/messaging';
import { IdempotentConsumer } from '@medfolio/messaging/outbox';
import { EntitlementsRepository } from '../repositories/entitlements.repository';

/**
 * Keeps the plan projection that quotas are decided from, fed by billing.entitlement.changed.v1.
 * Exactly once per message (processed ids in the same transaction), and an event older than the
 * one already applied changes nothing. A malformed event throws: it is retried, then dead-lettered.
 */
@Injectable()
export class EntitlementsService {
  private readonly logger = new Logger(EntitlementsService.name);
  private readonly once: IdempotentConsumer;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(EntitlementsRepository) private readonly entitlements: EntitlementsRepository,
  ) {
    this.once = new IdempotentConsumer(dataSource, 'documents-entitlements');
  }

  async apply(event: EventEnvelope): Promise<void> {
    const change = plainToInstance(EntitlementChangedEvent, event.data);
    const errors = validateSync(change ?? {}, { whitelist: true });
    if (!change || typeof change !== 'object' || errors.length > 0) {
      const reasons = errors.flatMap((e) => Object.values(e.constraints ?? {}));
      throw new Error(`Malformed entitlement event ${event.id}: ${reasons.join('; ') || 'not an object'}`);
    }
    await this.once.handle(event, async (manager) => {
      const applied = await this.entitlements.apply(change.user_id, change.plan, new Date(change.changed_at), manager);
      this.logger.log({ userId: change.user_id, plan: change.plan, applied }, 'entitlement change received');
    });
  }
}
