import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Housekeeping } from '@medfolio/runtime/service-kit';
import { IdentityConfig } from '../config';
import { FamilyRepository } from '../repositories/family.repository';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { FAMILY_CLOCK, reminderDue, type Clock } from './family-rules';

/**
 * Reminds the owner of an adult's record, FAMILY_REMINDER_DAYS before a caregiver's access to it
 * ends, that they can renew it. Runs with the kit's housekeeping (HOUSEKEEPING_INTERVAL_MINUTES),
 * once per grant and period (a renewal clears the mark). Dependants' records get no reminder:
 * their proxies' access ends on the 18th birthday and cannot be renewed by a proxy.
 */
@Injectable()
export class FamilyReminders implements OnModuleInit {
  private readonly logger = new Logger(FamilyReminders.name);

  constructor(
    @Inject(Housekeeping) private readonly housekeeping: Housekeeping,
    @Inject(FamilyRepository) private readonly family: FamilyRepository,
    @Inject(NotificationsRepository) private readonly notifications: NotificationsRepository,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(FAMILY_CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // The housekeeping's "before" is not used: the clock decides what is due.
    this.housekeeping.register({ name: 'family access reminders sent', retentionMs: 0, prune: () => this.sendDue() });
  }

  /** Sends the reminders that are due; returns how many went. */
  async sendDue(): Promise<number> {
    const now = this.clock.now();
    const days = this.config.familyReminderDays;
    const grants = await this.family.expiringGrants(now, new Date(now.getTime() + days * 86_400_000));
    const people = await this.family.people(grants.flatMap((g) => [g.patientId]));
    let sent = 0;
    for (const grant of grants) {
      const owner = people.get(grant.patientId);
      if (!owner?.email || owner.holderId || !reminderDue(grant, now, days)) continue;
      const base = this.config.publicBaseUrl.replace(/\/$/, '');
      try {
        await this.notifications.send(
          { roles: [], correlationId: `family-reminder:${grant.id}` },
          owner.email,
          'family-access-expiring',
          { first_name: owner.firstName, patient_name: owner.firstName, expires_on: grant.expiresAt!.toISOString().slice(0, 10), family_url: `${base}/family` },
          `family-reminder:${grant.id}:${grant.expiresAt!.toISOString()}`,
        );
        await this.family.updateGrant(grant.id, { reminderSentAt: now });
        sent++;
      } catch (error) {
        this.logger.warn({ grantId: grant.id, err: String(error) }, 'family reminder not sent; retried at the next pass');
      }
    }
    return sent;
  }
}
