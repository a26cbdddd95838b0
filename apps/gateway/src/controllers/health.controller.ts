import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { GatewayHealthService } from '../services/gateway-health.service';

interface Reply {
  status(code: number): Reply;
  send(body: unknown): unknown;
}

@ApiTags('health')
@Controller('health')
@SkipThrottle()
export class HealthController {
  constructor(@Inject(GatewayHealthService) private readonly health: GatewayHealthService) {}

  @Get()
  @ApiOperation({ summary: 'Readiness of the gateway and of every service behind it' })
  @ApiOkResponse({ description: 'Everything is ready' })
  @ApiServiceUnavailableResponse({ description: 'At least one part is not ready; the body says which' })
  async get(@Res() reply: Reply): Promise<void> {
    const report = await this.health.systemHealth();
    reply.status(report.status === 'ok' ? 200 : 503).send(report);
  }
}
