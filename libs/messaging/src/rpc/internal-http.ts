import { timingSafeEqual } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { callerFromHeaders } from './headers';

/** Header names of the gateway → service internal HTTP calls (file streams never go over NATS). */
export const INTERNAL_TOKEN_HEADER = 'x-internal-token';

interface InternalRequest {
  headers: Record<string, string | string[] | undefined>;
}

function header(req: InternalRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * `@InternalCaller(token)` on a service's internal HTTP route: checks the shared internal token (the
 * request must come from the gateway) and returns the caller identity the gateway put in the headers.
 */
export function internalCallerOf(req: InternalRequest, expectedToken: string | undefined): CallerIdentity {
  const given = header(req, INTERNAL_TOKEN_HEADER) ?? '';
  if (!expectedToken) throw new DomainError('UNAVAILABLE', 'This service does not accept internal requests (INTERNAL_API_TOKEN is not set).');
  const a = Buffer.from(given);
  const b = Buffer.from(expectedToken);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw new DomainError('FORBIDDEN', 'Not an internal caller.');
  return callerFromHeaders((name) => header(req, name));
}

/** The raw request, for routes that stream the body themselves. */
export const RawRequest = createParamDecorator((_: unknown, ctx: ExecutionContext) => ctx.switchToHttp().getRequest<unknown>());
