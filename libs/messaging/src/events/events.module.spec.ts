import { Controller, Global, Injectable, Logger, Module, Scope } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { IsOptional, IsString } from 'class-validator';
import { EVENT_BUS, type EventBus, type EventEnvelope } from './event-bus';
import { EventsModule } from './events.module';
import { InProcessEventBus } from './in-process-event-bus';
import { OnEvent } from './on-event.decorator';

const STREAM = { name: 'MODULE_TEST', subjects: ['module.>'] };

/** The events' payload contract (every @OnEvent names one). */
class Recorded {
  @IsOptional()
  @IsString()
  what?: string;
}

/** A dependency, to show handlers run with `this` bound to the provider. */
@Injectable()
class Journal {
  readonly entries: string[] = [];
}

@Injectable()
class AuditWriter {
  constructor(private readonly journal: Journal) {}

  @OnEvent({ stream: STREAM.name, durable: 'writer', subjects: ['module.recorded'], payload: Recorded, maxDeliver: 3, backoffMs: [10] })
  async record(event: EventEnvelope<{ what: string }>): Promise<void> {
    this.journal.entries.push(`recorded:${event.data.what}`);
  }

  @OnEvent({ stream: STREAM.name, durable: 'counter', subjects: ['module.>'], payload: Recorded })
  async count(event: EventEnvelope): Promise<void> {
    this.journal.entries.push(`counted:${event.subject}`);
  }

  notAHandler(): void {
    this.journal.entries.push('never called by the bus');
  }
}

/** Takes a while, to show shutdown lets the event in progress finish. */
@Injectable()
class SlowHandler {
  started = false;
  finished = false;

  @OnEvent({ stream: STREAM.name, durable: 'slow', subjects: ['module.slow'], payload: Recorded })
  async handle(): Promise<void> {
    this.started = true;
    await new Promise((resolve) => setTimeout(resolve, 100));
    this.finished = true;
  }
}

@Injectable()
class DuplicateWriter {
  @OnEvent({ stream: STREAM.name, durable: 'writer', subjects: ['module.other'], payload: Recorded })
  async record(): Promise<void> {
    return undefined;
  }
}

async function boot(providers: Array<new (...args: never[]) => object>) {
  const bus = new InProcessEventBus();
  const consume = jest.spyOn(bus, 'consume');
  const moduleRef = await Test.createTestingModule({
    imports: [EventsModule.forRoot({ useFactory: () => bus, streams: [STREAM] })],
    providers,
  }).compile();
  return { moduleRef, bus, consume };
}

async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

/** Starts the module, closes it while SlowHandler handles an event, and expects the event to have finished. */
async function closeDuringSlowEvent(moduleRef: TestingModule, bus: EventBus): Promise<void> {
  await moduleRef.init();
  const slow = moduleRef.get(SlowHandler);
  await bus.publish('module.slow', {});
  await eventually(() => slow.started);
  await moduleRef.close();
  expect(slow.finished).toBe(true);
}

describe('EventsModule', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('subscribes every @OnEvent method on bootstrap, with its options', async () => {
    const { moduleRef, bus, consume } = await boot([Journal, AuditWriter]);
    expect(moduleRef.get<EventBus>(EVENT_BUS)).toBe(bus);
    await moduleRef.init();

    expect(consume.mock.calls.map(([spec]) => spec)).toEqual([
      expect.objectContaining({
        stream: STREAM.name,
        durable: 'writer',
        filterSubjects: ['module.recorded'],
        maxDeliver: 3,
        backoffMs: [10],
      }),
      expect.objectContaining({ stream: STREAM.name, durable: 'counter', filterSubjects: ['module.>'] }),
    ]);
    await bus.publish('module.recorded', { what: 'login' });
    await bus.publish('module.viewed', { what: 'page' });
    const journal = moduleRef.get(Journal);
    await eventually(() => journal.entries.length === 3);
    expect([...journal.entries].sort()).toEqual(['counted:module.recorded', 'counted:module.viewed', 'recorded:login']);
    await moduleRef.close();
  });

  it('also subscribes @OnEvent methods of controllers (the inbound adapters of a service)', async () => {
    @Controller()
    class RecordsController {
      readonly seen: string[] = [];
      @OnEvent({ stream: STREAM.name, durable: 'records-controller', subjects: ['module.recorded'], payload: Recorded })
      async onRecorded(event: EventEnvelope<{ what: string }>): Promise<void> {
        this.seen.push(event.data.what);
      }
    }
    const bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({
      imports: [EventsModule.forRoot({ useFactory: () => bus, streams: [STREAM] })],
      controllers: [RecordsController],
    }).compile();
    await moduleRef.init();
    await bus.publish('module.recorded', { what: 'read' });
    const controller = moduleRef.get(RecordsController);
    await eventually(() => controller.seen.length === 1);
    expect(controller.seen).toEqual(['read']);
    await moduleRef.close();
  });

  it('on shutdown, lets the event in progress finish, then closes the bus', async () => {
    const { moduleRef, bus } = await boot([SlowHandler]);
    await closeDuringSlowEvent(moduleRef, bus);
    await expect(bus.isHealthy()).resolves.toBe(false);
  });

  it('forHandlers() uses a bus provided elsewhere and leaves closing it to its owner', async () => {
    const bus = new InProcessEventBus();
    await bus.ensureStream(STREAM);
    @Global()
    @Module({ providers: [{ provide: EVENT_BUS, useValue: bus }], exports: [EVENT_BUS] })
    class SharedBusModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [SharedBusModule, EventsModule.forHandlers()],
      providers: [SlowHandler],
    }).compile();
    await closeDuringSlowEvent(moduleRef, bus);
    await expect(bus.isHealthy()).resolves.toBe(true);
    await bus.close();
  });

  it('finds handlers on instances built by a factory provider', async () => {
    const bus = new InProcessEventBus();
    const moduleRef = await Test.createTestingModule({
      imports: [EventsModule.forRoot({ useFactory: () => bus, streams: [STREAM] })],
      providers: [{ provide: 'SLOW', useFactory: () => new SlowHandler() }],
    }).compile();
    await moduleRef.init();
    await bus.publish('module.slow', {});
    const slow = moduleRef.get<SlowHandler>('SLOW');
    await eventually(() => slow.finished);
    await moduleRef.close();
  });

  it('refuses @OnEvent on a request-scoped provider', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest {
      @OnEvent({ stream: STREAM.name, durable: 'per-request', subjects: ['module.x'], payload: Recorded })
      async handle(): Promise<void> {
        return undefined;
      }
    }
    const { moduleRef } = await boot([PerRequest]);
    await expect(moduleRef.init()).rejects.toThrow(/request-scoped/);
    await moduleRef.close();
  });

  it('refuses two handlers for the same durable', async () => {
    const { moduleRef } = await boot([Journal, AuditWriter, DuplicateWriter]);
    await expect(moduleRef.init()).rejects.toThrow(/MODULE_TEST\/writer is already handled/);
    await moduleRef.close();
  });

  it('ensures the configured streams before handing out the bus', async () => {
    const { moduleRef, bus } = await boot([]);
    await expect(moduleRef.get<EventBus>(EVENT_BUS).publish('module.x', { n: 1 })).resolves.toMatchObject({
      stream: STREAM.name,
      seq: 1,
    });
    await moduleRef.close();
    await expect(bus.isHealthy()).resolves.toBe(false);
  });
});
