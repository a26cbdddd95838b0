import { Inject, Injectable } from '@nestjs/common';
import { summaryToIpsBundle } from '@medfolio/clinical';
import { DomainError, PROVIDER_MESSAGES, type CallerIdentity, type FhirBundle, type PatientIdDto, type SummaryItem } from '@medfolio/contracts';
import { GrantsRepository } from '../repositories/grants.repository';
import { SummaryConfig } from '../config';
import { ipsPatient } from './share-formats.service';
import { SharingService } from './sharing.service';
import { SummaryAudit } from './summary-audit';

/**
 * A verified provider reads a patient's summary while the patient's grant is active:
 * documents owns grants and answers whether one is (`documents.grant.check`, with the provider as
 * the caller). The provider sees what a share link shows (the confirmed version, hidden facts left
 * out); the read is audited against the patient under the grant, naming the provider. No grant: 404.
 */
@Injectable()
export class ProviderSummaryService {
  constructor(
    @Inject(SummaryConfig) private readonly config: SummaryConfig,
    @Inject(GrantsRepository) private readonly grants: GrantsRepository,
    @Inject(SharingService) private readonly sharing: SharingService,
    @Inject(SummaryAudit) private readonly audit: SummaryAudit,
  ) {}

  /** The same summary as a FHIR R4 IPS document Bundle (the mapper of the sharing formats). */
  async ips(caller: CallerIdentity, dto: PatientIdDto): Promise<FhirBundle> {
    const item = await this.get(caller, dto);
    const base = this.config.publicBaseUrl.replace(/\/$/, '');
    return summaryToIpsBundle(item, ipsPatient(item, dto.patient_id), { identifierSystem: `${base}/patients` }) as unknown as FhirBundle;
  }

  async get(caller: CallerIdentity, dto: PatientIdDto): Promise<SummaryItem> {
    let grant: { grant_id: string; display_name: string };
    try {
      grant = await this.grants.check(caller, dto.patient_id);
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'NOT_FOUND' || error.code === 'UNAUTHENTICATED')) {
        if (caller.userId) await this.audit.recordQuietly(caller, 'summary.read', 'denied', dto.patient_id, undefined, 'provider:none');
        throw new DomainError(error.code, error.code === 'NOT_FOUND' ? PROVIDER_MESSAGES.patientNotFound : error.message);
      }
      throw error;
    }
    await this.audit.record(caller, 'summary.read', 'success', dto.patient_id, undefined, `provider:${grant.grant_id}:${grant.display_name}`.slice(0, 200));
    // Named: the patient approved this provider by name, and a clinician's record of the
    // patient (and the IPS Patient a receiving system matches on) needs whose it is.
    const { shared: _shared, ...item } = await this.sharing.sharedItem({ ownerId: dto.patient_id, label: '', expiresAt: null, showPatientIdentity: true }, caller);
    return item;
  }
}
