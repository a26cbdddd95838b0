import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { DomainError, type ErrorCode } from '@medfolio/contracts';
import { isDependencyUnavailable, UNAVAILABLE_MESSAGE } from '@medfolio/messaging';
import { errorCodeForStatus, httpStatusFor } from './http-errors';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(body: unknown): unknown;
}

const DEFAULT_MESSAGES: Partial<Record<ErrorCode, string>> = {
  UNAUTHENTICATED: 'Authentication credentials were not provided or are invalid.',
  NOT_FOUND: 'Not found.',
  RATE_LIMITED: 'Too many requests. Please wait a moment and try again.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  INTERNAL: 'Something went wrong on our side. Please try again later.',
};

/**
 * Every error leaves the gateway as `{ message, code }` with the matching status, and never with a
 * stack trace or internal detail. Unexpected errors are logged (without request data) and answer 500.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<Reply>();
    const { status, code, message } = this.describe(exception);
    // Rate limits say when to come back (seconds), from the service's error details.
    const retryAfter = exception instanceof DomainError ? exception.details?.['retry_after']?.[0] : undefined;
    if (retryAfter && /^\d+$/.test(retryAfter)) reply.header('retry-after', retryAfter);
    reply.status(status).header('content-type', 'application/json; charset=utf-8').send({ message, code });
  }

  private describe(exception: unknown): { status: number; code: ErrorCode; message: string } {
    if (exception instanceof DomainError) {
      return { status: httpStatusFor(exception.code), code: exception.code, message: exception.message };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code = errorCodeForStatus(status);
      // Nest's bare defaults ("Unauthorized", "Not Found", ...) give way to a sentence a person can act on.
      const given = messageOf(exception.getResponse());
      const generic = !given || given === exception.name.replace(/Exception$/, '').replace(/([a-z])([A-Z])/g, '$1 $2') || given === 'Unauthorized';
      return { status, code, message: (generic ? DEFAULT_MESSAGES[code] : given) ?? given ?? exception.message };
    }
    // Fastify's own errors (body too large, malformed JSON, ...) carry a 4xx statusCode.
    const fastifyStatus = (exception as { statusCode?: unknown })?.statusCode;
    if (typeof fastifyStatus === 'number' && fastifyStatus >= 400 && fastifyStatus < 500) {
      const code = errorCodeForStatus(fastifyStatus);
      const fastifyCode = (exception as { code?: string }).code ?? '';
      const message = fastifyCode.includes('JSON') || fastifyCode === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' ? 'The request body is not valid JSON.' : DEFAULT_MESSAGES[code] ?? 'Invalid request.';
      return { status: fastifyStatus, code, message };
    }
    const error = exception instanceof Error ? exception : new Error(String(exception));
    if (isDependencyUnavailable(exception)) {
      this.logger.warn({ err: { name: error.name, message: error.message } }, 'a dependency is unavailable');
      return { status: 503, code: 'UNAVAILABLE', message: UNAVAILABLE_MESSAGE };
    }
    this.logger.error({ err: { name: error.name, message: error.message, stack: error.stack } }, 'unhandled error');
    return { status: 500, code: 'INTERNAL', message: DEFAULT_MESSAGES.INTERNAL! };
  }
}

function messageOf(response: string | object): string | undefined {
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return typeof message[0] === 'string' ? message[0] : undefined;
  return typeof message === 'string' ? message : undefined;
}
