import { Inject, Injectable, Logger } from '@nestjs/common';
import { FAMILY_SERVICE_SUBJECTS, type CallerIdentity, type FamilyNamesReply } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

export type PersonName = FamilyNamesReply['people'][number];

/**
 * The names of the people who acted on a record by proxy (caregivers, guardians), asked of
 * identity (identity.family.names) when a history page has such entries: the audit log keeps ids
 * only, and a name is shown as the person spells it now.
 */
@Injectable()
export class PeopleRepository {
  private readonly logger = new Logger(PeopleRepository.name);

  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** By user id; empty when identity cannot answer (the history then says "a caregiver"). */
  async namesOn(caller: CallerIdentity, patientId: string, userIds: string[]): Promise<Map<string, PersonName>> {
    if (userIds.length === 0) return new Map();
    try {
      const reply = await this.rpc.send(FAMILY_SERVICE_SUBJECTS.names, { patient_id: patientId, user_ids: userIds }, caller, { timeoutMs: 3000 });
      return new Map(reply.people.map((p) => [p.user_id, p]));
    } catch (error) {
      this.logger.warn({ err: String(error) }, 'names of proxies not available');
      return new Map();
    }
  }
}
