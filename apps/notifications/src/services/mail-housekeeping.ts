import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { Housekeeping } from '@medfolio/runtime/service-kit';
import { NotificationsConfig } from '../config';
import { MailRepository } from '../repositories/mail.repository';

const DAY_MS = 24 * 3_600_000;

/** Adds the delivered e-mail bodies, then the emptied rows, to the kit's housekeeping. */
@Injectable()
export class MailHousekeeping implements OnModuleInit {
  constructor(
    @Inject(Housekeeping) private readonly housekeeping: Housekeeping,
    @Inject(MailRepository) private readonly mail: MailRepository,
    @Inject(NotificationsConfig) private readonly config: NotificationsConfig,
  ) {}

  onModuleInit(): void {
    this.housekeeping.register({ name: 'delivered e-mail bodies', retentionMs: this.config.mailRetentionDays * DAY_MS, prune: (before) => this.mail.eraseFinishedBodies(before) });
    this.housekeeping.register({
      name: 'e-mail records without a body',
      retentionMs: Math.max(this.config.mailRetentionDays, this.config.processedMessagesRetentionDays) * DAY_MS,
      prune: (before) => this.mail.deleteErased(before),
    });
  }
}
