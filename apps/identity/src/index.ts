/** What the one-process launcher (apps/medfolio) needs to embed the identity service. Nothing else imports it. */
export { IdentityAppModule } from './app.module';
export { IdentityConfig } from './config';
export { IDENTITY_SERVICE } from './service';
