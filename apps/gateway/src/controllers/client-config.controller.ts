import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { CallerIdentity } from '@medfolio/contracts';
import { GatewayConfig } from '../config';
import { WalletRepository } from '../repositories/wallet.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ClientConfigDoc } from './openapi.models';

/**
 * GET /api/client-config/: the public settings the web app needs at run time (no secrets), so one
 * build of the web app works in every environment.
 */
@ApiTags('web')
@Controller('client-config')
export class ClientConfigController {
  constructor(
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
    @Inject(WalletRepository) private readonly wallet: WalletRepository,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Public settings for the web app (Google sign-in client id and authorization URL, the wallets offered, the Stripe.js publishable key)' })
  @ApiOkResponse({ type: ClientConfigDoc })
  async get(@CurrentCaller() caller: CallerIdentity): Promise<ClientConfigDoc> {
    const wallets = await this.wallet.clientConfig(caller);
    return {
      google_client_id: this.config.googleWebClientId ?? null,
      google_authorization_url: this.config.googleAuthorizationUrl,
      google_wallet: wallets.google_wallet,
      stripe_publishable_key: this.config.stripePublishableKey ?? null,
    };
  }
}
