import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptionsFor, runServiceMain } from '@medfolio/runtime/service-kit';
import type { AuditRecorder } from '@medfolio/audit-client';
import { auditDbOptions } from './app.module';
import { type AuditConfig } from './config';
import { AuditLogRepository } from './repositories/audit-log.repository';
import type { PeopleRepository } from './repositories/people.repository';
import { AuditLogService } from './services/audit-log.service';
import { AUDIT_SERVICE } from './service';

/**
 * `verify`: recomputes the whole hash chain and prints a JSON report.
 * Exit code 0 when intact, 3 when broken (the report names the first broken position).
 */
async function verify(config: AuditConfig): Promise<number> {
  const dataSource = await new DataSource(await dataSourceOptionsFor(auditDbOptions(config))).initialize();
  try {
    const service = new AuditLogService(new AuditLogRepository(dataSource), null as unknown as AuditRecorder, null as unknown as PeopleRepository);
    const report = await service.verify();
    process.stdout.write(`${JSON.stringify(report)}\n`);
    return report.intact ? 0 : 3;
  } finally {
    await dataSource.destroy();
  }
}

void runServiceMain({ ...AUDIT_SERVICE, commands: { verify } });
