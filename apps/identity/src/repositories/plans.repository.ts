import { Inject, Injectable } from '@nestjs/common';
import { BILLING_SUBJECTS, type CallerIdentity, type PlanId } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/** The caller's plan, asked of billing (billing.membership.get, as the signed-in caller) when it matters. */
@Injectable()
export class PlansRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async planOf(caller: CallerIdentity): Promise<PlanId> {
    const membership = await this.rpc.send(BILLING_SUBJECTS.membership, {}, caller);
    return membership.plan;
  }
}
