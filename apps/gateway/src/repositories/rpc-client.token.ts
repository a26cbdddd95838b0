/** Nest token for the gateway's RpcClient (NATS or in-process). */
export const RPC_CLIENT = Symbol('RPC_CLIENT');
