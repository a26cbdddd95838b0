import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  WALLET_SUBJECTS,
  type CallerIdentity,
  type PassKitLogDto,
  type PassKitPassDto,
  type PassKitPassReply,
  type PassKitRegisterReply,
  type PassKitRegistrationDto,
  type PassKitUpdatedDto,
  type PassKitUpdatedReply,
  type PassSettingsDto,
  type PassStatus,
  type PassUrlReply,
  type PassView,
  type WalletClientConfig,
} from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

const CLIENT_CONFIG_TTL_MS = 60_000;
const NOT_OFFERED: WalletClientConfig = { apple_wallet: false, google_wallet: false };

/** The gateway's request/reply calls to the wallet service. */
@Injectable()
export class WalletRepository {
  private readonly logger = new Logger('WalletRepository');
  private clientConfigCache?: { value: WalletClientConfig; at: number };

  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  passUrl(caller: CallerIdentity): Promise<PassUrlReply> {
    return this.rpc.send(WALLET_SUBJECTS.passUrl, {}, caller);
  }

  passStatus(caller: CallerIdentity): Promise<PassStatus> {
    return this.rpc.send(WALLET_SUBJECTS.passStatus, {}, caller);
  }

  passView(caller: CallerIdentity): Promise<PassView> {
    return this.rpc.send(WALLET_SUBJECTS.passView, {}, caller);
  }

  updateSettings(dto: PassSettingsDto, caller: CallerIdentity): Promise<PassView> {
    return this.rpc.send(WALLET_SUBJECTS.updateSettings, dto, caller);
  }

  googleSaveUrl(caller: CallerIdentity): Promise<PassUrlReply> {
    return this.rpc.send(WALLET_SUBJECTS.googleSaveUrl, {}, caller);
  }

  /** Which wallets are offered, asked at most once a minute; the wallet service not answering: none. */
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

  passkitRegister(dto: PassKitRegistrationDto, caller: CallerIdentity): Promise<PassKitRegisterReply> {
    return this.rpc.send(WALLET_SUBJECTS.passkitRegister, dto, caller);
  }

  passkitUnregister(dto: PassKitRegistrationDto, caller: CallerIdentity): Promise<Record<string, never>> {
    return this.rpc.send(WALLET_SUBJECTS.passkitUnregister, dto, caller);
  }

  passkitUpdated(dto: PassKitUpdatedDto, caller: CallerIdentity): Promise<PassKitUpdatedReply> {
    return this.rpc.send(WALLET_SUBJECTS.passkitUpdated, dto, caller);
  }

  passkitPass(dto: PassKitPassDto, caller: CallerIdentity): Promise<PassKitPassReply> {
    return this.rpc.send(WALLET_SUBJECTS.passkitPass, dto, caller);
  }

  passkitLog(dto: PassKitLogDto, caller: CallerIdentity): Promise<Record<string, never>> {
    return this.rpc.send(WALLET_SUBJECTS.passkitLog, dto, caller);
  }
}
