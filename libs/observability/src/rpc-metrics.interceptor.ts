import { Inject, Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { catchError, tap, throwError, type Observable } from 'rxjs';
import { AppMetrics } from './metrics';

/** Times every request/reply handler by subject and outcome (rpc_handler_duration_seconds). */
@Injectable()
export class RpcMetricsInterceptor implements NestInterceptor {
  constructor(@Inject(AppMetrics) private readonly metrics: AppMetrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const subject = context.switchToRpc().getContext<{ getSubject?: () => string }>().getSubject?.() ?? 'unknown';
    const end = this.metrics.rpcDuration.startTimer({ subject });
    return next.handle().pipe(
      tap({ complete: () => end({ outcome: 'success' }) }),
      catchError((error: unknown) => {
        end({ outcome: 'error' });
        return throwError(() => error);
      }),
    );
  }
}
