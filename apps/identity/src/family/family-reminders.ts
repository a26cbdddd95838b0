import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Housekeeping } from '@medfolio/runtime/service-kit';
import { IdentityConfig } from '../config';
import { FamilyClaimsRepository } from '../repositories/family-claims.repository';
import { FamilyRepository } from '../repositories/family.repository';
import { NotificationsRepository } from '../repositories/notifications.repository';
import { comingOfAgeReminderDue, FAMILY_CLOCK, reminderDue, type Clock } from './family-rules';

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
    @Inject(FamilyClaimsRepository) private readonly claims: FamilyClaimsRepository,
    @Inject(NotificationsRepository) private readonly notifications: NotificationsRepository,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
    @Inject(FAMILY_CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // The housekeeping's "before" is not used: the clock decides what is due.
    this.housekeeping.register({ name: 'family access reminders sent', retentionMs: 0, prune: () => this.sendDue() });
    this.housekeeping.register({ name: 'family coming-of-age reminders sent', retentionMs: 0, prune: () => this.sendComingOfAge() });
  }

  /**
   * Tells each guardian, once, FAMILY_REMINDER_DAYS before a dependant's 18th birthday (when every
   * grant on the record ends) that it is coming, and that they can invite the person to claim their
   * record. The guardian grant's reminder mark makes it once (it is never renewed). Returns how many went.
   */
  async sendComingOfAge(): Promise<number> {
    const now = this.clock.now();
    const days = this.config.familyReminderDays;
    const grants = await this.claims.comingOfAge(now, new Date(now.getTime() + days * 86_400_000));
    const people = await this.family.people(grants.flatMap((g) => [g.patientId, g.granteeId]));
    const base = this.config.publicBaseUrl.replace(/\/$/, '');
    let sent = 0;
    for (const grant of grants) {
      const guardian = people.get(grant.granteeId);
      const child = people.get(grant.patientId);
      const birthday = grant.expiresAt;
      if (!guardian?.email || !child || !birthday || !comingOfAgeReminderDue(grant, now, days)) continue;
      try {
        await this.notifications.send(
          { roles: [], correlationId: `family-coming-of-age:${grant.id}` },
          guardian.email,
          'family-coming-of-age',
          { first_name: guardian.firstName, patient_name: child.firstName, birthday: birthday.toISOString().slice(0, 10), family_url: `${base}/family` },
          `family-coming-of-age:${grant.id}`,
        );
        await this.family.updateGrant(grant.id, { reminderSentAt: now });
        sent++;
      } catch (error) {
        this.logger.warn({ grantId: grant.id, err: String(error) }, 'coming-of-age reminder not sent; retried at the next pass');
      }
    }
    return sent;
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
