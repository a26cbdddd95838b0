import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { EVENT_BUS, type ConsumerHandle, type EventBus, type EventEnvelope } from './event-bus';
import { ON_EVENT_METADATA, type OnEventOptions } from './on-event.decorator';

type EventMethod = (event: EventEnvelope) => Promise<void>;

/** Injection token: true when EventsModule built the bus and so must close it. */
export const EVENTS_OWN_BUS = Symbol('EVENTS_OWN_BUS');

interface DiscoveredHandler {
  instance: Record<string, EventMethod>;
  className: string;
  method: string;
  options: OnEventOptions;
}

/**
 * Finds every `@OnEvent` method among the application's providers and subscribes it through
 * the EVENT_BUS once the application has bootstrapped (so every provider it uses is ready).
 *
 * Shutdown runs in two steps: consumers stop when modules are destroyed (each finishing the
 * event it is handling while the database is still open), and the bus, if EventsModule built
 * it, closes last.
 */
@Injectable()
export class EventHandlersExplorer implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger(EventHandlersExplorer.name);
  private handles: ConsumerHandle[] = [];

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(EVENTS_OWN_BUS) private readonly ownsBus: boolean,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const handlers = this.discover();
    for (const { instance, className, method, options } of handlers) {
      const handle = await this.bus.consume(
        {
          stream: options.stream,
          durable: options.durable,
          filterSubjects: options.subjects,
          maxDeliver: options.maxDeliver,
          backoffMs: options.backoffMs,
          ackWaitMs: options.ackWaitMs,
          maxInFlight: options.maxInFlight,
        },
        (event) => instance[method](event),
      );
      this.handles.push(handle);
      this.logger.log(`${options.stream}/${options.durable} -> ${className}.${method}`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const handles = this.handles;
    this.handles = [];
    await Promise.all(handles.map((handle) => handle.stop()));
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.ownsBus) await this.bus.close();
  }

  private discover(): DiscoveredHandler[] {
    const found: DiscoveredHandler[] = [];
    const durables = new Set<string>();
    // Providers and controllers: in a service, inbound adapters (event consumers) are controllers.
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const isStatic = wrapper.isDependencyTreeStatic();
      // The instance's class (right for factory providers too); the declared class when there
      // is no single instance (request-scoped), only to refuse it below.
      const prototype: unknown = isStatic
        ? typeof wrapper.instance === 'object' && wrapper.instance && Object.getPrototypeOf(wrapper.instance)
        : wrapper.metatype?.prototype;
      if (!prototype || typeof prototype !== 'object') continue;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const target = (prototype as Record<string, unknown>)[method];
        if (typeof target !== 'function') continue;
        const options = this.reflector.get<OnEventOptions | undefined>(ON_EVENT_METADATA, target);
        if (!options) continue;
        const where = `${String(wrapper.name)}.${method}`;
        if (!isStatic) {
          throw new Error(`@OnEvent on ${where}: request-scoped providers cannot consume events`);
        }
        const durable = `${options.stream}/${options.durable}`;
        if (durables.has(durable)) throw new Error(`@OnEvent on ${where}: durable ${durable} is already handled`);
        durables.add(durable);
        found.push({ instance: wrapper.instance, className: String(wrapper.name), method, options });
      }
    }
    return found;
  }
}
