import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { DynamicModule, INestApplication, INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { createRpcClient, rpcServerStrategy, type EventBus } from '@medfolio/messaging';
import { EmbeddedPostgres } from '@medfolio/persistence';
import { createEventBus, createServiceHttpApp, loadConfigOrExit, tuneGarbageCollector } from '@medfolio/runtime';
import { loadOrCreateSigningKeys, publicJwks } from '@medfolio/security';
import { AuditAppModule, AuditConfig } from '@medfolio/audit-app';
import { DocumentsAppModule, DocumentsConfig } from '@medfolio/documents-app';
import { createGatewayApp, GatewayConfig } from '@medfolio/gateway-app';
import { IdentityAppModule, IdentityConfig } from '@medfolio/identity-app';
import { NotificationsAppModule, NotificationsConfig } from '@medfolio/notifications-app';
import { embeddedListenHost, exposedDevMailWarning } from './listen-host';

/**
 * `npm start`: the whole product in ONE process. Every service runs as its own Nest application
 * (its own DI container, as if it were a separate process) and they talk through the same
 * request/reply and event interfaces as in Kubernetes: in-process transports and PGlite by default,
 * or NATS and Postgres when NATS_URL / DATABASE_URL are set.
 */
async function main(): Promise<void> {
  const started = Date.now();
  const gatewayConfig = loadConfigOrExit(GatewayConfig);
  const auditConfig = loadConfigOrExit(AuditConfig);
  const identityConfig = loadConfigOrExit(IdentityConfig);
  const notificationsConfig = loadConfigOrExit(NotificationsConfig);
  const documentsConfig = loadConfigOrExit(DocumentsConfig);
  // One process, one heap: the gateway's setting applies to all of it.
  tuneGarbageCollector(gatewayConfig.gcMarkingTriggers);
  // Uploads stream from the gateway to services' internal HTTP endpoints, on loopback here,
  // authenticated by a shared token (random for this run unless INTERNAL_API_TOKEN is set).
  const internalToken = gatewayConfig.internalApiToken ?? randomBytes(32).toString('base64url');
  gatewayConfig.internalApiToken = internalToken;
  identityConfig.internalApiToken = internalToken;
  documentsConfig.internalApiToken = internalToken;
  const rpcSettings = { natsUrl: gatewayConfig.natsUrl, timeoutMs: gatewayConfig.rpcTimeoutMs };
  // The web app's Google button uses the first Google client id identity accepts, unless set apart.
  gatewayConfig.googleWebClientId ??= identityConfig.googleClientIds?.split(',')[0]?.trim() || undefined;

  const eventBus: EventBus = await createEventBus(gatewayConfig, 'medfolio');
  const services: INestMicroservice[] = [];
  const httpServices: INestApplication[] = [];
  const embed = async (name: 'audit' | 'notifications', module: DynamicModule) => {
    const service = await NestFactory.createMicroservice(module, { ...rpcServerStrategy(name, rpcSettings), bufferLogs: true });
    service.useLogger(service.get(Logger));
    await service.listen();
    services.push(service);
  };
  await embed('audit', AuditAppModule.register({ config: auditConfig, eventBus, http: false }));
  await embed('notifications', NotificationsAppModule.register({ config: notificationsConfig, eventBus, http: false }));
  // identity also serves HTTP (picture uploads, its JWKS) on a loopback port of its own.
  const identity = await createServiceHttpApp(IdentityAppModule.register({ config: identityConfig, eventBus, http: true }));
  identity.connectMicroservice(rpcServerStrategy('identity', rpcSettings), { inheritAppConfig: true });
  await identity.startAllMicroservices();
  await identity.listen({ port: 0, host: '127.0.0.1' });
  gatewayConfig.identityInternalUrl = await identity.getUrl();
  httpServices.push(identity);
  // documents too: the gateway streams document uploads to it over loopback HTTP.
  const documents = await createServiceHttpApp(DocumentsAppModule.register({ config: documentsConfig, eventBus, http: true }));
  documents.connectMicroservice(rpcServerStrategy('documents', rpcSettings), { inheritAppConfig: true });
  await documents.startAllMicroservices();
  await documents.listen({ port: 0, host: '127.0.0.1' });
  gatewayConfig.documentsInternalUrl = await documents.getUrl();
  httpServices.push(documents);

  const rpc = createRpcClient('gateway', rpcSettings);
  await rpc.connect();
  const localJwks = gatewayConfig.jwksUrl ? null : publicJwks(await loadOrCreateSigningKeys(gatewayConfig.dataDir));
  const devMail = !notificationsConfig.smtpUrl;
  const gateway = await createGatewayApp({ config: gatewayConfig, rpc, eventBus, localJwks, devMail });
  const host = embeddedListenHost(process.env);
  await gateway.listen({ port: gatewayConfig.port, host });
  const address = gateway.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : gatewayConfig.port;
  // Links in e-mails (password reset) point at this run's web app unless PUBLIC_BASE_URL says otherwise.
  if (!process.env['PUBLIC_BASE_URL']) identityConfig.publicBaseUrl = `http://localhost:${port}`;

  const mode = [
    gatewayConfig.databaseUrl ? 'PostgreSQL' : 'embedded PGlite',
    gatewayConfig.natsUrl ? 'NATS JetStream' : 'in-process messaging',
  ].join(', ');
  process.stdout.write(`\nMedfolio is running at http://localhost:${port}/  (${mode}; started in ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  process.stdout.write(`API documentation: http://localhost:${port}/api/docs   Stop: Ctrl-C\n`);
  if (devMail) process.stdout.write(`E-mail is not sent (no SMTP_URL): read it at http://localhost:${port}/dev/mail\n`);
  const exposed = exposedDevMailWarning(host, devMail);
  if (exposed) process.stdout.write(exposed);
  process.stdout.write('\n');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping Medfolio...\n`);
    await gateway.close();
    await rpc.close();
    for (const service of [...services, ...httpServices].reverse()) await service.close();
    await eventBus.close();
    await EmbeddedPostgres.stop();
    process.stdout.write('Stopped.\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Medfolio failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
