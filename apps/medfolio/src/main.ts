import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { publicBaseUrlOf, writesLinks, type CommonConfig } from '@medfolio/config';
import { createRpcClient, rpcServerStrategy, type EventBus } from '@medfolio/messaging';
import { EmbeddedPostgres } from '@medfolio/persistence/embedded';
import { createEventBus, createServiceHttpApp, loadConfigOrExit, tuneGarbageCollector } from '@medfolio/runtime';
import { type EmbeddableService } from '@medfolio/runtime/service-kit';
import { loadOrCreateSigningKeys, publicJwks } from '@medfolio/security';
import { createGatewayApp, GatewayConfig } from '@medfolio/gateway-app';
import { IDENTITY_SERVICE } from '@medfolio/identity-app';
import { NOTIFICATIONS_SERVICE } from '@medfolio/notifications-app';
import { EMBEDDED_SERVICES } from './services';
import { checkStartOrder, tellInternalUrl } from './internal-http';
import { devMailKey, embeddedListenHost, exposedDevMailWarning } from './listen-host';

/** Each service's loaded config, the one instance its module holds (the launcher fills in run-time values). */
class Configs {
  private readonly loaded = new Map<EmbeddableService, CommonConfig>();

  load(service: EmbeddableService): CommonConfig {
    const config = loadConfigOrExit(service.config);
    this.loaded.set(service, config);
    return config;
  }

  /** The base URL of every link, for every service whose config writes links (WithPublicUrl). */
  useLinkBase(url: string): string {
    for (const config of this.loaded.values()) if (writesLinks(config)) config.publicBaseUrl = url;
    return url;
  }

  of<C extends CommonConfig>(service: EmbeddableService<C>): C {
    const config = this.loaded.get(service as unknown as EmbeddableService);
    if (!config) throw new Error(`${service.name} is not in EMBEDDED_SERVICES`);
    return config as C;
  }
}

/**
 * `npm start`: the whole product in ONE process. Every service runs as its own Nest application
 * (its own DI container, as if it were a separate process) and they talk through the same
 * request/reply and event interfaces as in Kubernetes: in-process transports and PGlite by default,
 * or NATS and Postgres when NATS_URL / DATABASE_URL are set. The services come from one list
 * (./services.ts); only what joins them to the gateway is written here.
 */
async function main(): Promise<void> {
  const started = Date.now();
  const gatewayConfig = loadConfigOrExit(GatewayConfig);
  const configs = new Configs();
  for (const service of EMBEDDED_SERVICES) configs.load(service);
  // One process, one heap: the gateway's setting applies to all of it.
  tuneGarbageCollector(gatewayConfig.gcMarkingTriggers);
  // Uploads stream from the gateway to services' internal HTTP endpoints, on loopback here,
  // authenticated by a shared token (random for this run unless INTERNAL_API_TOKEN is set).
  const internalToken = gatewayConfig.internalApiToken ?? randomBytes(32).toString('base64url');
  gatewayConfig.internalApiToken = internalToken;
  checkStartOrder(EMBEDDED_SERVICES);
  for (const service of EMBEDDED_SERVICES) {
    if (service.internalHttp || service.callsInternalHttp?.length) {
      (configs.of(service) as { internalApiToken?: string }).internalApiToken = internalToken;
    }
  }
  // GET /api/health reports the services this process runs, unless GATEWAY_SERVICES says otherwise.
  if (!process.env['GATEWAY_SERVICES']) gatewayConfig.services = EMBEDDED_SERVICES.map((service) => service.name).join(',');
  const rpcSettings = { natsUrl: gatewayConfig.natsUrl, timeoutMs: gatewayConfig.rpcTimeoutMs };
  const identityConfig = configs.of(IDENTITY_SERVICE);
  // The web app's Google button uses the first Google client id identity accepts, unless set apart.
  gatewayConfig.googleWebClientId ??= identityConfig.googleClientIds?.split(',')[0]?.trim() || undefined;

  // Every link any service writes (e-mails, referral and share links, SHL payloads and file
  // locations, the wallet pass's web service) starts with one base URL: PUBLIC_BASE_URL, else where
  // this process listens. Set before the services start (outboxes may send mail at once), and again
  // once the gateway listens, when PORT=0 has picked the port.
  const host = embeddedListenHost(process.env);
  configs.useLinkBase(publicBaseUrlOf(process.env, { host, port: gatewayConfig.port }));

  const eventBus: EventBus = await createEventBus(gatewayConfig, 'medfolio');
  const running: INestApplicationContext[] = [];
  for (const service of EMBEDDED_SERVICES) {
    const config = configs.of(service);
    if (service.internalHttp) {
      // Request/reply plus internal HTTP on a loopback port of its own.
      const app = await createServiceHttpApp(service.module({ config, eventBus, http: true }));
      app.connectMicroservice(rpcServerStrategy(service.name, rpcSettings), { inheritAppConfig: true });
      await app.startAllMicroservices();
      await app.listen({ port: 0, host: '127.0.0.1' });
      const url = await app.getUrl();
      tellInternalUrl(gatewayConfig, 'gateway', service.name, url);
      for (const caller of EMBEDDED_SERVICES.filter((s) => s.callsInternalHttp?.includes(service.name))) {
        tellInternalUrl(configs.of(caller), caller.name, service.name, url);
      }
      running.push(app);
    } else {
      const app = await NestFactory.createMicroservice(service.module({ config, eventBus, http: false }), {
        ...rpcServerStrategy(service.name, rpcSettings),
        bufferLogs: true,
      });
      app.useLogger(app.get(Logger));
      await app.listen();
      running.push(app);
    }
  }

  const rpc = createRpcClient('gateway', rpcSettings);
  await rpc.connect();
  const localJwks = gatewayConfig.jwksUrl ? null : publicJwks(await loadOrCreateSigningKeys(gatewayConfig.dataDir));
  const devMail = !configs.of(NOTIFICATIONS_SERVICE).smtpUrl;
  // The dev mailbox answers only requests that present this run's secret (printed below).
  const mailKey = devMail ? devMailKey(process.env) : null;
  const gateway = await createGatewayApp({ config: gatewayConfig, rpc, eventBus, localJwks, devMailKey: mailKey });
  await gateway.listen({ port: gatewayConfig.port, host });
  const address = gateway.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : gatewayConfig.port;
  // Now the port is known even when PORT=0 asked for any free one.
  const linkBase = configs.useLinkBase(publicBaseUrlOf(process.env, { host, port }));

  const mode = [
    identityConfig.databaseUrl ? 'PostgreSQL' : 'embedded PGlite',
    gatewayConfig.natsUrl ? 'NATS JetStream' : 'in-process messaging',
  ].join(', ');
  process.stdout.write(`\nMedfolio is running at http://localhost:${port}/  (${mode}; started in ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
  process.stdout.write(`API documentation: http://localhost:${port}/api/docs   Stop: Ctrl-C\n`);
  if (linkBase !== `http://localhost:${port}`) process.stdout.write(`Links in e-mails and shared links start with ${linkBase}\n`);
  if (mailKey) process.stdout.write(`E-mail is not sent (no SMTP_URL): read it at http://localhost:${port}/dev/mail?key=${mailKey}\n`);
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
    for (const service of [...running].reverse()) await service.close();
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
