import { Module, type DynamicModule } from '@nestjs/common';
import { AUDIT_SERVICE_NAME, AuditRecorder } from './audit-recorder';

/** Gives a service an AuditRecorder (needs EVENT_BUS, which ServiceKitModule provides). */
@Module({})
export class AuditClientModule {
  static forService(service: string): DynamicModule {
    return {
      module: AuditClientModule,
      providers: [{ provide: AUDIT_SERVICE_NAME, useValue: service }, AuditRecorder],
      exports: [AuditRecorder],
    };
  }
}
