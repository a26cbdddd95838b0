import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_SUBJECTS, type CallerIdentity, type RpcReply, type RpcRequest } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

type IdentitySubject = Exclude<keyof typeof IDENTITY_SUBJECTS, 'registered' | 'verified' | 'sessionsRevoked'>;

/** The gateway's I/O towards identity: one request/reply call per route. */
@Injectable()
export class IdentityRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** Typed by the contract map: the payload and reply of `identity.<subject>`. */
  call<K extends IdentitySubject>(
    subject: K,
    payload: RpcRequest<(typeof IDENTITY_SUBJECTS)[K]>,
    caller: CallerIdentity,
  ): Promise<RpcReply<(typeof IDENTITY_SUBJECTS)[K]>> {
    return this.rpc.send(IDENTITY_SUBJECTS[subject], payload, caller);
  }
}
