import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  SHARE_FORMAT_SUBJECTS,
  ShlFileDto,
  ShlManifestDto,
  SummaryPdfQueryDto,
  SummaryQueryDto,
  type CallerIdentity,
  type FhirBundle,
  type ShlFileReply,
  type ShlManifestReply,
  type SummaryPdfReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { ShareFormatsService } from '../services/share-formats.service';

/** Request/reply handlers behind /api/summary/fhir/, /api/summary/pdf/ and the SMART Health Link routes. */
@RpcController()
export class ShareFormatsController {
  constructor(@Inject(ShareFormatsService) private readonly formats: ShareFormatsService) {}

  @Handles(SHARE_FORMAT_SUBJECTS.fhir)
  fhir(@Payload() dto: SummaryQueryDto, @Caller() caller: CallerIdentity): Promise<FhirBundle> {
    return this.formats.fhir(caller, dto);
  }

  @Handles(SHARE_FORMAT_SUBJECTS.pdf)
  pdf(@Payload() dto: SummaryPdfQueryDto, @Caller() caller: CallerIdentity): Promise<SummaryPdfReply> {
    return this.formats.pdf(caller, dto);
  }

  @Handles(SHARE_FORMAT_SUBJECTS.shlManifest)
  manifest(@Payload() dto: ShlManifestDto, @Caller() caller: CallerIdentity): Promise<ShlManifestReply> {
    return this.formats.manifest(caller, dto);
  }

  @Handles(SHARE_FORMAT_SUBJECTS.shlFile)
  file(@Payload() dto: ShlFileDto, @Caller() caller: CallerIdentity): Promise<ShlFileReply> {
    return this.formats.file(caller, dto);
  }
}
