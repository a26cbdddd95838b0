import { Inject, Injectable } from '@nestjs/common';
import { PROVIDERS_SUBJECTS, type CallerIdentity, type RpcReply, type RpcRequest } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { DOWNLOAD_LINK_TIMEOUT_MS } from './documents.repository';
import { RPC_CLIENT } from './rpc-client.token';

/** Service-to-service subjects have no route. */
type ProviderSubject = Exclude<keyof typeof PROVIDERS_SUBJECTS, 'userContact' | 'checkGrant'>;

/** The gateway's calls for the provider routes (identity: licences; documents: access). */
@Injectable()
export class ProvidersRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  call<K extends ProviderSubject>(subject: K, payload: RpcRequest<(typeof PROVIDERS_SUBJECTS)[K]>, caller: CallerIdentity): Promise<RpcReply<(typeof PROVIDERS_SUBJECTS)[K]>> {
    // A download link re-reads the whole stored file first (its SHA-256): it may take longer.
    const options = subject === 'patientDownloadLink' ? { timeoutMs: DOWNLOAD_LINK_TIMEOUT_MS } : {};
    return this.rpc.send(PROVIDERS_SUBJECTS[subject], payload, caller, options);
  }
}
