import { Controller, Get, Header, Inject, Module, type DynamicModule } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

/** Standard metrics every app exposes besides Node's defaults. */
export class AppMetrics {
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly rpcDuration: Histogram<'subject' | 'outcome'>;
  readonly eventsHandled: Counter<'subject' | 'outcome'>;

  constructor(readonly registry: Registry) {
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by method, route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    });
    this.rpcDuration = new Histogram({
      name: 'rpc_handler_duration_seconds',
      help: 'Request/reply handler duration by subject and outcome',
      labelNames: ['subject', 'outcome'],
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers: [registry],
    });
    this.eventsHandled = new Counter({
      name: 'events_handled_total',
      help: 'Domain events handled by subject and outcome',
      labelNames: ['subject', 'outcome'],
      registers: [registry],
    });
  }
}

@ApiExcludeController()
@Controller('metrics')
class MetricsController {
  constructor(@Inject(AppMetrics) private readonly metrics: AppMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

/** Prometheus metrics for one app: GET /metrics (outside /api), labelled with the app's name. */
@Module({})
export class MetricsModule {
  static forApp(app: string, options: { http: boolean }): DynamicModule {
    const registry = new Registry();
    registry.setDefaultLabels({ app });
    collectDefaultMetrics({ register: registry });
    return {
      module: MetricsModule,
      global: true,
      controllers: options.http ? [MetricsController] : [],
      providers: [{ provide: AppMetrics, useValue: new AppMetrics(registry) }],
      exports: [AppMetrics],
    };
  }
}
