import type { ServiceDefinition } from '@medfolio/runtime/service-kit';
import { NotificationsAppModule, notificationsDbOptions } from './app.module';
import { NotificationsConfig } from './config';

/** The notifications service as its own process (main.ts) and the one-process launcher (apps/medfolio) run it. */
export const NOTIFICATIONS_SERVICE: ServiceDefinition<NotificationsConfig> = {
  name: 'notifications',
  config: NotificationsConfig,
  module: (options) => NotificationsAppModule.register(options),
  database: notificationsDbOptions,
};
