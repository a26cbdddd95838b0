import { Controller, Get, Inject, Injectable, Module, Res, type DynamicModule } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

export type HealthCheck = () => Promise<boolean>;

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'up' | 'down'>;
}

/** Named readiness checks (database, messaging, ...) registered by the parts of an app. */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, HealthCheck>();

  register(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  async readiness(timeoutMs = 2000): Promise<ReadinessReport> {
    const checks: Record<string, 'up' | 'down'> = {};
    await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        checks[name] = (await withTimeout(check(), timeoutMs).catch(() => false)) ? 'up' : 'down';
      }),
    );
    const status = Object.values(checks).every((c) => c === 'up') ? 'ok' : 'unavailable';
    return { status, checks };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('health check timed out')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

interface StatusReply {
  status(code: number): StatusReply;
  send(body: unknown): unknown;
}

/** GET /health/live: the process answers. GET /health/ready: every registered check passes (else 503). */
@ApiExcludeController()
@Controller('health')
class HealthController {
  constructor(@Inject(HealthRegistry) private readonly registry: HealthRegistry) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() reply: StatusReply): Promise<void> {
    const report = await this.registry.readiness();
    reply.status(report.status === 'ok' ? 200 : 503).send(report);
  }
}

@Module({})
export class HealthModule {
  static forApp(options: { http: boolean }): DynamicModule {
    return {
      module: HealthModule,
      global: true,
      controllers: options.http ? [HealthController] : [],
      providers: [HealthRegistry],
      exports: [HealthRegistry],
    };
  }
}
