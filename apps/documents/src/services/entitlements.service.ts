import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EntitlementChangedEvent, HouseholdChangedEvent } from '@medfolio/contracts';
import { EntitlementsRepository } from '../repositories/entitlements.repository';

/**
 * Keeps the plan projection that quotas are decided from, fed by billing.entitlement.changed.v1
 * (validated, and applied once per message, by the service kit: see DocumentEventsController). An
 * event older than the one already applied changes nothing.
 */
@Injectable()
export class EntitlementsService {
  private readonly logger = new Logger(EntitlementsService.name);

  constructor(@Inject(EntitlementsRepository) private readonly entitlements: EntitlementsRepository) {}

  /** Applies a plan change in `manager`'s transaction (the one that records the message as processed). */
  async apply(change: EntitlementChangedEvent, manager: EntityManager): Promise<void> {
    const applied = await this.entitlements.apply(change.user_id, change.plan, new Date(change.changed_at), manager);
    this.logger.log({ userId: change.user_id, plan: change.plan, applied }, 'entitlement change received');
  }

  /** A dependant joined or left a household: their record goes under the holder's plan (or back to their own). */
  async applyHousehold(change: HouseholdChangedEvent, manager: EntityManager): Promise<void> {
    await this.entitlements.setHousehold(change.patient_id, change.holder_id, change.first_name, manager);
    this.logger.log({ patientId: change.patient_id, holderId: change.holder_id }, 'household change received');
  }
}
