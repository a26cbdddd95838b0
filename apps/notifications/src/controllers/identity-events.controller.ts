import { Controller, Inject, type OnModuleInit } from '@nestjs/common';
import { IDENTITY_SUBJECTS, STREAMS } from '@medfolio/contracts';
import { EVENT_BUS, OnEvent, type EventBus, type EventEnvelope } from '@medfolio/messaging';
import { NotificationsConfig } from '../config';
import { MailService } from '../services/mail.service';

/** Inbound adapter for identity's events: a verified account gets the welcome e-mail. */
@Controller()
export class IdentityEventsController implements OnModuleInit {
  constructor(
    @Inject(MailService) private readonly service: MailService,
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(NotificationsConfig) private readonly config: NotificationsConfig,
  ) {}

  /** The stream may not exist yet (identity can start later): ensure it before the consumer subscribes. */
  async onModuleInit(): Promise<void> {
    await this.bus.ensureStream({ ...STREAMS.IDENTITY, subjects: [...STREAMS.IDENTITY.subjects], replicas: this.config.natsStreamReplicas });
  }

  /** Idempotent: the e-mail's idempotency key is per user, so a redelivery queues nothing new. */
  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'notifications-welcome',
    subjects: [IDENTITY_SUBJECTS.verified],
    maxDeliver: 10,
    backoffMs: [1000, 5000, 30_000],
  })
  async onUserVerified(event: EventEnvelope): Promise<void> {
    await this.service.welcome(event.data);
  }
}
