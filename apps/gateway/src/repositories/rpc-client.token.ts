/** The gateway's RpcClient (NATS or in-process) is provided under the shared token. */
export { RPC_CLIENT } from '@medfolio/messaging';
