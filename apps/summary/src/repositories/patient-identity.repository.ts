import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_SERVICE_SUBJECTS, type CallerIdentity, type PatientIdentity } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/**
 * Whose summary it is: identity answers a patient's current name and date of birth over
 * request/reply (service to service, no gateway route), asked at the time of each read so a renamed
 * account shows its current name and no copy of either is kept here.
 */
@Injectable()
export class PatientIdentityRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  of(patientId: string, system: CallerIdentity): Promise<PatientIdentity> {
    return this.rpc.send(IDENTITY_SERVICE_SUBJECTS.patientIdentity, { user_id: patientId }, system);
  }
}
