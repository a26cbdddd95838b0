import type { ErrorStatus, RouteDefinition, ShapeRef } from './route';
import { API_SCHEMAS } from './schemas';

/**
 * The OpenAPI 3.1 document, built from the route table (libs/contracts/src/routes) and the JSON
 * Schemas generated from the contracts' types (npm run api:generate). Nothing here restates a
 * shape: a route names its DTO classes and reply shapes, and the schemas are those of the types.
 */

type Schema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const SCHEMA_REF = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The JSON schema of a reply: `Name` or `Name[]`. */
function shapeSchema(shape: ShapeRef): Schema {
  return shape.endsWith('[]') ? { type: 'array', items: SCHEMA_REF(shape.slice(0, -2)) } : SCHEMA_REF(shape);
}

const DEFAULT_ERRORS: Partial<Record<ErrorStatus, string>> = {
  400: 'The request is not valid: the message names the field and what is wrong',
  401: 'No valid access token (missing, expired, or its sign-in was revoked)',
  403: "X-Patient-Id (or patient) names another person's record: one the caller may not open, or may only view while the route changes it, or this route is only for the caller's own account",
  413: 'The request body is too large',
  415: 'The body is not JSON',
  429: 'Too many requests from this client: wait (Retry-After)',
  500: 'Something went wrong on our side',
  503: 'A service behind the gateway is unavailable; try again shortly',
  504: 'A service behind the gateway did not answer in time; try again shortly',
};

/** The statuses every route answers besides its own: input errors, auth, limits, failures. */
function impliedErrors(route: RouteDefinition): ErrorStatus[] {
  const implied: ErrorStatus[] = [500];
  const takesInput = Boolean(route.body || route.query || route.params || route.rawBody);
  if (takesInput) implied.push(400);
  if (route.body) implied.push(413, 415);
  if (route.auth === 'bearer' || route.auth === 'bearer-if-sent' || route.auth === 'apple-pass') implied.push(401);
  if (route.onBehalf || route.auth === 'bearer') implied.push(403);
  if (route.rateLimit !== 'none') implied.push(429);
  // A route that asks a service (forwarded or hand-written) may find it down or slow.
  if (route.upstream !== false) implied.push(503, 504);
  return implied;
}

function security(route: RouteDefinition): Record<string, string[]>[] {
  switch (route.auth) {
    case 'bearer':
      return [{ bearer: [] }];
    case 'bearer-if-sent':
    case 'bearer-optional':
      return [{}, { bearer: [] }];
    case 'apple-pass':
      return [{ applePass: [] }];
    case 'stripe-signature':
      return [{ stripeSignature: [] }];
    case 'public':
    case 'local-dev':
      return [];
  }
}

/** A DTO class's generated schema (its properties become query parameters). */
function dtoSchema(name: string, schemaSet: Record<string, unknown>): Schema {
  const schema = schemaSet[name] as Schema | undefined;
  if (!schema) throw new Error(`No schema for ${name}: run npm run api:generate`);
  return schema;
}

