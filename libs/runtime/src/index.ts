// Database-free: the gateway imports this. Services' plumbing with a database is '@medfolio/runtime/service-kit'.
export * from './event-bus.factory';
export * from './gc-tuning';
export * from './http-errors';
export * from './http-exception.filter';
export * from './load-config-or-exit';
export * from './service-http-app';
export * from './storage.factory';
export * from './signed-files';
