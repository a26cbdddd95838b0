export * from './audit-client.module';
export * from './audit-recorder';
