export * from './service-kit.module';
