import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PollingLoop } from '@medfolio/messaging/outbox';
import { BillingConfig } from '../config';
import { BillingRepository } from '../repositories/billing.repository';
import { EntitlementsService } from './entitlements.service';

/**
 * Time ends some plans without any event: a past-due plan when its grace period is over, a
 * referral month when it is over. This loop rechecks those users (an unchanged plan publishes nothing).
 */
@Injectable()
export class SweepService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SweepService.name);
  private readonly loop: PollingLoop;

  constructor(
    @Inject(BillingConfig) config: BillingConfig,
    @Inject(BillingRepository) private readonly billing: BillingRepository,
    @Inject(EntitlementsService) private readonly entitlements: EntitlementsService,
  ) {
    this.loop = new PollingLoop(() => this.passQuietly(), config.sweepIntervalMs);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: returns how many users' plans changed. */
  async pass(at = new Date()): Promise<number> {
    let changed = 0;
    for (const userId of await this.billing.usersToRecheck(at)) {
      if (await this.entitlements.recheck(userId, at)) changed++;
    }
    return changed;
  }

  private async passQuietly(): Promise<void> {
    try {
      await this.pass();
    } catch (error) {
      this.logger.error({ err: error }, 'billing sweep failed');
    }
  }
}