function parameters(route: RouteDefinition, schemaSet: Record<string, unknown>): Schema[] {
  const list: Schema[] = [];
  for (const [name, param] of Object.entries(route.params ?? {})) {
    list.push({ name, in: 'path', required: true, description: param.description, schema: { type: 'string', ...(param.format ? { format: param.format } : {}) } });
  }
  if (route.onBehalf) {
    const least = route.onBehalf === 'view' ? 'view (or manage, guardian)' : 'manage (or guardian)';
    list.push({
      name: 'X-Patient-Id', in: 'header', required: false,
      description: `Act on another person's record (a family member's, or one shared with the caller): their patient id. The caller needs the role ${least} on it. Absent: the caller's own record. The query parameter \`patient\` does the same.`,
      schema: { type: 'string', format: 'uuid' },
    });
  }
  if (route.query) {
    const schema = dtoSchema(route.query.name, schemaSet);
    const properties = (schema['properties'] ?? {}) as Record<string, Schema>;
    const required = new Set((schema['required'] as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries(properties)) {
      const docs = route.queryDocs?.[name];
      const { description, ...rest } = property;
      const typed = docs?.type === 'integer' ? { ...rest, type: 'integer' } : rest;
      list.push({
        name,
        in: 'query',
        required: docs?.required ?? required.has(name),
        description: docs?.description ?? description,
        schema: typed,
        ...(docs?.example ? { example: docs.example } : {}),
      });
    }
  } else {
    for (const [name, docs] of Object.entries(route.queryDocs ?? {})) {
      list.push({ name, in: 'query', required: docs.required ?? false, description: docs.description, schema: { type: docs.type ?? 'string' } });
    }
  }
  return list;
}

function requestBody(route: RouteDefinition): Schema | undefined {
  if (route.rawBody) {
    return { required: true, ...(route.rawBody.description ? { description: route.rawBody.description } : {}), content: { [route.rawBody.type]: { schema: route.rawBody.schema } } };
  }
  if (!route.body) return undefined;
  return { required: !route.bodyOptional, content: { 'application/json': { schema: SCHEMA_REF(route.body.name) } } };
}

function successResponse(route: RouteDefinition): Schema {
  const { reply } = route;
  const headers = reply.headers
    ? { headers: Object.fromEntries(Object.entries(reply.headers).map(([name, value]) => [name, { description: value, schema: { type: 'string' } }])) }
    : {};
  const description = reply.description ?? 'OK';
  if (reply.media) {
    const schema = reply.media.schema === 'binary' ? { type: 'string', format: 'binary' } : reply.shape ? shapeSchema(reply.shape) : { type: 'string' };
    return { description, ...headers, content: { [reply.media.type]: { schema } } };
  }
  if (!reply.shape) return { description, ...headers };
  return { description, ...headers, content: { 'application/json': { schema: shapeSchema(reply.shape) } } };
}

function responses(route: RouteDefinition): Record<string, Schema> {
  const answers: Record<string, Schema> = { [String(route.reply.status)]: successResponse(route) };
  if (route.reply.accepted) answers['202'] = { ...successResponse(route), description: route.reply.accepted };
  for (const [status, description] of Object.entries(route.reply.others ?? {})) answers[status] = { description };
  const statuses = new Set<ErrorStatus>([...impliedErrors(route), ...(Object.keys(route.errors).map(Number) as ErrorStatus[])]);
  for (const status of [...statuses].sort()) {
    const given = route.errors[status];
    const description = typeof given === 'string' ? given : given?.description ?? DEFAULT_ERRORS[status] ?? 'Error';
    const shape = typeof given === 'object' ? given.shape : 'ErrorReply';
    answers[String(status)] = { description, content: { 'application/json': { schema: SCHEMA_REF(shape) } } };
  }
  return answers;
}

function operation(operationId: string, route: RouteDefinition, schemaSet: Record<string, unknown>): Operation {
  const params = parameters(route, schemaSet);
  const body = requestBody(route);
  return {
    operationId,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: security(route),
    ...(params.length ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(route),
    'x-rate-limit': route.rateLimit,
  };
}

const TAGS: Record<string, string> = {
  accounts: 'Sign-up, verification, sign-in and tokens',
  profile: "The signed-in user's profile and password",
  history: 'The access history of a patient’s health data',
  documents: "The patient's documents",
  summary: "The patient's summary, its review, and its shared formats (FHIR IPS, PDF, SMART Health Links)",
  sharing: 'Share links',
  providers: 'Licence verification and the provider API',
  billing: 'Plans, payments and referrals',
  wallet: 'The wallet pass, and Apple Wallet’s web service',
  connections: 'Hospital and clinic connections (SMART on FHIR patient access)',
  contact: 'The contact form',
  web: "The web app's public settings",
  health: 'Readiness',
};

/** The schemas `from` refers to, and those they refer to, by name (a query DTO is inlined as parameters, so it is not one). */
function reachable(schemaSet: Record<string, unknown>, from: unknown): Record<string, unknown> {
  const names = new Set<string>();
  const pending = [JSON.stringify(from)];
  while (pending.length > 0) {
    for (const match of pending.pop()!.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      const name = match[1]!;
      if (names.has(name) || !(name in schemaSet)) continue;
      names.add(name);
      pending.push(JSON.stringify(schemaSet[name]));
    }
  }
  return Object.fromEntries([...names].sort((a, b) => a.localeCompare(b)).map((name) => [name, schemaSet[name]]));
}

/** The whole document. Paths keep the contract's trailing slash. */
export function buildOpenApiDocument(routes: Record<string, RouteDefinition>, schemaSet: Record<string, unknown> = API_SCHEMAS): Record<string, unknown> {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const [operationId, route] of Object.entries(routes)) {
    (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(operationId, route, schemaSet);
  }
  const schemas = reachable(schemaSet, { paths });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Medfolio API',
      version: '1',
      description:
        'The patient-held medical record. Signed-in routes take `Authorization: Bearer <access token>` (POST /api/login/). ' +
        'Every error answers `{ message, code }`; `message` is a sentence to show. Paths end in `/`, as the product contract writes them.',
      contact: { name: 'Medfolio support: the contact form (POST /api/contact/)' },
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'The gateway this document is served by' }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    webhooks: {
      stripeEvent: {
        post: {
          operationId: 'stripeEvent',
          tags: ['billing'],
          summary: 'What Stripe sends to POST /api/stripe/webhook/: a signed Event (payments, subscriptions)',
          security: [{ stripeSignature: [] }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Stripe Event object' } } } },
          responses: { '200': { description: 'Received (a replay is received again, and changes nothing)' }, '400': { description: 'The webhook signature is not valid.' } },
        },
      },
    },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /api/login/ (or a sign-in provider)' },
        applePass: { type: 'apiKey', in: 'header', name: 'Authorization', description: "Apple Wallet's `ApplePass <the pass's authentication token>`" },
        stripeSignature: { type: 'apiKey', in: 'header', name: 'Stripe-Signature', description: "Stripe's signature over the raw body (STRIPE_WEBHOOK_SECRET)" },
      },
      schemas,
    },
  };
}
