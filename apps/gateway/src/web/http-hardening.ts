import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import secureJsonParse from 'secure-json-parse';

/** Deepest nesting of objects and arrays a JSON body may have. Our largest DTO nests 3 levels. */
export const MAX_JSON_DEPTH = 32;

/** The largest form body taken on `formPaths` (a provider's code, state and Apple's name fit in a few KB). */
export const FORM_BODY_LIMIT = 16 * 1024;

/** HSTS for a year, sent only on answers to requests that came over https (see `hstsOnlyOverHttps`). */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * True when `text` nests objects/arrays deeper than `max`. A linear scan of the raw text, before
 * anything is parsed: JSON.parse copes with deep nesting, but class-transformer's recursion on the
 * parsed value overflows the stack (5,000 levels in 50 KB gave a 500).
 */
export function jsonNestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > max) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return false;
}

/**
 * The gateway's body rules, in place of Fastify's and Nest's defaults (create the app with
 * `bodyParser: false`):
 * - on `rawJsonPaths` (Stripe's webhook), a JSON body is not parsed: the route gets `{ raw: text }`,
 *   the exact text whose signature it checks;
 * - JSON APIs take `application/json` only: form-encoded and text bodies answer 415 (multipart stays
 *   for the upload routes, registered by @fastify/multipart);
 * - on `formPaths` (route paths with `{param}` placeholders: an OpenID provider's form POST), an
 *   `application/x-www-form-urlencoded` body of at most `formBodyLimit` bytes (413 above) is parsed
 *   into an object of strings ({@link parseFormBody}); everywhere else it answers 415 as before;
 * - JSON nested deeper than MAX_JSON_DEPTH answers 400 before parsing or validation;
 * - prototype poisoning (`__proto__`, `constructor.prototype`) is refused as Fastify does;
 * - a NUL character in any key or text value answers 400 naming the field ({@link fieldWithNul}).
 */
export function restrictRequestBodies(
  app: NestFastifyApplication,
  bodyLimit: number,
  options: { rawJsonPaths?: readonly string[]; formPaths?: readonly string[]; formBodyLimit?: number } = {},
): void {
  const fastify = app.getHttpAdapter().getInstance();
  const raw = new Set((options.rawJsonPaths ?? []).map(withoutTrailingSlash));
  const forms = (options.formPaths ?? []).map(pathPattern);
  const formLimit = Math.min(options.formBodyLimit ?? FORM_BODY_LIMIT, bodyLimit);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // A signed body (Stripe's webhook) is verified byte for byte: it stays the exact text received.
    if (raw.has(withoutTrailingSlash(request.url.split('?')[0] ?? ''))) return done(null, { raw: text });
    if (text.trim() === '') return done(null, undefined);
    if (jsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
      return done(new BadRequestException(`The request body is nested too deeply (more than ${MAX_JSON_DEPTH} levels).`), undefined);
    }
    let parsed: unknown;
    try {
      parsed = secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
    } catch {
      return done(new BadRequestException('The request body is not valid JSON.'), undefined);
    }
    const nul = fieldWithNul(parsed);
    if (nul !== null) return done(new BadRequestException(nulMessage(nul)), undefined);
    done(null, parsed);
  });
  // A form, on the paths that take one (an OpenID provider posting its answer), and nowhere else.
  fastify.addContentTypeParser('application/x-www-form-urlencoded', (request, payload, done) => {
    const path = request.url.split('?')[0] ?? '';
    if (!forms.some((pattern) => pattern.test(path))) return done(notJson(request.headers['content-type']), undefined);
    readLimited(payload, formLimit, Number(request.headers['content-length'])).then(
      (text) => {
        try {
          done(null, parseFormBody(text));
        } catch (error) {
          done(error as Error, undefined);
        }
      },
      (error: Error) => done(error, undefined),
    );
  });
  // Anything else with a body (text, XML, ...) on a route that is not an upload.
  fastify.addContentTypeParser('*', (request, _payload, done) => done(notJson(request.headers['content-type']), undefined));
}

