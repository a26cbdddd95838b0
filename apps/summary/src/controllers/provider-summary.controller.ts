import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PatientIdDto, PROVIDERS_SUBJECTS, type CallerIdentity, type FhirBundle, type SummaryItem } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { ProviderSummaryService } from '../services/provider-summary.service';

/** GET /api/providers/patients/{id}/summary/. */
@RpcController()
export class ProviderSummaryController {
  constructor(@Inject(ProviderSummaryService) private readonly summaries: ProviderSummaryService) {}

  @Handles(PROVIDERS_SUBJECTS.patientSummary)
  get(@Payload() dto: PatientIdDto, @Caller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.get(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.patientIps)
  ips(@Payload() dto: PatientIdDto, @Caller() caller: CallerIdentity): Promise<FhirBundle> {
    return this.summaries.ips(caller, dto);
  }
}
