import { Inject, Injectable } from '@nestjs/common';
import { NOTIFICATIONS_SUBJECTS, type CallerIdentity, type NotificationTemplate, type SendEmailReply, type TemplateData } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/** Hands e-mails to the notifications service over request/reply (secrets never go on a stream). */
@Injectable()
export class NotificationsRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  send<T extends NotificationTemplate>(caller: CallerIdentity, to: string, template: T, data: TemplateData[T], idempotencyKey?: string): Promise<SendEmailReply> {
    return this.rpc.send(NOTIFICATIONS_SUBJECTS.sendEmail, { to, template, data, ...(idempotencyKey ? { idempotencyKey } : {}) }, caller);
  }
}
