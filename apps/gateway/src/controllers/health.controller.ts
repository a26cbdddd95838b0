import { Controller, Get, Inject, Res } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { GatewayHealthService } from '../services/gateway-health.service';

interface Reply {
  status(code: number): Reply;
  send(body: unknown): unknown;
}

/** GET /api/health/ (healthGet in the route table): 200 when every part is ready, 503 otherwise, with the report. */
@Controller('health')
@SkipThrottle()
export class HealthController {
  constructor(@Inject(GatewayHealthService) private readonly health: GatewayHealthService) {}

  @Get()
  async get(@Res() reply: Reply): Promise<void> {
    const report = await this.health.systemHealth();
    reply.status(report.status === 'ok' ? 200 : 503).send(report);
  }
}
