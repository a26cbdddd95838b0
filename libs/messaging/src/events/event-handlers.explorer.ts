import {
  BadRequestException,
  Inject,
  Injectable,
  Logger,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { createValidationPipe } from '../rpc/validation';
import { InvalidEventError } from './delivery-policy';
import { EVENT_BUS, type ConsumerHandle, type EventBus, type EventEnvelope, type EventHandlerFn } from './event-bus';
import { PROCESSED_MESSAGES, type Once, type ProcessedMessageLog } from './once';
import { ON_EVENT_METADATA, type EventPayloadClass, type OnEventOptions } from './on-event.decorator';

type EventMethod = (event: EventEnvelope, once?: Once) => Promise<void>;

/** The pipe request/reply payloads go through (rpc-controller.ts): the same rules and messages for events. */
const EVENT_VALIDATION = createValidationPipe();

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
  private readonly delivered = new Map<string, EventHandlerFn>();

  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    @Inject(EVENTS_OWN_BUS) private readonly ownsBus: boolean,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Optional() @Inject(PROCESSED_MESSAGES) private readonly processed?: ProcessedMessageLog,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const handlers = this.discover().map((handler) => ({ ...handler, delivery: this.delivery(handler) }));
    for (const { options, delivery } of handlers) this.delivered.set(`${options.stream}/${options.durable}`, delivery);
    for (const { className, method, options, delivery } of handlers) {
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
        delivery,
      );
      this.handles.push(handle);
      this.logger.log(`${options.stream}/${options.durable} -> ${className}.${method}`);
    }
  }

  /**
   * What the bus calls for a durable consumer: the payload validated, then the handler (through the
   * processed-message record when it is `once`). Tests deliver through it to see what the bus does.
   */
  deliveryFor(stream: string, durable: string): EventHandlerFn {
    const delivery = this.delivered.get(`${stream}/${durable}`);
    if (!delivery) throw new Error(`No @OnEvent handler for ${stream}/${durable} (is the application initialised?)`);
    return delivery;
  }

  private delivery({ instance, className, method, options }: DiscoveredHandler): EventHandlerFn {
    const where = `${className}.${method}`;
    const processed = this.processed;
    if (!options.payload) throw new Error(`@OnEvent on ${where}: name the payload's contract class ('payload')`);
    if (options.once && !processed) {
      throw new Error(`@OnEvent on ${where}: 'once' needs the service kit's processed-message record (ServiceKitModule)`);
    }
    return async (event) => {
      const data = await this.validated(classFor(options.payload, event.subject), event, options.durable);
      const validated = { ...event, data };
      if (!options.once || !processed) return instance[method](validated);
      const once: Once = (work) => processed.once(options.durable, event.id, work);
      return instance[method](validated, once);
    };
  }

  /** The payload as its class, or InvalidEventError (logged with ids and rule messages, never values). */
  private async validated(payloadClass: EventPayloadClass, event: EventEnvelope, durable: string): Promise<unknown> {
    try {
      const data: unknown = event.data;
      if (!data || typeof data !== 'object' || Array.isArray(data)) throw new BadRequestException({ message: ['the payload is not an object'] });
      return (await EVENT_VALIDATION.transform(data, { type: 'body', metatype: payloadClass })) as unknown;
    } catch (err) {
      if (!(err instanceof BadRequestException)) throw err;
      const response = err.getResponse() as { message?: unknown };
      const reasons = Array.isArray(response.message) ? response.message.map(String) : [err.message];
      const message = `Invalid ${event.subject} event ${event.id}: ${reasons.join('; ')}`;
      this.logger.warn({ subject: event.subject, eventId: event.id, durable, reasons }, 'invalid event payload: dead-lettered');
      throw new InvalidEventError(message);
    }
  }

  async onModuleDestroy(): Promise<void> {
    const handles = this.handles;
    this.handles = [];
    this.delivered.clear();
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

/** The payload class for a subject: the one class, or the subject's entry of a per-subject map. */
function classFor(payload: OnEventOptions['payload'], subject: string): EventPayloadClass {
  if (typeof payload === 'function') return payload;
  const found = payload[subject];
  if (!found) throw new InvalidEventError(`No payload class for subject ${subject}`);
  return found;
}
