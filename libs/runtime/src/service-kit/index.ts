/**
 * The service kit: what every service (never the gateway) runs on, with its database (TypeORM,
 * PGlite) and outbox. A separate entry point so that the gateway, which imports '@medfolio/runtime',
 * loads none of it (apps/gateway/src/no-database.spec.ts checks).
 */
export * from './service-kit.module';
export * from './service-main';
export * from './housekeeping';
