import { Inject, Injectable } from '@nestjs/common';
import {
  SHARE_FORMAT_SUBJECTS,
  type CallerIdentity,
  type FhirBundle,
  type ShlFileDto,
  type ShlFileReply,
  type ShlManifestDto,
  type ShlManifestReply,
  type SummaryPdfQueryDto,
  type SummaryPdfReply,
  type SummaryQueryDto,
} from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/** The gateway's calls for the summary's formats (FHIR IPS, PDF, SMART Health Links), served by the summary service. */
@Injectable()
export class ShareFormatsRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  fhir(query: SummaryQueryDto, caller: CallerIdentity): Promise<FhirBundle> {
    return this.rpc.send(SHARE_FORMAT_SUBJECTS.fhir, query, caller);
  }

  pdf(query: SummaryPdfQueryDto, caller: CallerIdentity): Promise<SummaryPdfReply> {
    return this.rpc.send(SHARE_FORMAT_SUBJECTS.pdf, query, caller);
  }

  manifest(dto: ShlManifestDto, caller: CallerIdentity): Promise<ShlManifestReply> {
    return this.rpc.send(SHARE_FORMAT_SUBJECTS.shlManifest, dto, caller);
  }

  file(dto: ShlFileDto, caller: CallerIdentity): Promise<ShlFileReply> {
    return this.rpc.send(SHARE_FORMAT_SUBJECTS.shlFile, dto, caller);
  }
}
