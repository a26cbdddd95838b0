import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime';
import { IdentityAppModule, identityDbOptions } from './app.module';
import { IdentityConfig } from './config';

void runServiceMain({
  name: 'identity',
  config: IdentityConfig,
  module: (options) => IdentityAppModule.register(options),
  database: identityDbOptions,
});
