export * from './event-bus.factory';
export * from './gc-tuning';
export * from './http-errors';
export * from './http-exception.filter';
export * from './service-kit.module';
export * from './service-main';
export * from './storage.factory';
