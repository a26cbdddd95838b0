import { Controller, Get, Inject } from '@nestjs/common';
import type { CallerIdentity, ClientConfigReply } from '@medfolio/contracts';
import { GatewayConfig } from '../config';
import { WalletRepository } from '../repositories/wallet.repository';
import { CurrentCaller } from '../services/caller.decorator';

/**
 * GET /api/client-config/ (clientConfigGet in the route table): the public settings the web app
 * needs at run time (no secrets), so one build of the web app works in every environment. Partly
 * the gateway's own configuration, so it is not a plain forward.
 */
@Controller('client-config')
export class ClientConfigController {
  constructor(
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    @Inject(WalletRepository) private readonly wallet: WalletRepository,
  ) {}

  @Get()
  async get(@CurrentCaller() caller: CallerIdentity): Promise<ClientConfigReply> {
    const wallets = await this.wallet.clientConfig(caller);
    return {
      google_client_id: this.config.googleWebClientId ?? null,
      google_authorization_url: this.config.googleAuthorizationUrl,
      google_wallet: wallets.google_wallet,
      stripe_publishable_key: this.config.stripePublishableKey ?? null,
    };
  }
}
