import { Inject, Injectable } from '@nestjs/common';
import {
  NOTIFICATIONS_SUBJECTS,
  type CallerIdentity,
  type ContactMessageDto,
  type ContactReply,
  type DevMailEntry,
} from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/** The gateway's I/O towards the notifications service (request/reply). */
@Injectable()
export class NotificationsRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  submitContact(form: ContactMessageDto, caller: CallerIdentity): Promise<ContactReply> {
    return this.rpc.send(NOTIFICATIONS_SUBJECTS.submitContact, form, caller);
  }

  /** The embedded dev mailbox, newest first; NOT_FOUND when notifications sends over SMTP. */
  devMail(caller: CallerIdentity): Promise<DevMailEntry[]> {
    return this.rpc.send(NOTIFICATIONS_SUBJECTS.listDevMail, {}, caller);
  }
}
