import helmet from '@fastify/helmet';
import { RequestMethod } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppMetrics, recordHttpMetrics } from '@medfolio/observability';
import { GatewayModule, type GatewayOptions } from './app.module';
import { DEV_MAIL_PREFIX_EXCLUDES } from './controllers/dev-mail.controller';
import { contentSecurityDirectives, downloadOriginsFor } from './web/content-security';
import { STRIPE_WEBHOOK_PATH } from './controllers/billing.controller';
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
  restrictRequestBodies(app, config.bodyLimitBytes, { rawJsonPaths: [STRIPE_WEBHOOK_PATH] });
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
  const document = buildOpenApi(app);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json', useGlobalPrefix: false });
  app.enableShutdownHooks();
  return app;
}

/** OpenAPI 3 from the controllers and DTOs; paths written as the product's contract writes them (with '/'). */
export function buildOpenApi(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Medfolio API')
    .setDescription('The patient-held medical record. Authenticate with `Authorization: Bearer <access token>`.')
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  // operationIds name the web app's generated hooks: AuthController.login → authLogin → useAuthLoginMutation.
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller: string, method: string) =>
      `${controller.replace(/Controller$/, '').replace(/^./, (c) => c.toLowerCase())}${method.replace(/^./, (c) => c.toUpperCase())}`,
  });
  document.paths = Object.fromEntries(
    Object.entries(document.paths).map(([path, item]) => [path.startsWith('/api/') && !path.endsWith('/') ? `${path}/` : path, item]),
  );
  return document;
}
