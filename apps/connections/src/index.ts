/** What the one-process launcher (apps/medfolio) needs to embed the connections service. Nothing else imports it. */
export { ConnectionsAppModule } from './app.module';
export { ConnectionsConfig } from './config';
export { CONNECTIONS_SERVICE } from './service';
