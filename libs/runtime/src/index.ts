export * from './event-bus.factory';
export * from './service-kit.module';
export * from './service-main';
