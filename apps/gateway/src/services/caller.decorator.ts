import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { CallerIdentity } from '@medfolio/contracts';
import type { AuthenticatedUser } from './jwt.strategy';

export interface GatewayRequest {
  /** Fastify's own request id: always '' (bootstrap.ts leaves the id to pino-http). */
  id?: string;
  /** The Node request, where pino-http keeps the correlation id it also answers in x-correlation-id. */
  raw?: { id?: unknown };
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
  user?: AuthenticatedUser;
  /** The caller as another person's record sees it, when the request names one (on-behalf.ts). */
  onBehalf?: CallerIdentity;
}

/** The verified user (if any), correlation id, client address and user agent of a request. */
export function callerOf(req: GatewayRequest): CallerIdentity {
  if (req.onBehalf) return req.onBehalf;
  const userAgent = req.headers['user-agent'];
  const caller: CallerIdentity = { roles: req.user?.roles ?? [], correlationId: String(req.raw?.id || req.id || 'none') };
  if (req.user) caller.userId = req.user.userId;
  if (req.user?.sessionId) caller.sessionId = req.user.sessionId;
  if (req.ip) caller.ip = req.ip;
  if (typeof userAgent === 'string') caller.userAgent = userAgent.slice(0, 500);
  return caller;
}

/** `@CurrentCaller()`: `callerOf` the request, for the hand-written controllers. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): CallerIdentity => callerOf(ctx.switchToHttp().getRequest<GatewayRequest>()));
