import { Inject, Injectable } from '@nestjs/common';
import type { CallerIdentity, RpcReply, RpcRequest, RpcSubject } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/**
 * The hand-written routes' calls to the services (the table's forwarded routes call the RPC client
 * themselves: apps/gateway/src/routes). Typed by the contracts' map: a wrong payload or reply for a
 * subject is a compile error.
 */
@Injectable()
export class ServicesRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  call<S extends RpcSubject>(subject: S, payload: RpcRequest<S>, caller: CallerIdentity, options: { timeoutMs?: number } = {}): Promise<RpcReply<S>> {
    return this.rpc.send(subject, payload, caller, options);
  }
}
