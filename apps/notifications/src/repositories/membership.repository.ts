import { Inject, Injectable, Logger } from '@nestjs/common';
import { BILLING_SUBJECTS, type CallerIdentity, type PlanId } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/** How long a contact message waits for billing's answer before it is sent as a standard one. */
const PLAN_TIMEOUT_MS = 2000;

/**
 * The sender's plan, asked of billing (billing.membership.get, as the signed-in sender) when a
 * contact message arrives with a token. Contact messages are few (10 an hour per address), so one
 * call each costs little and always sees the plan as it is now (an upgrade a minute ago counts);
 * no projection to keep. When billing does not answer, null: the message still goes, as standard.
 */
@Injectable()
export class MembershipRepository {
  private readonly logger = new Logger(MembershipRepository.name);

  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async planOf(caller: CallerIdentity): Promise<PlanId | null> {
    try {
      return (await this.rpc.send(BILLING_SUBJECTS.membership, {}, caller, { timeoutMs: PLAN_TIMEOUT_MS })).plan;
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.name : typeof error, correlationId: caller.correlationId }, 'billing did not say the sender\'s plan; the message goes as standard');
      return null;
    }
  }
}
