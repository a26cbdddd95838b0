export * from './events';
export * from './outbox';
export * from './rpc';
