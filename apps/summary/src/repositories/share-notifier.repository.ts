import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_SUBJECTS, NOTIFICATIONS_SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/**
 * What sharing asks of other services over request/reply: the owner's e-mail address (identity,
 * asked as the owner while they turn e-mail on view on) and the e-mail itself (notifications).
 */
@Injectable()
export class ShareNotifierRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async ownerEmail(owner: CallerIdentity): Promise<string> {
    return (await this.rpc.send(IDENTITY_SUBJECTS.getProfile, {}, owner)).email;
  }

  async sendViewed(system: CallerIdentity, to: string, data: { label: string; viewed_at: string }, idempotencyKey: string): Promise<void> {
    await this.rpc.send(NOTIFICATIONS_SUBJECTS.sendEmail, { to, template: 'share-link-viewed', data, idempotencyKey }, system);
  }
}
