import { Inject, Injectable } from '@nestjs/common';
import {
  NOTIFICATIONS_SUBJECTS,
  PROVIDERS_SUBJECTS,
  SHARING_SUBJECTS,
  type CallerIdentity,
  type ProviderFacts,
  type ResolvedShareLink,
  type TemplateData,
  type UserContact,
} from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/**
 * What provider access asks other services (request/reply): identity (the caller's verified
 * licence; a patient's address and first name), summary (a share id's owner) and notifications
 * (the e-mail to the patient).
 */
@Injectable()
export class DirectoryRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  providerFacts(caller: CallerIdentity): Promise<ProviderFacts> {
    return this.rpc.send(PROVIDERS_SUBJECTS.getProvider, {}, caller);
  }

  userContact(caller: CallerIdentity, userId: string): Promise<UserContact> {
    return this.rpc.send(PROVIDERS_SUBJECTS.userContact, { user_id: userId }, caller);
  }

  /** A usable link's owner and flags; a passcode link needs its view token (else FORBIDDEN). */
  resolveShare(caller: CallerIdentity, shareId: string, viewToken?: string): Promise<ResolvedShareLink> {
    return this.rpc.send(SHARING_SUBJECTS.resolve, { share_id: shareId, ...(viewToken ? { view_token: viewToken } : {}) }, caller);
  }

  async mailAccessRequest(caller: CallerIdentity, to: string, data: TemplateData['provider-access-request'], idempotencyKey: string): Promise<void> {
    await this.rpc.send(NOTIFICATIONS_SUBJECTS.sendEmail, { to, template: 'provider-access-request', data, idempotencyKey }, caller);
  }
}
