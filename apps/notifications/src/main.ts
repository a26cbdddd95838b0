import 'reflect-metadata';
import { runServiceMain } from '@medfolio/runtime';
import { NotificationsAppModule, notificationsDbOptions } from './app.module';
import { NotificationsConfig } from './config';

void runServiceMain({
  name: 'notifications',
  config: NotificationsConfig,
  module: (options) => NotificationsAppModule.register(options),
  database: notificationsDbOptions,
});
