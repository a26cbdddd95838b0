import type { ArgumentsHost, ValidationPipe } from '@nestjs/common';
import { UnauthorizedException } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_ROUTES, DomainError, PATIENT_QUERY, type CallerIdentity, type RateLimit, type RouteDefinition, type RpcSubject } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import type { HttpErrorFilter } from '@medfolio/runtime';
import type { RevokedSessionsRepository } from '../repositories/revoked-sessions.repository';
import { callerOf } from '../services/caller.decorator';
import { actOnBehalf, namedPatient } from '../services/on-behalf';
import type { AuthenticatedUser, JwtStrategy } from '../services/jwt.strategy';

/**
 * The gateway's routes that the table (libs/contracts/src/routes) says are forwarded to a service:
 * registered straight on Fastify rather than as Nest controllers, because Nest's per-request
 * pipeline (guards, interceptors, pipes, filters resolved per call) cost more than the gateway's
 * own work on its busiest reads. The same pieces still run, in the same order, each the very
 * object Nest would use: the passport-jwt strategy (signature, issuer, audience, expiry,
 * revocation), the rate-limit store, the validation pipe (the contracts' class-validator DTOs,
 * the same messages), the error filter (`{ message, code }`), and the RPC client. Routes with a
 * hand-written controller (multipart uploads, PassKit, the webhook, the PDF and SHL reads) are
 * left to Nest.
 */

export interface TableRouteDeps {
  rpc: RpcClient;
  jwt: JwtStrategy;
  throttler: ThrottlerStorage;
  validation: ValidationPipe;
  errors: HttpErrorFilter;
  revoked: RevokedSessionsRepository;
  limits: { perClientPerMinute: number; perProviderPerMinute: number };
}

/** Any 8-4-4-4-12 hex id, as the services' own checks take it (class-validator's isUUID also checks version bits). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MINUTE_MS = 60_000;
/** Routes that make the product send an e-mail: 10 an hour per client address. */
export const MAIL_LIMIT = { limit: 10, ttlMs: 3_600_000 };

type Request = FastifyRequest & { user?: AuthenticatedUser };

/** Runs the request through passport-jwt's strategy exactly as passport does (success / fail / error). */
function verifyToken(strategy: JwtStrategy, request: Request): Promise<AuthenticatedUser | false> {
  return new Promise((resolve, reject) => {
    const attempt = Object.create(strategy) as JwtStrategy & {
      success(user: AuthenticatedUser): void;
      fail(): void;
      error(error: unknown): void;
      pass(): void;
      authenticate(request: unknown, options: object): void;
    };
    attempt.success = (user) => resolve(user);
    attempt.fail = () => resolve(false);
    attempt.pass = () => resolve(false);
    attempt.error = (error) => reject(error);
    attempt.authenticate(request, {});
  });
}

/** Who the caller is, per the route's auth mode; throws 401 where a token is needed and not valid. */
async function authenticate(route: RouteDefinition, request: Request, jwt: JwtStrategy): Promise<void> {
  if (route.auth === 'public') return;
  const sent = typeof request.headers.authorization === 'string';
  if (route.auth === 'bearer-if-sent' && !sent) return;
  if (route.auth === 'bearer-optional') {
    if (!sent) return;
    const user = await verifyToken(jwt, request).catch(() => false as const);
    if (user) request.user = user;
    return;
  }
  const user = await verifyToken(jwt, request);
  if (!user) throw new UnauthorizedException();
  request.user = user;
}

/** Counts one call under `key`; past `limit` in the window, throws 429 with Retry-After. */
async function count(deps: TableRouteDeps, key: string, ttlMs: number, limit: number, throttler: string, message: (retryAfter: number) => string) {
  const record = await deps.throttler.increment(key, ttlMs, limit, 0, throttler);
  if (record.totalHits > limit) {
    const retryAfter = Math.max(1, Math.ceil(record.timeToExpire));
    throw new DomainError('RATE_LIMITED', message(retryAfter), { retry_after: [String(retryAfter)] });
  }
  return record;
}

/**
 * The route's rate limit: per provider account (after the token check, so one practice's machines
 * share one limit and nobody can spend another's), or per client address (with X-RateLimit headers).
 */