function notJson(contentType: string | string[] | undefined): UnsupportedMediaTypeException {
  const type = String(contentType ?? 'none').split(';')[0]?.trim() || 'none';
  return new UnsupportedMediaTypeException(`This API accepts JSON only (Content-Type: application/json), not ${type}.`);
}

/** A route path (`/api/x/{name}/y/`) as a test of a request path, with or without its trailing slash. */
function pathPattern(route: string): RegExp {
  const escaped = withoutTrailingSlash(route)
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

/** The body as UTF-8 text, refused with 413 beyond `limit` bytes (by its Content-Length or as it arrives). */
function readLimited(payload: NodeJS.ReadableStream, limit: number, declared: number): Promise<string> {
  const tooLarge = () => new PayloadTooLargeException(`The form is too large (more than ${limit} bytes).`);
  return new Promise((resolve, reject) => {
    if (Number.isFinite(declared) && declared > limit) return reject(tooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > limit) {
        cleanup();
        return reject(tooLarge());
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
  });
}

/**
 * A form body as an object of strings (own properties only, so `__proto__` is a plain key). A field
 * given twice or holding a NUL character answers 400: no form we take has a use for either.
 */
export function parseFormBody(text: string): Record<string, string> {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of new URLSearchParams(text)) {
    if (Object.hasOwn(fields, key)) throw new BadRequestException(`The field '${key.split('\u0000').join('')}' is given more than once.`);
    fields[key] = value;
  }
  const nul = fieldWithNul(fields);
  if (nul !== null) throw new BadRequestException(nulMessage(nul));
  return fields;
}

/**
 * The path of the first field (a key or a text value, at any depth) holding a NUL character
 * (`\u0000`), or null when there is none. No text column takes NUL (PostgreSQL refuses it), and no
 * field of ours has a use for it: it answered 500 on login, register, profile, share links and facts.
 * `''` names the body itself (a bare string).
 */
export function fieldWithNul(value: unknown, at = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? at : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = fieldWithNul(value[i], `${at}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const path = at ? `${at}.${key}` : key;
    if (key.includes('\u0000')) return path;
    const found = fieldWithNul(item, path);
    if (found !== null) return found;
  }
  return null;
}

/** The 400's message for a NUL in `field` (a key with a NUL is shown without it). */
export function nulMessage(field: string): string {
  const name = field.split('\u0000').join('');
  return name ? `The field '${name}' contains a NUL character (\\u0000), which is not allowed.` : 'The request body contains a NUL character (\\u0000), which is not allowed.';
}

/** Where a share id can travel: the public summary page and its API calls, the summary's formats and SMART Health Links. */
const SHARE_PATHS = /^\/(summary\/|api\/summary\/?(\?|$)|api\/summary\/(unlock|fhir|pdf|shl|shl\/file)\/?(\?|$))/;

/** The headers every answer on a share path carries (the page, the summary, 404s and errors alike). */
export const SHARE_HEADERS = { 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex', 'cache-control': 'no-store' } as const;

export function isSharePath(url: string): boolean {
  return SHARE_PATHS.test(url);
}

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Security headers that depend on the request:
 * - on share paths ({@link SHARE_HEADERS}): the link never leaks through a Referer, is never indexed,
 *   and is never kept by a browser or shared cache;
 * - `Cache-Control: no-store` on every /api answer that does not set its own (personal data must not
 *   be kept by browsers or shared caches);
 * - HSTS only when the request came over https (directly, or as a trusted proxy says through
 *   X-Forwarded-Proto): over plain http it means nothing, and a development host would be pinned.
 */
export function requestDependentHeaders(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request: FastifyRequest, reply: FastifyReply) => {
      if (isSharePath(request.url)) reply.headers(SHARE_HEADERS);
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
    });
}
