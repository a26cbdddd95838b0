import { Controller, Inject } from '@nestjs/common';
import { IDENTITY_SUBJECTS, STREAMS, UserVerifiedEvent } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { MailService } from '../services/mail.service';

/** Inbound adapter for identity's events: a verified account gets the welcome e-mail (the kit ensures the IDENTITY stream). */
@Controller()
export class IdentityEventsController {
  constructor(@Inject(MailService) private readonly service: MailService) {}

  /** Idempotent: the e-mail's idempotency key is per user, so a redelivery queues nothing new. */
  @OnEvent({
    stream: STREAMS.IDENTITY.name,
    durable: 'notifications-welcome',
    subjects: [IDENTITY_SUBJECTS.verified],
    maxDeliver: 10,
    payload: UserVerifiedEvent,
  })
  async onUserVerified(event: EventEnvelope<UserVerifiedEvent>): Promise<void> {
    await this.service.welcome(event.data);
  }
}
