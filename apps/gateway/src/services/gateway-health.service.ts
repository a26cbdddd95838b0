import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_NAMES, type ServiceName } from '@medfolio/contracts';
import { HealthRegistry, type ReadinessReport } from '@medfolio/observability';
import { GatewayConfig } from '../config';
import { ServiceHealthRepository } from '../repositories/service-health.repository';

export interface SystemHealth {
  status: 'ok' | 'unavailable';
  gateway: ReadinessReport;
  services: Record<string, ReadinessReport>;
}

/** GET /api/health: the gateway's readiness and that of every service behind it. */
@Injectable()
export class GatewayHealthService {
  private readonly services: ServiceName[];

  constructor(
    @Inject(GatewayConfig) config: GatewayConfig,
    @Inject(HealthRegistry) private readonly registry: HealthRegistry,
    @Inject(ServiceHealthRepository) private readonly repository: ServiceHealthRepository,
  ) {
    this.services = config.services.split(',').filter((s): s is ServiceName => (SERVICE_NAMES as readonly string[]).includes(s));
    this.registry.register('messaging', () => this.repository.messagingHealthy());
  }

  async systemHealth(): Promise<SystemHealth> {
    const [gateway, ...reports] = await Promise.all([
      this.registry.readiness(1500),
      ...this.services.map((s) => this.repository.readiness(s)),
    ]);
    const services = Object.fromEntries(this.services.map((s, i) => [s, reports[i]!]));
    const status = gateway!.status === 'ok' && reports.every((r) => r.status === 'ok') ? 'ok' : 'unavailable';
    return { status, gateway: gateway!, services };
  }
}
