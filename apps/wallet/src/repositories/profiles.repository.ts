import { Inject, Injectable } from '@nestjs/common';
import { IDENTITY_SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';

/** identity's profile, for the holder's first name (asked only when the patient shows it on the pass). */
@Injectable()
export class ProfilesRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async firstName(owner: CallerIdentity): Promise<string | null> {
    const profile = await this.rpc.send(IDENTITY_SUBJECTS.getProfile, {}, owner);
    const name = profile.first_name.trim().split(/\s+/)[0] ?? '';
    return name ? name.slice(0, 40) : null;
  }
}
