import { ClientNats, type ClientProxy, type CustomStrategy } from '@nestjs/microservices';
import { DrainingServerNats } from './draining-server-nats';
import { InProcessClient, InProcessServer } from './in-process-transport';
import { NATS_RECONNECT } from '../nats-reconnect';
import { RpcClient } from './rpc-client';

/** Nest token for the process's RpcClient (a service calling another, or the gateway). */
export const RPC_CLIENT = Symbol('RPC_CLIENT');

export interface RpcSettings {
  /** Unset: the in-process transport (embedded mode). */
  natsUrl?: string;
  timeoutMs: number;
}

/**
 * The microservice strategy a service listens with. On NATS every instance of a service joins the
 * queue group named after it, so each request is answered by exactly one replica. Its `close()`
 * drains (see {@link DrainingServerNats}): requests taken get their replies, new ones go elsewhere.
 */
export function rpcServerStrategy(service: string, settings: RpcSettings): CustomStrategy {
  if (!settings.natsUrl) return { strategy: new InProcessServer() };
  return {
    strategy: new DrainingServerNats({ servers: settings.natsUrl.split(','), queue: service, name: `${service}-rpc`, ...NATS_RECONNECT }),
  };
}

 
export function createRpcClient(name: string, settings: RpcSettings): RpcClient {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type, @typescript-eslint/no-explicit-any
  const client: ClientProxy<Record<never, Function>, any> = settings.natsUrl
    ? new ClientNats({ servers: settings.natsUrl.split(','), name: `${name}-rpc-client`, ...NATS_RECONNECT })
    : new InProcessClient();
  return new RpcClient(client, settings.natsUrl ? 'nats' : 'in-process', settings.timeoutMs);
}
