import { Inject, Injectable, Logger } from '@nestjs/common';
import { WALLET_SUBJECTS, type CallerIdentity, type WalletClientConfig } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

const CLIENT_CONFIG_TTL_MS = 60_000;
const NOT_OFFERED: WalletClientConfig = { apple_wallet: false, google_wallet: false };

/** Which wallets the wallet service offers, for GET /api/client-config/. */
@Injectable()
export class WalletRepository {
  private readonly logger = new Logger('WalletRepository');
  private clientConfigCache?: { value: WalletClientConfig; at: number };

  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  /** Asked at most once a minute; the wallet service not answering: none. */
  async clientConfig(caller: CallerIdentity): Promise<WalletClientConfig> {
    const cached = this.clientConfigCache;
    if (cached && Date.now() - cached.at < CLIENT_CONFIG_TTL_MS) return cached.value;
    try {
      const value = await this.rpc.send(WALLET_SUBJECTS.clientConfig, {}, caller);
      this.clientConfigCache = { value, at: Date.now() };
      return value;
    } catch (error) {
      this.logger.warn(`The wallet service did not say which wallets it offers: ${(error as Error).message}`);
      return NOT_OFFERED;
    }
  }
}