async function limitRate(name: string, rate: RateLimit, request: Request, reply: FastifyReply, deps: TableRouteDeps): Promise<void> {
  if (rate === 'none') return;
  if (rate === 'provider') {
    if (request.user) {
      await count(deps, `provider:${request.user.userId}`, MINUTE_MS, deps.limits.perProviderPerMinute, 'per-provider', (s) => `Too many requests from this provider account. Please try again in ${s} seconds.`);
    }
    return;
  }
  const { limit, ttlMs } = rate === 'mail' ? MAIL_LIMIT : { limit: deps.limits.perClientPerMinute, ttlMs: MINUTE_MS };
  const record = await count(deps, `${name}:${request.ip}`, ttlMs, limit, 'per-client', () => 'Too many requests. Please wait a moment and try again.');
  reply.header('x-ratelimit-limit', String(limit));
  reply.header('x-ratelimit-remaining', String(Math.max(0, limit - record.totalHits)));
  reply.header('x-ratelimit-reset', String(Math.ceil(record.timeToExpire)));
}

/** The service payload: path parameters (renamed), the validated query and body, fixed fields. */
async function payloadOf(route: RouteDefinition, request: Request, validation: ValidationPipe): Promise<Record<string, unknown>> {
  const payload: Record<string, unknown> = { ...route.fixed };
  const params = request.params as Record<string, string>;
  for (const [name, spec] of Object.entries(route.params ?? {})) {
    let value = params[name] ?? '';
    if (spec.format === 'uuid') {
      if (!UUID.test(value)) throw new DomainError('NOT_FOUND', spec.notFound ?? 'Not found.');
      value = value.toLowerCase();
    }
    payload[route.paramNames?.[name] ?? name] = value;
  }
  if (route.query) {
    Object.assign(payload, await validation.transform(request.query ?? {}, { type: 'query', metatype: route.query }));
  }
  if (route.body) {
    const body = request.body ?? (route.bodyOptional ? {} : undefined);
    Object.assign(payload, await validation.transform(body, { type: 'body', metatype: route.body }));
  }
  return payload;
}

/** The error answer, by the same filter the Nest routes use. */
function answerError(error: unknown, request: Request, reply: FastifyReply, filter: HttpErrorFilter): void {
  const host = { switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }) } as unknown as ArgumentsHost;
  filter.catch(error, host);
}

function handlerFor(name: string, route: RouteDefinition, deps: TableRouteDeps) {
  const subject = route.subject as RpcSubject;
  const headers = route.reply.headers ?? {};
  const contentType = route.reply.media ? `${route.reply.media.type}; charset=utf-8` : 'application/json; charset=utf-8';
  // The handler returns the reply: with async onSend hooks (helmet...) the answer is not written
  // yet when it resolves, and an async handler resolving to undefined would make Fastify send again.
  return async (request: Request, reply: FastifyReply): Promise<FastifyReply> => {
    try {
      for (const [header, value] of Object.entries(headers)) reply.header(header, value);
      await authenticate(route, request, deps.jwt);
      await limitRate(name, route.rateLimit, request, reply, deps);
      // The record the request names (X-Patient-Id, or the patient query parameter), checked with identity.
      const target = namedPatient(request);
      if (request.query && typeof request.query === 'object' && PATIENT_QUERY in request.query) {
        const { [PATIENT_QUERY]: _named, ...rest } = request.query as Record<string, unknown>;
        request.query = rest;
      }
      const caller: CallerIdentity = await actOnBehalf(route, target, callerOf(request), deps.rpc);
      const payload = await payloadOf(route, request, deps.validation);
      let answer: unknown = await deps.rpc.send(subject, payload as never, caller, route.timeoutMs ? { timeoutMs: route.timeoutMs } : {});
      if (route.after === 'revoke-sessions') answer = deps.revoked.revokeFrom(answer as { revoked_session_ids?: string[] });
      const status = route.reply.accepted && (answer as { accepted?: unknown } | null)?.accepted === true ? 202 : route.reply.status;
      return reply.status(status).header('content-type', contentType).send(JSON.stringify(answer));
    } catch (error) {
      answerError(error, request, reply, deps.errors);
      return reply;
    }
  };
}

/** Fastify's path syntax for a table path: `{id}` → `:id`. */
export const fastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** Registers every forwarded route of the table; returns how many. */
export function registerTableRoutes(fastify: FastifyInstance, deps: TableRouteDeps, routes: Record<string, RouteDefinition> = API_ROUTES): number {
  let count = 0;
  for (const [name, route] of Object.entries(routes)) {
    if (!route.subject) continue;
    fastify.route({ method: route.method, url: fastifyPath(route.path), handler: handlerFor(name, route, deps) });
    count++;
  }
  return count;
}
