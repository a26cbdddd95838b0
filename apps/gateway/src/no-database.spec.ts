/**
 * The gateway holds no database: nothing it loads may pull in TypeORM, the Postgres driver or
 * PGlite (they belong to '@medfolio/runtime/service-kit' and '@medfolio/messaging/outbox', which only
 * services import). Each of those packages is replaced by a module that throws when loaded, so an
 * import anywhere in the gateway's graph fails this file, naming the package.
 */
const refuse = (name: string) => () => {
  throw new Error(`the gateway loaded ${name}`);
};
jest.mock('typeorm', () => refuse('typeorm')());
jest.mock('@nestjs/typeorm', () => refuse('@nestjs/typeorm')());
jest.mock('pg', () => refuse('pg')());
jest.mock('@electric-sql/pglite', () => refuse('@electric-sql/pglite')());
jest.mock('@electric-sql/pglite-socket', () => refuse('@electric-sql/pglite-socket')());

import { envBindings } from '@medfolio/config';
import { GatewayModule } from './app.module';
import { GatewayConfig } from './config';
import { createGatewayApp } from './index';

describe('the gateway', () => {
  it('loads no database package (TypeORM, pg, PGlite): its module and entry point load with them refused', () => {
    expect(typeof GatewayModule).toBe('function');
    expect(typeof createGatewayApp).toBe('function');
  });

  it('carries no database setting: its config is composed without the database concern', () => {
    const variables = envBindings(GatewayConfig).map((binding) => binding.variable);
    expect(variables).toEqual(expect.arrayContaining(['NATS_URL', 'S3_BUCKET', 'JWT_ISSUER', 'INTERNAL_API_TOKEN', 'PORT']));
    expect(variables.filter((variable) => variable.startsWith('DATABASE_'))).toEqual([]);
  });
});
