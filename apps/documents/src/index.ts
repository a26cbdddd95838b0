/** What the one-process launcher (apps/medfolio) needs to embed the documents service. Nothing else imports it. */
export { DocumentsAppModule } from './app.module';
export { DocumentsConfig } from './config';
export { DOCUMENTS_SERVICE } from './service';
