import type { RpcReply, RpcRequest, RpcSubject } from '../rpc-map';
import type { ApiShapes } from './shapes';

/**
 * One declaration per endpoint. Each /api route is written once, in a table under this folder:
 * its method and path, who may call it, its rate limit, what it takes and answers, the service
 * subject that does the work, and every status it answers with what that status means. From the
 * table come the gateway's routes (apps/gateway/src/routes), the OpenAPI document and the API
 * reference (npm run api:generate), and the web app's client (apps/web/src/api/generated.ts).
 *
 * The shapes themselves are the contracts' TypeScript types: request bodies and queries are the
 * class-validator classes that also validate them at run time; replies are named in `ApiShapes`,
 * and their JSON Schema is generated from the types (shapes.schema.json), so nothing restates them.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * Who may call a route:
 * - `public`: anyone.
 * - `bearer`: a valid access token (`Authorization: Bearer …`), not revoked.
 * - `bearer-if-sent`: anyone, but a token that is sent must be valid (401 otherwise), so a client
 *   with an expired token refreshes it; used by the share reads, which take a share id or the
 *   owner's own id.
 * - `bearer-optional`: anyone; a valid token names the caller and an invalid one is ignored (sign-out).
 * - `apple-pass`: Apple Wallet's web service, `Authorization: ApplePass <the pass's token>`.
 * - `stripe-signature`: Stripe's webhook, its `Stripe-Signature` header over the raw body.
 * - `local-dev`: the embedded mode's dev mailbox, for local requests that present its key.
 */
export type AuthMode = 'public' | 'bearer' | 'bearer-if-sent' | 'bearer-optional' | 'apple-pass' | 'stripe-signature' | 'local-dev';

/**
 * Rate limits, counted in the gateway's limit store (Redis when REDIS_URL is set):
 * - `per-client`: RATE_LIMIT_PER_MINUTE per route per client address.
 * - `mail`: routes that make the product send an e-mail, 10 an hour per client address.
 * - `provider`: the provider API, PROVIDER_RATE_LIMIT_PER_MINUTE per provider account (after the token check).
 * - `none`: health checks, static files, Apple's and Stripe's calls.
 */
export type RateLimit = 'per-client' | 'mail' | 'provider' | 'none';

export type SuccessStatus = 200 | 201 | 202 | 204 | 303 | 304;
export type ErrorStatus = 400 | 401 | 402 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

/** A class whose instances have the shape `T` (the contracts' class-validator DTOs). */
export type DtoClass<T = object> = new (...args: never[]) => T;

/** A name in `ApiShapes`, or a list of it. */
export type ShapeName = keyof ApiShapes & string;
export type ShapeRef = ShapeName | `${ShapeName}[]`;
type ShapeOf<R extends ShapeRef> = R extends `${infer N extends ShapeName}[]` ? ApiShapes[N][] : R extends ShapeName ? ApiShapes[R] : never;

export interface PathParam {
  description: string;
  format?: 'uuid';
  /** A value that cannot be one of ours answers this error before any service is asked. */
  notFound?: string;
}

export interface QueryParam {
  description: string;
  required?: boolean;
  type?: 'string' | 'integer';
  example?: string;
}

/** The successful answer. */
export interface ReplySpec {
  status: SuccessStatus;
  description?: string;
  /** The JSON body's shape (`application/json`). */
  shape?: ShapeRef;
  /** Another media type (a PDF, a FHIR Bundle, a pass), described in words; JSON errors stay JSON. */
  media?: { type: string; schema?: 'binary' | 'json' };
  /** Response headers worth documenting. */
  headers?: Record<string, string>;
  /**
   * Set: the route answers 202 (this is what it means) instead of `status`, with the same shape,
   * when the service's reply has `accepted: true` (work that other services finish later).
   */
  accepted?: string;
  /** Other answers that are not errors (204 nothing new, 302 elsewhere, 304 not modified). */
  others?: Partial<Record<200 | 204 | 302 | 304, string>>;
}

/** What the gateway does with a route's answer before it is sent (see apps/gateway/src/routes). */
export type AfterReply = 'revoke-sessions';

