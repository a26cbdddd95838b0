import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { ContactMessageDto, NOTIFICATIONS_SUBJECTS, type CallerIdentity, type ContactReply } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { MailService } from '../services/mail.service';

/**
 * The contact form (POST /api/contact/ at the gateway; a token, when sent, names the sender for
 * priority support). Not health data: nothing is audited.
 */
@RpcController()
export class ContactController {
  constructor(@Inject(MailService) private readonly service: MailService) {}

  @Handles(NOTIFICATIONS_SUBJECTS.submitContact)
  submit(@Payload() form: ContactMessageDto, @Caller() caller: CallerIdentity): Promise<ContactReply> {
    return this.service.submitContact(form, caller);
  }
}
