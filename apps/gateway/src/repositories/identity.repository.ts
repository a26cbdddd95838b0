import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

type IdentitySubject = Exclude<keyof typeof IDENTITY_SUBJECTS, 'registered' | 'verified'>;

/** The gateway's I/O towards identity: one request/reply call per route. */
@Injectable()
export class IdentityRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  call<T>(subject: IdentitySubject, payload: unknown, caller: CallerIdentity): Promise<T> {
    return this.rpc.send<T>(IDENTITY_SUBJECTS[subject], payload, caller);
  }
}
