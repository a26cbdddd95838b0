import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { DynamicModule } from '@nestjs/common';

export const CORRELATION_HEADER = 'x-correlation-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,100}$/;
const NEST_BOOTSTRAP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice']);

/** The request's correlation id: the caller's if it is a safe token, else a new UUID. */
export function correlationIdOf(req: IncomingMessage): string {
  const given = req.headers[CORRELATION_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value && SAFE_ID.test(value) ? value : randomUUID();
}

/**
 * Path without the query string (queries can carry identifiers we do not want in logs), and with a
 * share id (/summary/{shareId}, a secret that opens a summary) replaced by the start of its SHA-256,
 * so a log line can still be matched to a link (the summary service looks links up by that hash)
 * without the log opening it.
 */
export function pathOf(url: string | undefined): string {
  const path = (url ?? '').split('?')[0] ?? '';
  return path.replace(/^\/summary\/([^/]+)/, (_all, id: string) => `/summary/sha256:${createHash('sha256').update(decodeURIComponentSafe(id)).digest('hex').slice(0, 16)}`);
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * JSON logs (pino) for one app. Each HTTP request is logged once, when it ends, with method, path,
 * status, duration and correlation id; never bodies, query strings, cookies or authorization headers
 * (health data must never reach logs).
 */
export function loggerModule(app: string, level: string, mode: 'embedded' | 'service' = 'service'): DynamicModule {
  return LoggerModule.forRoot({
    pinoHttp: {
      level,
      // One process runs every app in embedded mode, and nestjs-pino keeps one root logger per process.
      base: { app: mode === 'embedded' ? 'medfolio' : app },
      hooks: {
        // Nest's start-up chatter (each module loaded, each route mapped) is debug detail, not news.
        logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void, levelValue: number) {
          const context = (args[0] as { context?: unknown } | undefined)?.context;
          if (levelValue === 30 && typeof context === 'string' && NEST_BOOTSTRAP_CONTEXTS.has(context)) return;
          method.apply(this, args);
        },
      },
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const id = correlationIdOf(req);
        res.setHeader(CORRELATION_HEADER, id);
        return id;
      },
      customAttributeKeys: { reqId: 'correlationId' },
      serializers: {
        req: (req: { method?: string; url?: string }) => ({ method: req.method, path: pathOf(req.url) }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
      redact: { paths: ['req.headers', 'req.body', 'res.headers', 'body', 'payload', 'data'], remove: true },
      autoLogging: { ignore: (req: IncomingMessage) => /^\/(health|metrics)/.test(pathOf(req.url)) },
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, err?: Error) =>
        err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      quietReqLogger: true,
    },
  });
}
