/** What the one-process launcher (apps/medfolio) needs to embed the notifications service. Nothing else imports it. */
export { NotificationsAppModule, type NotificationsAppOptions } from './app.module';
export { NotificationsConfig } from './config';
export { NOTIFICATIONS_SERVICE } from './service';
