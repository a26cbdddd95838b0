// The transactional outbox (TypeORM) is '@medfolio/messaging/outbox': the gateway loads no database code.
export * from './events';
export * from './rpc';
