/** What the one-process launcher (apps/medfolio) needs to embed the audit service. Nothing else imports it. */
export { AuditAppModule } from './app.module';
export { AuditConfig } from './config';
export { AUDIT_SERVICE } from './service';
