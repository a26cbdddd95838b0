import { IsEmail, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { CommonConfig, Env, KeyList, WholeNumber, WithPublicUrl } from '@medfolio/config';

export class NotificationsConfig extends WithPublicUrl(CommonConfig) {
  /**
   * smtp://user:pass@host:587 or smtps://user:pass@host:465. Unset: nothing leaves the machine;
   * "sent" mail is kept in the dev mailbox (GET /dev/mail in embedded mode).
   */
  @Env('SMTP_URL', { sensitive: true })
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'must be an smtp:// or smtps:// URL' })
  smtpUrl?: string;

  /** The From header of every message: `Name <address>` or a bare address. */
  @Env('MAIL_FROM')
  @IsString()
  @MaxLength(200, { message: 'must be at most 200 characters' })
  @Matches(/^([^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/, {
    message: "must be an address or 'Name <address>'",
  })
  mailFrom = 'Medfolio <no-reply@medfolio.local>';

  /** Where contact-form messages go. */
  @Env('SUPPORT_EMAIL')
  @IsEmail({ require_tld: false }, { message: 'must be an e-mail address' })
  supportEmail = 'support@medfolio.local';

  /**
   * AES-256-GCM key for message bodies at rest: 32 random bytes in base64 (`openssl rand -base64 32`),
   * or to rotate, a list "new:base64,old:base64" (the first seals, all open; ids are stored with
   * each value). Required in service mode (every replica must read every row); in embedded mode,
   * when unset, one is generated into DATA_DIR/keys/notifications.key on first start and reused.
   */
  @Env('NOTIFICATIONS_ENCRYPTION_KEY', { sensitive: true, serviceSecret: { how: '32 random bytes in base64, the same in every notifications replica (openssl rand -base64 32)' } })
  @ValidateIf((config: NotificationsConfig) => config.mode === 'service' || config.encryptionKey !== undefined)
  @KeyList('must be 32 random bytes in base64 (required in service mode)')
  encryptionKey?: string;

  /** A message still undelivered this long after it was queued is given up ('failed'). */
  @Env('MAIL_GIVE_UP_AFTER_HOURS')
  @WholeNumber(1, 24 * 30)
  giveUpAfterHours = 72;

  /**
   * Days the body of a delivered (or given-up) e-mail is kept: afterwards housekeeping erases it
   * (the dev mailbox stops listing it) and, after PROCESSED_MESSAGES_RETENTION_DAYS, deletes the row.
   */
  @Env('MAIL_RETENTION_DAYS')
  @WholeNumber(1)
  mailRetentionDays = 7;

  /** The answer time support promises for contact messages from plans with priority support (Plus, Family), in hours. */
  @Env('CONTACT_PRIORITY_HOURS')
  @WholeNumber(1, 24 * 14)
  contactPriorityHours = 4;

  /** The answer time support promises for every other contact message, in hours. */
  @Env('CONTACT_STANDARD_HOURS')
  @WholeNumber(1, 24 * 30)
  contactStandardHours = 48;
}
