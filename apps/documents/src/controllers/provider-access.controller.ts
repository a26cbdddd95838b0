import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DecideRequestDto,
  GrantIdDto,
  PatientDocumentDto,
  PatientIdDto,
  PROVIDERS_SUBJECTS,
  RequestAccessDto,
  type CallerIdentity,
  type DocumentListItem,
  type DownloadLinkReply,
  type GrantCheckReply,
  type PatientAccessReply,
  type ProviderPatientItem,
  type RequestAccessReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { ProviderAccessService } from '../services/provider-access.service';

/** Providers' access requests and grants: thin, the service decides. */
@RpcController()
export class ProviderAccessController {
  constructor(@Inject(ProviderAccessService) private readonly access: ProviderAccessService) {}

  @Handles(PROVIDERS_SUBJECTS.requestAccess)
  request(@Payload() dto: RequestAccessDto, @Caller() caller: CallerIdentity): Promise<RequestAccessReply> {
    return this.access.requestAccess(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.patientAccess)
  list(@Caller() caller: CallerIdentity): Promise<PatientAccessReply> {
    return this.access.patientAccess(caller);
  }

  @Handles(PROVIDERS_SUBJECTS.decide)
  decide(@Payload() dto: DecideRequestDto, @Caller() caller: CallerIdentity): Promise<PatientAccessReply> {
    return this.access.decide(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.revoke)
  revoke(@Payload() dto: GrantIdDto, @Caller() caller: CallerIdentity): Promise<PatientAccessReply> {
    return this.access.revoke(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.patients)
  patients(@Caller() caller: CallerIdentity): Promise<ProviderPatientItem[]> {
    return this.access.patients(caller);
  }

  @Handles(PROVIDERS_SUBJECTS.patientDocuments)
  documents(@Payload() dto: PatientIdDto, @Caller() caller: CallerIdentity): Promise<DocumentListItem[]> {
    return this.access.patientDocuments(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.patientDownloadLink)
  downloadLink(@Payload() dto: PatientDocumentDto, @Caller() caller: CallerIdentity): Promise<DownloadLinkReply> {
    return this.access.patientDownloadLink(caller, dto);
  }

  @Handles(PROVIDERS_SUBJECTS.checkGrant)
  check(@Payload() dto: PatientIdDto, @Caller() caller: CallerIdentity): Promise<GrantCheckReply> {
    return this.access.check(caller, dto);
  }
}
