import { Logger, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { EventsModule, type EventBus } from '@medfolio/messaging';
import { ServiceKitModule } from '@medfolio/runtime/service-kit';
import { NotificationsConfig } from './config';
import { ContactController } from './controllers/contact.controller';
import { IdentityEventsController } from './controllers/identity-events.controller';
import { MailController } from './controllers/mail.controller';
import { ContactMessage } from './entities/contact-message.entity';
import { EmailMessage } from './entities/email-message.entity';
import { NOTIFICATIONS_MIGRATIONS } from './migrations';
import { loadEncryptionKeys } from './repositories/encryption-key';
import { createMailTransport, MailTransport } from './repositories/mail-transport';
import { MailRepository } from './repositories/mail.repository';
import { MembershipRepository } from './repositories/membership.repository';
import { DEFAULT_SENDER_OPTIONS, MAIL_SENDER_OPTIONS, MailSender, type MailSenderOptions } from './services/mail-sender';
import { MailHousekeeping } from './services/mail-housekeeping';
import { MailService } from './services/mail.service';
import { MessageCipher } from './services/message-cipher';

export interface NotificationsAppOptions {
  config: NotificationsConfig;
  eventBus: EventBus;
  http: boolean;
  /** Sender timing (tests shorten it); the give-up time comes from MAIL_GIVE_UP_AFTER_HOURS. */
  sender?: Partial<Omit<MailSenderOptions, 'retry'>> & { retry?: Partial<MailSenderOptions['retry']> };
}

export const NOTIFICATIONS_ENTITIES = [EmailMessage, ContactMessage];

export function notificationsDbOptions(config: NotificationsConfig) {
  return { name: 'notifications' as const, config, entities: NOTIFICATIONS_ENTITIES, migrations: NOTIFICATIONS_MIGRATIONS };
}

export function senderOptions(config: NotificationsConfig, overrides: NotificationsAppOptions['sender'] = {}): MailSenderOptions {
  return {
    ...DEFAULT_SENDER_OPTIONS,
    ...overrides,
    retry: { ...DEFAULT_SENDER_OPTIONS.retry, giveUpAfterMs: config.giveUpAfterHours * 3_600_000, ...overrides.retry },
  };
}

export const NOTIFICATIONS_CONTROLLERS = [MailController, ContactController, IdentityEventsController];

/** The service's own providers (the plumbing, DataSource and EVENT_BUS, comes from ServiceKitModule). */
export function notificationsProviders(config: NotificationsConfig, sender?: NotificationsAppOptions['sender']): Provider[] {
  return [
    { provide: NotificationsConfig, useValue: config },
    { provide: MessageCipher, useFactory: async () => new MessageCipher(await loadEncryptionKeys(config)) },
    { provide: MailTransport, useFactory: () => announce(createMailTransport(config), config) },
    { provide: MAIL_SENDER_OPTIONS, useValue: senderOptions(config, sender) },
    MailRepository,
    MembershipRepository,
    MailSender,
    MailService,
  ];
}

function announce(transport: MailTransport, config: NotificationsConfig): MailTransport {
  if (transport.kind === 'dev-mailbox') {
    const logger = new Logger(NotificationsAppModule.name);
    const note = 'SMTP_URL is not set: e-mails are kept in the dev mailbox, not sent';
    if (config.mode === 'service') logger.warn(note);
    else logger.log(note);
  }
  return transport;
}

/**
 * The notifications service: e-mail over SMTP (or the dev mailbox when SMTP_URL is unset) from
 * request/reply calls and identity's events, delivered with retries, stored encrypted.
 */
@Module({})
export class NotificationsAppModule {
  static register(options: NotificationsAppOptions): DynamicModule {
    const { config } = options;
    return {
      module: NotificationsAppModule,
      imports: [
        ServiceKitModule.forService({ ...notificationsDbOptions(config), eventBus: options.eventBus, http: options.http, streams: ['IDENTITY'] }),
        EventsModule.forHandlers(),
      ],
      controllers: NOTIFICATIONS_CONTROLLERS,
      providers: [...notificationsProviders(config, options.sender), MailHousekeeping],
    };
  }
}