export interface RouteDefinition {
  method: HttpMethod;
  /** The public path, as the product's contract writes it: `/api/…/` with `{param}` placeholders. */
  path: string;
  /** The OpenAPI tag, and the web client's cache tag. */
  tag: string;
  summary: string;
  description?: string;
  auth: AuthMode;
  rateLimit: RateLimit;
  params?: Record<string, PathParam>;
  /** The query's class (validated; its fields are the query parameters) … */
  query?: DtoClass;
  /** … and what each parameter means. */
  queryDocs?: Record<string, QueryParam>;
  body?: DtoClass;
  /** A body may be left out (the DTO's fields are all optional). */
  bodyOptional?: boolean;
  /** A body that is not JSON (multipart uploads), documented here and parsed by the route's own handler. */
  rawBody?: { type: string; schema: Record<string, unknown>; description?: string };
  reply: ReplySpec;
  /**
   * The statuses the route answers besides its success, with what each means there (the body is
   * `ErrorReply` unless a shape is given). 400 for routes that take input, 401 for signed-in
   * routes, 429 for rate-limited ones, 500 for every route and 503/504 for routes that call a service
   * are added by the document.
   */
  errors: Partial<Record<ErrorStatus, string | { description: string; shape: ShapeName }>>;
  /**
   * Set: the gateway forwards the request to this service subject and answers its reply. The
   * payload is the path parameters (renamed by `paramNames`), the query and the body, merged.
   * Unset: a hand-written handler serves the route (multipart, PassKit, the webhook's raw body…).
   */
  subject?: RpcSubject;
  /** Path parameter → payload field (e.g. `factId` → `fact_id`). */
  paramNames?: Record<string, string>;
  /** Fixed payload fields (e.g. `{ purpose: 'default' }`). */
  fixed?: Record<string, unknown>;
  timeoutMs?: number;
  after?: AfterReply;
  /** Not for the web app's generated client (Apple's, Stripe's and operators' calls). */
  internal?: boolean;
  /**
   * false: answers without waiting on a service (the readiness report asks each one with its own
   * time-out and answers 503 itself), so no 503/504 is implied for it.
   */
  upstream?: false;
  /**
   * The least role a caregiver needs to call this route on another person's record, named by the
   * `X-Patient-Id` header or the `patient` query parameter ('view': reads; 'manage': changes).
   * The gateway asks identity for the caller's role on that record at every such request
   * (identity.family.access) and forwards the caller as that patient with `actor` set.
   * Unset: the route never acts for someone else, and naming another record is refused (403).
   */
  onBehalf?: 'view' | 'manage';
}

/** True when each type is assignable to the other: the document's shape is exactly what the subject answers. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * A route served by forwarding to `subject`: the reply shape must describe what the subject
 * answers (a compile error otherwise), and the body must be part of what it takes.
 */
export function forward<S extends RpcSubject, R extends ShapeRef>(
  subject: S,
  definition: Omit<RouteDefinition, 'subject' | 'reply'> & {
    reply: ReplySpec & { shape: ReplyShape<S, R> };
    body?: DtoClass<Partial<RpcRequest<S>>>;
  },
): RouteDefinition {
  return { ...definition, subject };
}

/** `R`, when it describes what `subject` answers; otherwise a message that makes the route a compile error. */
type ReplyShape<S extends RpcSubject, R extends ShapeRef> = R & (Same<RpcReply<S>, ShapeOf<R>> extends true ? unknown : `reply of ${S} is not ${R}`);

/**
 * The signed-in caller reads their own data: a forwarded GET with a bearer token, no path
 * parameters, query or body, limited per client, answering 200 with `shape`. `more` adds a
 * description and the route's own errors (none by default).
 */
export function ownRead<S extends RpcSubject, R extends ShapeRef>(
  subject: S,
  path: string,
  tag: string,
  summary: string,
  shape: ReplyShape<S, R>,
  more: { description?: string; errors?: RouteDefinition['errors']; onBehalf?: 'view' | 'manage' } = {},
): RouteDefinition {
  const { description, errors = {}, onBehalf } = more;
  return {
    method: 'GET', path, tag, auth: 'bearer', rateLimit: 'per-client', summary,
    ...(description === undefined ? {} : { description }),
    ...(onBehalf === undefined ? {} : { onBehalf }),
    reply: { status: 200, shape }, errors, subject,
  };
}

/** A route with its own handler in the gateway (HTTP itself is special there). */
export function handled(definition: Omit<RouteDefinition, 'subject'>): RouteDefinition {
  return definition;
}

/** The standard error answer: `{ message, code }` (and `details` for some). */
export const ERROR_SHAPE = 'ErrorReply' satisfies ShapeName;
