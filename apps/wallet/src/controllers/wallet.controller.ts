import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { PassSettingsDto, WALLET_SUBJECTS, type CallerIdentity, type PassStatus, type PassUrlReply, type PassView, type WalletClientConfig } from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { WalletService } from '../services/wallet.service';

/** The patient's calls (request/reply): thin, each hands the caller and payload to the service. */
@RpcController()
export class WalletController {
  constructor(@Inject(WalletService) private readonly service: WalletService) {}

  @Handles(WALLET_SUBJECTS.passUrl)
  passUrl(@Caller() caller: CallerIdentity): Promise<PassUrlReply> {
    return this.service.passUrl(caller);
  }

  @Handles(WALLET_SUBJECTS.passStatus)
  status(@Caller() caller: CallerIdentity): Promise<PassStatus> {
    return this.service.status(caller);
  }

  @Handles(WALLET_SUBJECTS.passView)
  view(@Caller() caller: CallerIdentity): Promise<PassView> {
    return this.service.view(caller);
  }

  @Handles(WALLET_SUBJECTS.updateSettings)
  settings(@Payload() dto: PassSettingsDto, @Caller() caller: CallerIdentity): Promise<PassView> {
    return this.service.updateSettings(caller, dto);
  }

  @Handles(WALLET_SUBJECTS.googleSaveUrl)
  google(@Caller() caller: CallerIdentity): Promise<PassUrlReply> {
    return this.service.googleSaveUrl(caller);
  }

  @Handles(WALLET_SUBJECTS.clientConfig)
  clientConfig(): WalletClientConfig {
    return this.service.clientConfig();
  }
}
