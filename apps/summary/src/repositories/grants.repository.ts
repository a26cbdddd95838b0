import { Inject, Injectable } from '@nestjs/common';
import { PROVIDERS_SUBJECTS, type CallerIdentity, type GrantCheckReply } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/** Asks documents (which owns providers' grants) whether the caller holds an active one. */
@Injectable()
export class GrantsRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  check(caller: CallerIdentity, patientId: string): Promise<GrantCheckReply> {
    return this.rpc.send(PROVIDERS_SUBJECTS.checkGrant, { patient_id: patientId }, caller);
  }
}
