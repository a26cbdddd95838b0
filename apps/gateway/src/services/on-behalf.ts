import { Inject, Injectable, UnauthorizedException, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { API_ROUTES, DomainError, FAMILY_MESSAGES, FAMILY_SERVICE_SUBJECTS, PATIENT_HEADER, PATIENT_QUERY, type CallerIdentity, type RouteDefinition } from '@medfolio/contracts';
import { RPC_CLIENT, type RpcClient } from '@medfolio/messaging';
import { callerOf, type GatewayRequest } from './caller.decorator';

/**
 * Acting on another person's record (docs/guide/family.md). A patient route names the record with
 * the `X-Patient-Id` header or the `patient` query parameter; the route table says the least role
 * a proxy needs (`onBehalf`). The gateway asks identity at every such request (no cache: a revoked
 * or expired grant is refused from the next request on) and forwards the caller as that patient,
 * with `actor` naming who really acts, so services key the data as for the patient and the audit
 * records name both.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The record the request names, if any ('' or absent: the caller's own). */
export function namedPatient(request: { headers: Record<string, string | string[] | undefined>; query?: unknown }): string | undefined {
  const header = request.headers[PATIENT_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = typeof query?.[PATIENT_QUERY] === 'string' ? (query[PATIENT_QUERY] as string) : undefined;
  const value = (fromHeader ?? fromQuery ?? '').trim();
  return value === '' ? undefined : value;
}

/**
 * The caller as the route should see it: unchanged for the caller's own record; as the named
 * patient with `actor` set when identity grants the route's role; 401 without a sign-in, 403 when
 * a signed-in-only route never acts for someone else, or the caller may not (or may only view).
 * Routes open to anyone (and sign-out) ignore the header unless they act for a record.
 */
export async function actOnBehalf(route: Pick<RouteDefinition, 'onBehalf' | 'auth'> | undefined, target: string | undefined, caller: CallerIdentity, rpc: RpcClient): Promise<CallerIdentity> {
  if (target === undefined) return caller;
  // Routes that are not signed-in-only (public reads, sign-out, contact) ignore the header unless they act for a record.
  if (!route?.onBehalf && route?.auth !== 'bearer') return caller;
  if (!caller.userId) throw new UnauthorizedException();
  const patientId = target.toLowerCase();
  if (patientId === caller.userId.toLowerCase()) return caller;
  if (!route?.onBehalf) throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.notOnBehalf);
  if (!UUID.test(patientId)) throw new DomainError('FORBIDDEN', FAMILY_MESSAGES.noAccess);
  const access = await rpc.send(FAMILY_SERVICE_SUBJECTS.access, { patient_id: patientId, needed: route.onBehalf }, caller);
  if (access.role === 'owner') return caller;
  return { ...caller, userId: patientId, actor: { userId: caller.userId, role: access.role } };
}

const normal = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1').replace(/\/+$/, '')}`;
/** The table's routes by "METHOD /fastify/path" (no trailing slash), for the hand-written controllers. */
const BY_PATH = new Map<string, RouteDefinition>(Object.values(API_ROUTES as Record<string, RouteDefinition>).map((r) => [normal(r.method, r.path), r]));

export function routeOf(method: string, url: string | undefined): RouteDefinition | undefined {
  return url ? BY_PATH.get(normal(method, url)) : undefined;
}

export type OnBehalfRequest = GatewayRequest & {
  method: string;
  query?: unknown;
  routeOptions?: { url?: string };
  /** Set by the interceptor: the caller as the route sees it (callerOf returns it). */
  onBehalf?: CallerIdentity;
};

/**
 * For the hand-written controllers (uploads, PDF, CSV, passes...): resolves the named record once
 * per request, after the guards (so the token is checked), before the handler reads the caller.
 */
@Injectable()
export class OnBehalfInterceptor implements NestInterceptor {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() === 'http') {
      const request = context.switchToHttp().getRequest<OnBehalfRequest>();
      const target = namedPatient(request);
      if (target !== undefined) {
        const route = routeOf(request.method, request.routeOptions?.url);
        request.onBehalf = await actOnBehalf(route, target, callerOf(request), this.rpc);
      }
    }
    return next.handle();
  }
}
