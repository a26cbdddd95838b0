import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { GatewayConfig } from '../config';
import { ClientConfigDoc } from './openapi.models';

/**
 * GET /api/client-config/: the public settings the web app needs at run time (no secrets), so one
 * build of the web app works in every environment.
 */
@ApiTags('web')
@Controller('client-config')
export class ClientConfigController {
  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  @Get()
  @ApiOperation({ summary: 'Public settings for the web app (Google sign-in client id and authorization URL)' })
  @ApiOkResponse({ type: ClientConfigDoc })
  get(): ClientConfigDoc {
    return {
      google_client_id: this.config.googleWebClientId ?? null,
      google_authorization_url: this.config.googleAuthorizationUrl,
    };
  }
}
