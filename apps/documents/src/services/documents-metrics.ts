import { Inject, Injectable } from '@nestjs/common';
import { Counter } from 'prom-client';
import { AppMetrics } from '@medfolio/observability';

/** The documents service's own Prometheus metrics, on the app's registry (GET /metrics). */
@Injectable()
export class DocumentsMetrics {
  /** Alert on any increase: a stored document no longer matches its SHA-256 (or is gone). */
  readonly integrityFailures: Counter<'reason'>;
  readonly uploads: Counter<'outcome'>;

  constructor(@Inject(AppMetrics) metrics: AppMetrics) {
    this.integrityFailures = new Counter({
      name: 'documents_integrity_failures_total',
      help: 'Documents whose stored bytes failed the SHA-256 check before a download, by reason',
      labelNames: ['reason'],
      registers: [metrics.registry],
    });
    this.uploads = new Counter({
      name: 'documents_uploaded_files_total',
      help: 'Uploaded files by outcome (stored, refused)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  }
}
