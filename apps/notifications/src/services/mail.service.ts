import { createHash, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { isEmail } from 'class-validator';
import {
  DomainError,
  PLAN_NAMES,
  TRENDS_FULL_PLANS,
  type CallerIdentity,
  type ContactMessageDto,
  type PlanId,
  type ContactReply,
  type DevMailEntry,
  type SendEmailDto,
  type SendEmailReply,
  type UserVerifiedEvent,
} from '@medfolio/contracts';
import { NotificationsConfig } from '../config';
import { MailRepository, type NewEmail } from '../repositories/mail.repository';
import { MembershipRepository } from '../repositories/membership.repository';
import { MailTransport } from '../repositories/mail-transport';
import { MailSender, type EmailEnvelope } from './mail-sender';
import { MessageCipher, SEAL_CONTEXT } from './message-cipher';
import { renderEmail, templateDataProblem } from './templates';

export const CONTACT_THANKS = 'Thank you! Your message has been sent.';

/** How many messages the dev mailbox shows. */
const DEV_MAILBOX_SIZE = 100;

/**
 * Queues e-mails (rendered and sealed right away, so the row holds exactly what will be sent) and
 * answers once the row is committed; the MailSender delivers them. Logs name message ids and
 * templates only: never recipients, codes, links or bodies.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);

  constructor(
    @Inject(NotificationsConfig) private readonly config: NotificationsConfig,
    @Inject(MailRepository) private readonly repository: MailRepository,
    @Inject(MessageCipher) private readonly cipher: MessageCipher,
    @Inject(MailSender) private readonly sender: MailSender,
    @Inject(MailTransport) private readonly transport: MailTransport,
    @Inject(MembershipRepository) private readonly membership: MembershipRepository,
  ) {}

  /** `notifications.email.send`: one templated e-mail. The same idempotency key twice is one message. */
  async queue(request: SendEmailDto): Promise<SendEmailReply> {
    const problem = templateDataProblem(request.template, request.data);
    if (problem) throw new DomainError('VALIDATION_FAILED', problem);
    const id = randomUUID();
    const envelope: EmailEnvelope = { to: request.to, ...renderEmail(request.template, request.data, { baseUrl: this.config.publicBaseUrl }) };
    const idempotencyHash = request.idempotencyKey ? sha256(request.idempotencyKey) : null;
    const stored = await this.repository.enqueue(this.sealedEmail(id, request.template, envelope, idempotencyHash));
    if (stored.created) {
      this.logger.log({ messageId: stored.id, template: request.template, state: 'queued' }, 'e-mail queued');
      this.sender.kick();
    } else {
      this.logger.log({ messageId: stored.id, template: request.template }, 'e-mail already queued (same idempotency key)');
    }
    return { id: stored.id, state: 'queued' };
  }

  /**
   * `notifications.contact.submit`: keeps the message and e-mails a copy to support (Reply-To: the
   * sender). Sent signed in (the gateway passes the token's caller), the sender's plan is asked of
   * billing: from Plus and Family the message is priority (stored so, "[PRIORITY]" in the subject
   * with the promised answer time), and the reply says that time (CONTACT_PRIORITY_HOURS, else
   * CONTACT_STANDARD_HOURS).
   */
  async submitContact(form: ContactMessageDto, caller?: CallerIdentity): Promise<ContactReply> {
    const contactId = randomUUID();
    const emailId = randomUUID();
    const accountId = caller?.userId ?? null;
    const plan = accountId && caller ? await this.membership.planOf(caller) : null;
    const priority = plan !== null && TRENDS_FULL_PLANS.includes(plan);
    const hours = priority ? this.config.contactPriorityHours : this.config.contactStandardHours;
    // Only the form's own fields: a `priority` in the body never marks a message.
    const data: Record<string, string> = { firstname: form.firstname, lastname: form.lastname, email: form.email, message: form.message };
    if (priority && plan) data['priority'] = `${PLAN_NAMES[plan]} plan, answer within ${hours} hours`;
    const envelope: EmailEnvelope = {
      to: this.config.supportEmail,
      replyTo: form.email,
      ...renderEmail('contact-copy', data, { baseUrl: this.config.publicBaseUrl }),
    };
    await this.repository.enqueueContact(
      { id: contactId, sealed: this.cipher.seal({ firstname: form.firstname, lastname: form.lastname, email: form.email, message: form.message }, SEAL_CONTEXT.contact(contactId)), priority, accountId },
      this.sealedEmail(emailId, 'contact-copy', envelope, null),
    );
    this.logger.log({ contactMessageId: contactId, messageId: emailId, template: 'contact-copy', state: 'queued', priority }, 'contact message stored');
    this.sender.kick();
    const message = priority ? `${CONTACT_THANKS} As a ${PLAN_NAMES[plan as PlanId]} member you have priority support: we answer within ${hours} hours.` : CONTACT_THANKS;
    return { message, priority, answer_within_hours: hours };
  }

  /**
   * The welcome e-mail for a newly verified account (the event validated by the kit): once per user,
   * however often the event arrives. An address no mail can go to is refused (retried, then the DLQ).
   */
  async welcome(user: UserVerifiedEvent): Promise<void> {
    if (!isEmail(user.email)) throw new DomainError('VALIDATION_FAILED', 'Invalid identity.user.verified event: the address is not an e-mail address');
    await this.queue({
      to: user.email,
      template: 'welcome',
      data: { first_name: user.first_name },
      idempotencyKey: `welcome:${user.user_id}`,
    });
  }

  /** `notifications.devmail.list`: what was "sent" while no SMTP server is configured, newest first. */
  async devMailbox(): Promise<DevMailEntry[]> {
    if (this.transport.kind !== 'dev-mailbox') throw new DomainError('NOT_FOUND', 'Not found.');
    const sent = await this.repository.listSent(DEV_MAILBOX_SIZE);
    return sent.map((message) => {
      const envelope = this.cipher.open<EmailEnvelope>(message.sealed, SEAL_CONTEXT.email(message.id));
      return { to: envelope.to, subject: envelope.subject, text: envelope.text, html: envelope.html, sent_at: message.sentAt.toISOString() };
    });
  }

  private sealedEmail(id: string, template: string, envelope: EmailEnvelope, idempotencyHash: string | null): NewEmail {
    return { id, template, sealed: this.cipher.seal(envelope, SEAL_CONTEXT.email(id)), idempotencyHash };
  }
}

function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
