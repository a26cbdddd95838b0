import { Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EVENT_BUS, type EventBus, type StreamSpec } from './event-bus';
import { EventHandlersExplorer } from './event-handlers.explorer';

export interface EventsModuleOptions extends Pick<FactoryProvider<EventBus>, 'useFactory' | 'inject'> {
  /** Modules the factory's `inject` tokens come from. */
  imports?: ModuleMetadata['imports'];
  /** Streams this service uses, ensured (idempotently) before anyone gets the bus. */
  streams?: StreamSpec[];
}

/**
 * Provides the process's EVENT_BUS (globally) and wires every `@OnEvent` method to it.
 * The module owns the bus it builds: it closes it on application shutdown.
 *
 * @example
 *   EventsModule.forRoot({
 *     useFactory: (config: Config) => JetStreamEventBus.connect({ connection: config.natsUrl, name: 'audit' }),
 *     inject: [Config],
 *     streams: [STREAMS.AUDIT, STREAMS.DLQ],
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
        EventHandlersExplorer,
      ],
      exports: [EVENT_BUS],
    };
  }
}
