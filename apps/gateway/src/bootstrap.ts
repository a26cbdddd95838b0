import helmet from '@fastify/helmet';
import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { getStorageToken } from '@nestjs/throttler';
import { Logger } from 'nestjs-pino';
import { API_ROUTES, buildOpenApiDocument } from '@medfolio/contracts';
import { createValidationPipe } from '@medfolio/messaging';
import { AppMetrics, recordHttpMetrics } from '@medfolio/observability';
import { HttpErrorFilter } from '@medfolio/runtime';
import { GatewayModule, type GatewayOptions } from './app.module';
import { GatewayConfig } from './config';
import { DEV_MAIL_PREFIX_EXCLUDES } from './controllers/dev-mail.controller';
import { RevokedSessionsRepository } from './repositories/revoked-sessions.repository';
import { RPC_CLIENT } from './repositories/rpc-client.token';
import { registerTableRoutes } from './routes/table-routes';
import { JwtStrategy } from './services/jwt.strategy';
import { contentSecurityDirectives, downloadOriginsFor } from './web/content-security';
import { requestDependentHeaders, restrictRequestBodies } from './web/http-hardening';
import { resolveWebRoot, serveWebApp } from './web/serve-web-app';

/**
 * Creates the gateway application (not yet listening): Fastify with trailing-slash-insensitive
 * routes (the API's paths end in '/'), security headers, CORS, body limits, /api prefix, OpenAPI.
 */
export async function createGatewayApp(options: GatewayOptions): Promise<NestFastifyApplication> {
  const { config } = options;
  const adapter = new FastifyAdapter({
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: config.bodyLimitBytes,
    // Trust X-Forwarded-For only from the first N hops (the ingress), never from the client itself.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    genReqId: () => '', // pino-http assigns the correlation id
    // After SIGTERM (and the preStop sleep) a request still arriving on a kept-alive connection is
    // served, answered with Connection: close, rather than refused with Fastify's default 503.
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.register(options), adapter, {
    bufferLogs: true,
    bodyParser: false, // restrictRequestBodies below: JSON only, nesting limited
  });
  app.useLogger(app.get(Logger));
  recordHttpMetrics(app.getHttpAdapter().getInstance(), app.get(AppMetrics));
  await app.register(helmet, {
    contentSecurityPolicy: { directives: contentSecurityDirectives(await downloadOriginsFor(config), { stripe: Boolean(config.stripePublishableKey) }) },
    strictTransportSecurity: false, // sent per request, only over https (requestDependentHeaders)
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xContentTypeOptions: true,
  });
  restrictRequestBodies(app, config.bodyLimitBytes, { rawJsonPaths: [API_ROUTES.billingWebhook.path], formPaths: [API_ROUTES.authOidcFormPostCallback.path] });
  requestDependentHeaders(app);
  // Uploads (multipart) are not parsed here: the route pipes the raw body to the service that owns
  // the files (repositories/internal-upload.repository.ts), which parses it. Registered after
  // restrictRequestBodies, whose catch-all answers 415 to every other type.
  app
    .getHttpAdapter()
    .getInstance()
    .addContentTypeParser('multipart/form-data', (_request: unknown, payload: unknown, done: (error: null, body: unknown) => void) => done(null, payload));
  const origins = config.corsOrigins.split(',').map((o) => o.trim()).filter(Boolean);
  app.enableCors({ origin: origins.length > 0 ? origins : false, credentials: true });
  app.setGlobalPrefix('api', {
    exclude: [
      { path: 'health/live', method: RequestMethod.GET },
      { path: 'health/ready', method: RequestMethod.GET },
      { path: 'metrics', method: RequestMethod.GET },
      ...DEV_MAIL_PREFIX_EXCLUDES,
    ],
  });
  // Swagger UI styles itself inline: for its page only, inline styles are allowed (scripts are not).
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', async (request: { url: string }, reply: { getHeader(n: string): unknown; header(n: string, v: string): unknown }) => {
      const csp = reply.getHeader('content-security-policy');
      if (request.url.startsWith('/api/docs') && typeof csp === 'string') {
        reply.header('content-security-policy', csp.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"));
      }
    });
  const webRoot = options.webRoot === undefined ? resolveWebRoot(config.webRoot) : options.webRoot;
  if (webRoot) await serveWebApp(app, webRoot);
  const gatewayConfig = app.get(GatewayConfig);
  registerTableRoutes(app.getHttpAdapter().getInstance(), {
    rpc: app.get(RPC_CLIENT),
    jwt: app.get(JwtStrategy),
    throttler: app.get(getStorageToken()),
    validation: createValidationPipe(),
    errors: new HttpErrorFilter(),
    revoked: app.get(RevokedSessionsRepository),
    limits: { perClientPerMinute: gatewayConfig.rateLimitPerMinute, perProviderPerMinute: gatewayConfig.providerRateLimitPerMinute },
  });
  SwaggerModule.setup('api/docs', app, buildOpenApi(), { jsonDocumentUrl: 'api/docs-json', useGlobalPrefix: false });
  app.enableShutdownHooks();
  return app;
}

/** The OpenAPI 3.1 document, from the route table (docs/api/openapi.json is the same, committed). */
export function buildOpenApi(): OpenAPIObject {
  return buildOpenApiDocument(API_ROUTES) as unknown as OpenAPIObject;
}
