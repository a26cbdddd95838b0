import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AuditRecorder } from '@medfolio/audit-client';
import { STREAMS } from '@medfolio/contracts';
import { createEventBus } from '@medfolio/runtime';
import { dataSourceOptionsFor, runServiceMain } from '@medfolio/runtime/service-kit';
import { identityDbOptions } from './app.module';
import type { IdentityConfig } from './config';
import { runLicenseReview } from './license-review-command';
import { ProviderLicensesRepository } from './repositories/provider-licenses.repository';
import { SessionsRepository } from './repositories/sessions.repository';
import { UsersRepository } from './repositories/users.repository';
import { LicenseReviewService } from './services/license-review.service';
import { IDENTITY_SERVICE } from './service';

/**
 * `license-review ...`: the operators' review queue of licence claims and disputes (security issue
 * 25.2; LICENSE_REVIEW_USAGE). It needs the service's database and the bus its audit records go to:
 * DATABASE_URL and NATS_URL as the running service has them, or, for `npm start` without them, the
 * same DATA_DIR with the product stopped (the embedded database is one process's; the audit records
 * wait in DATA_DIR/events for the audit service). A rejection's ended sign-ins reach the gateways
 * through identity's outbox, which the running service relays.
 */
async function licenseReview(config: IdentityConfig): Promise<number> {
  const args = process.argv.slice(process.argv.indexOf('license-review') + 1);
  const dataSource = await new DataSource(await dataSourceOptionsFor(identityDbOptions(config))).initialize();
  const bus = await createEventBus(config, 'identity-license-review');
  try {
    await bus.ensureStream({ name: STREAMS.AUDIT.name, subjects: [...STREAMS.AUDIT.subjects], replicas: config.natsStreamReplicas });
    const reviews = new LicenseReviewService(new ProviderLicensesRepository(dataSource), new UsersRepository(dataSource), new AuditRecorder(bus, 'identity'), new SessionsRepository(dataSource));
    return await runLicenseReview(reviews, args, process.env, { out: (line) => process.stdout.write(`${line}\n`), error: (line) => process.stderr.write(`${line}\n`) });
  } finally {
    await bus.close();
    await dataSource.destroy();
  }
}

void runServiceMain({ ...IDENTITY_SERVICE, commands: { 'license-review': licenseReview } });
