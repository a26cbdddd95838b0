/** What the one-process launcher (apps/medfolio) needs to embed the summary service. Nothing else imports it. */
export { SummaryAppModule } from './app.module';
export { SummaryConfig } from './config';
export { SUMMARY_SERVICE } from './service';
