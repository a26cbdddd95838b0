import { BadRequestException, Catch, Logger, type ArgumentsHost, type RpcExceptionFilter } from '@nestjs/common';
import { DomainError } from '@medfolio/contracts';
import { throwError, type Observable } from 'rxjs';
import { isDependencyUnavailable, unavailableError } from './dependency-errors';

/**
 * Service side of the error contract: whatever a handler throws leaves as an ErrorPayload
 * `{ code, message, details? }`. Validation failures become VALIDATION_FAILED with the first
 * message; a dependency that cannot be reached (PostgreSQL restarting, NATS away) becomes UNAVAILABLE;
 * anything else unexpected becomes INTERNAL (logged here without the payload).
 */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  private readonly logger = new Logger('RpcErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): Observable<never> {
    if (exception instanceof DomainError) return throwError(() => exception.toPayload());
    if (exception instanceof BadRequestException) {
      const body = exception.getResponse() as { message?: string | string[] };
      const messages = Array.isArray(body.message) ? body.message : [body.message ?? 'Invalid request'];
      return throwError(() => ({ code: 'VALIDATION_FAILED', message: messages[0], details: { request: messages } }));
    }
    const subject = host.switchToRpc().getContext<{ getSubject?: () => string }>().getSubject?.() ?? 'unknown';
    const error = exception instanceof Error ? exception : new Error(String(exception));
    if (isDependencyUnavailable(exception)) {
      this.logger.warn({ subject, err: { name: error.name, message: error.message } }, 'a dependency is unavailable');
      return throwError(() => unavailableError().toPayload());
    }
    this.logger.error({ subject, err: { name: error.name, message: error.message, stack: error.stack } }, 'handler failed');
    return throwError(() => ({ code: 'INTERNAL', message: 'Internal error' }));
  }
}
