import { Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EVENT_BUS, type EventBus, type StreamSpec } from './event-bus';
import { EVENTS_OWN_BUS, EventHandlersExplorer } from './event-handlers.explorer';

export interface EventsModuleOptions extends Pick<FactoryProvider<EventBus>, 'useFactory' | 'inject'> {
  /** Modules the factory's `inject` tokens come from. */
  imports?: ModuleMetadata['imports'];
  /** Streams this service uses, ensured (idempotently) before anyone gets the bus. */
  streams?: StreamSpec[];
}

/**
 * Wires every `@OnEvent` provider method to the EVENT_BUS. Two ways:
 * - `forRoot(options)` also builds and provides the bus (globally), and closes it on shutdown;
 * - `forHandlers()` uses the EVENT_BUS another global module provides, whose owner closes it
 *   (e.g. one bus shared by all the services of the one-process mode).
 *
 * @example
 *   EventsModule.forRoot({
 *     useFactory: (config: Config) => JetStreamEventBus.connect({ connection: config.natsUrl, name: 'audit' }),
 *     inject: [Config],
 *     streams: [{ name: 'DOCUMENTS', subjects: ['documents.>'] }],
 *   })
 */
@Module({})
export class EventsModule {
  static forRoot(options: EventsModuleOptions): DynamicModule {
    return {
      module: EventsModule,
      global: true,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [
        {
          provide: EVENT_BUS,
          inject: options.inject ?? [],
          useFactory: async (...deps: unknown[]): Promise<EventBus> => {
            const bus = await options.useFactory(...deps);
            try {
              for (const stream of options.streams ?? []) await bus.ensureStream(stream);
            } catch (err) {
              await bus.close();
              throw err;
            }
            return bus;
          },
        },
        { provide: EVENTS_OWN_BUS, useValue: true },
        EventHandlersExplorer,
      ],
      exports: [EVENT_BUS],
    };
  }

  static forHandlers(): DynamicModule {
    return {
      module: EventsModule,
      imports: [DiscoveryModule],
      providers: [{ provide: EVENTS_OWN_BUS, useValue: false }, EventHandlersExplorer],
    };
  }
}
