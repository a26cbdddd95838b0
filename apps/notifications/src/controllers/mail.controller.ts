import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { NOTIFICATIONS_SUBJECTS, SendEmailDto, type DevMailEntry, type SendEmailReply } from '@medfolio/contracts';
import { Handles, RpcController } from '@medfolio/messaging';
import { MailService } from '../services/mail.service';

/** Request/reply from other services (identity): queue a templated e-mail; the dev mailbox. */
@RpcController()
export class MailController {
  constructor(@Inject(MailService) private readonly service: MailService) {}

  @Handles(NOTIFICATIONS_SUBJECTS.sendEmail)
  send(@Payload() request: SendEmailDto): Promise<SendEmailReply> {
    return this.service.queue(request);
  }

  /** Answers NOT_FOUND when SMTP_URL is set: the dev mailbox exists only while nothing is really sent. */
  @Handles(NOTIFICATIONS_SUBJECTS.listDevMail)
  devMail(): Promise<DevMailEntry[]> {
    return this.service.devMailbox();
  }
}
