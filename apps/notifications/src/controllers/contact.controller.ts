import { Controller, Inject, UseFilters } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ContactMessageDto, NOTIFICATIONS_SUBJECTS, type ContactReply } from '@medfolio/contracts';
import { createValidationPipe, RpcErrorFilter } from '@medfolio/messaging';
import { MailService } from '../services/mail.service';

/** The contact form (POST /api/contact/ at the gateway). Not health data: nothing is audited. */
@Controller()
@UseFilters(RpcErrorFilter)
export class ContactController {
  constructor(@Inject(MailService) private readonly service: MailService) {}

  @MessagePattern(NOTIFICATIONS_SUBJECTS.submitContact)
  submit(@Payload(createValidationPipe()) form: ContactMessageDto): Promise<ContactReply> {
    return this.service.submitContact(form);
  }
}
