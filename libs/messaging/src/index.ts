export * from './events/event-bus';
export * from './rpc';
