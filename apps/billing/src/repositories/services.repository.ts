import { Inject, Injectable } from '@nestjs/common';
import {
  IDENTITY_SUBJECTS,
  NOTIFICATIONS_SUBJECTS,
  type CallerIdentity,
  type NotificationTemplate,
  type Profile,
  type SendEmailReply,
  type TemplateData,
} from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/** Billing's request/reply calls to other services: identity (who the user is) and notifications (e-mails). */
@Injectable()
export class ServicesRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** The caller's profile (name and e-mail for the Stripe customer and invitations). */
  profile(caller: CallerIdentity): Promise<Profile> {
    return this.rpc.send(IDENTITY_SUBJECTS.getProfile, {}, caller);
  }

  /** Queues an e-mail; the same key twice queues one message. */
  email<T extends NotificationTemplate>(caller: CallerIdentity, to: string, template: T, data: TemplateData[T], idempotencyKey: string): Promise<SendEmailReply> {
    return this.rpc.send(NOTIFICATIONS_SUBJECTS.sendEmail, { to, template, data: { ...data }, idempotencyKey }, caller);
  }
}
