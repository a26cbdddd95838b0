import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import type { CommonConfig } from '@medfolio/config';
import type { ServiceName } from '@medfolio/contracts';
import { DrainingServerNats, rpcServerStrategy, type EventBus } from '@medfolio/messaging';
import { createEventBus } from '../event-bus.factory';
import { tuneGarbageCollector } from '../gc-tuning';
import { loadConfigOrExit } from '../load-config-or-exit';
import { createServiceHttpApp } from '../service-http-app';
import { stopEmbeddedDatabase } from './embedded-database';
import { runMigrations, type ServiceKitOptions } from './service-kit.module';

/** What the one-process launcher needs of a service (apps/medfolio lists one per service). */
export interface EmbeddableService<C extends CommonConfig = CommonConfig> {
  name: ServiceName;
  config: new () => C;
  /** The service's root module for a given config and bus. (A method, so a list may hold services of different configs.) */
  module(options: { config: C; eventBus: EventBus; http: boolean }): DynamicModule;
  /**
   * Serves internal HTTP routes besides request/reply (uploads the gateway streams to it). In one
   * process the launcher gives it a loopback port and hands its URL to the gateway
   * (`GatewayConfig.<name>InternalUrl`).
   */
  internalHttp?: boolean;
  /**
   * Other services' internal HTTP it calls (summary reads documents' files). In one process the
   * launcher sets its `<name>InternalUrl` for each and the internal token; it must come after them
   * in the launcher's list.
   */
  callsInternalHttp?: readonly ServiceName[];
}

export interface ServiceDefinition<C extends CommonConfig> extends EmbeddableService<C> {
  /** What `migrate` needs: entities, migrations, schema. */
  database: (config: C) => Omit<ServiceKitOptions, 'eventBus' | 'http'>;
  /** Extra commands, e.g. audit's `verify`. Each returns the process exit code. */
  commands?: Record<string, (config: C) => Promise<number>>;
}

/**
 * The entry point of every service process (`node dist/apps/<service>/src/main.js [command]`):
 * - `migrate`: apply the service's migrations and exit (the Kubernetes Job runs this);
 * - a service command (e.g. `verify`);
 * - nothing: serve. Request/reply on NATS (queue group = service name), durable events on JetStream,
 *   and HTTP on PORT for /health/live, /health/ready and /metrics.
 */
export async function runServiceMain<C extends CommonConfig>(definition: ServiceDefinition<C>, argv = process.argv.slice(2)): Promise<void> {
  const config = loadConfigOrExit(definition.config);
  tuneGarbageCollector(config.gcMarkingTriggers);
  const command = argv[0];
  if (command === 'migrate') {
    const applied = await runMigrations(definition.database(config));
    process.stdout.write(`${definition.name}: ${applied.length} migration(s) applied${applied.length ? `: ${applied.join(', ')}` : ''}\n`);
    await stopEmbeddedDatabase();
    return;
  }
  if (command) {
    const run = definition.commands?.[command];
    if (!run) {
      const known = ['migrate', ...Object.keys(definition.commands ?? {})].join(', ');
      process.stderr.write(`Unknown command "${command}". Commands: ${known}\n`);
      process.exit(2);
    }
    process.exitCode = await run(config);
    await stopEmbeddedDatabase();
    return;
  }
  const eventBus = await createEventBus(config, definition.name);
  const app = await createServiceHttpApp(definition.module({ config, eventBus, http: true }));
  const rpc = rpcServerStrategy(definition.name, { natsUrl: config.natsUrl, timeoutMs: config.rpcTimeoutMs });
  app.connectMicroservice(rpc, { inheritAppConfig: true });
  // No app.enableShutdownHooks(): Nest's own SIGTERM handler would close everything at once, in
  // parallel with the drain below. stop() runs the same hooks (app.close()), in order.
  await app.startAllMicroservices();
  await app.listen({ port: config.port, host: config.host });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Kubernetes has already taken the pod out of its Service and waited the preStop sleep. First
      // drain request/reply: NATS hands new requests to the other replicas, the ones taken here
      // finish and are answered. Then app.close(): HTTP stops after its in-flight requests (Fastify
      // waits), the modules' shutdown hooks run (database pools) and the NATS connection closes.
      if (rpc.strategy instanceof DrainingServerNats) await rpc.strategy.drain();
      await app.close();
      await eventBus.close();
      await stopEmbeddedDatabase();
    })();
    stopping.then(
      () => process.exit(process.exitCode ?? 0),
      (error: unknown) => {
        process.stderr.write(`${definition.name}: shutdown failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  app.get(Logger).log(`${definition.name} serving on port ${config.port}`);
}
