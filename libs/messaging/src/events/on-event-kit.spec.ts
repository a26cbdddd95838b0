import { Global, Injectable, Logger, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IsIn, IsString } from 'class-validator';
import { HEADER, deadLetterSubject, type EventEnvelope } from './event-bus';
import { resolveConsumerSpec, runDelivery } from './delivery-policy';
import { EventHandlersExplorer } from './event-handlers.explorer';
import { EventsModule } from './events.module';
import { InProcessEventBus } from './in-process-event-bus';
import { InvalidEventError } from './delivery-policy';
import { PROCESSED_MESSAGES, type Once, type ProcessedMessageLog } from './once';
import { OnEvent, type OnEventOptions } from './on-event.decorator';

const STREAM = { name: 'KIT_TEST', subjects: ['kit.>'] };
const DLQ = { name: 'KIT_DLQ', subjects: ['kitdlq.>'] };

/** A contract class, as libs/contracts defines event payloads. */
class ThingCounted {
  @IsString({ message: 'thing must be a string' })
  thing!: string;

  @IsIn(['up', 'down'], { message: 'direction must be up or down' })
  direction!: 'up' | 'down';
}

class ThingRemoved {
  @IsString({ message: 'thing must be a string' })
  thing!: string;
}

/** The kit's record of processed messages in memory: (consumer, id) kept only if the work did not throw. */
class MemoryProcessedMessages implements ProcessedMessageLog<string[]> {
  readonly ids = new Set<string>();
  readonly committed: string[] = [];

  async once(consumer: string, messageId: string, work: (tx: string[]) => Promise<unknown>): Promise<boolean> {
    const key = `${consumer}:${messageId}`;
    if (this.ids.has(key)) return false;
    this.ids.add(key);
    const tx: string[] = [];
    try {
      await work(tx);
    } catch (error) {
      this.ids.delete(key);
      throw error;
    }
    this.committed.push(...tx);
    return true;
  }
}

@Injectable()
class Counter {
  readonly received: unknown[] = [];
  readonly calls: number[] = [];
  failAfterCommit = false;

  @OnEvent({ stream: STREAM.name, durable: 'counter', subjects: ['kit.counted'], payload: ThingCounted, once: true, maxDeliver: 3, backoffMs: [5] })
  async count(event: EventEnvelope<ThingCounted>, once: Once<string[]>): Promise<void> {
    this.calls.push(event.deliveryCount);
    this.received.push(event.data);
    await once(async (tx) => {
      tx.push(`${event.data.thing}:${event.data.direction}`);
    });
    if (this.failAfterCommit && event.deliveryCount === 1) throw new Error('crashed after the commit');
  }

  @OnEvent({ stream: STREAM.name, durable: 'per-subject', subjects: ['kit.counted', 'kit.removed'], payload: { 'kit.counted': ThingCounted, 'kit.removed': ThingRemoved } })
  async any(event: EventEnvelope<ThingCounted | ThingRemoved>): Promise<void> {
    this.received.push({ subject: event.subject, data: event.data });
  }
}

async function boot(processed: ProcessedMessageLog | null, providers: Array<new (...args: never[]) => object> = [Counter]) {
  const bus = new InProcessEventBus({ deadLetterPrefix: 'kitdlq' });
  @Global()
  @Module({
    providers: processed ? [{ provide: PROCESSED_MESSAGES, useValue: processed }] : [],
    exports: processed ? [PROCESSED_MESSAGES] : [],
  })
  class KitModule {}
  const moduleRef = await Test.createTestingModule({
    imports: [KitModule, EventsModule.forRoot({ useFactory: () => bus, streams: [STREAM, DLQ] })],
    providers,
  }).compile();
  return { moduleRef, bus };
}

function envelope(data: unknown, overrides: Partial<EventEnvelope> = {}): EventEnvelope {
  return { id: 'm-1', subject: 'kit.counted', data, headers: {}, deliveryCount: 1, seq: 1, ...overrides };
}

async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('@OnEvent in the service kit: validated payloads, messages applied once', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('hands the handler the payload as its contract class, unknown fields dropped', async () => {
    const { moduleRef } = await boot(new MemoryProcessedMessages());
    await moduleRef.init();
    const deliver = moduleRef.get(EventHandlersExplorer).deliveryFor(STREAM.name, 'counter');
    await deliver(envelope({ thing: 'pills', direction: 'up', note: 'not in the contract' }));
    const counter = moduleRef.get(Counter);
    expect(counter.received).toEqual([{ thing: 'pills', direction: 'up' }]);
    expect(counter.received[0]).toBeInstanceOf(ThingCounted);
    await moduleRef.close();
  });

  it('refuses an invalid payload before the handler, saying which rules failed and none of the values', async () => {
    const { moduleRef } = await boot(new MemoryProcessedMessages());
    await moduleRef.init();
    const deliver = moduleRef.get(EventHandlersExplorer).deliveryFor(STREAM.name, 'counter');
    const attempt = deliver(envelope({ thing: 42, direction: 'sideways-secret' }));
    await expect(attempt).rejects.toBeInstanceOf(InvalidEventError);
    await expect(attempt).rejects.toThrow('Invalid kit.counted event m-1: thing must be a string; direction must be up or down');
    await expect(attempt).rejects.not.toThrow(/sideways-secret/);
    await expect(deliver(envelope('just text'))).rejects.toThrow('the payload is not an object');
    expect(moduleRef.get(Counter).calls).toEqual([]);
    await moduleRef.close();
  });

  it('picks the payload class by subject when a consumer takes several', async () => {
    const { moduleRef } = await boot(new MemoryProcessedMessages());
    await moduleRef.init();
    const deliver = moduleRef.get(EventHandlersExplorer).deliveryFor(STREAM.name, 'per-subject');
    await deliver(envelope({ thing: 'pills' }, { subject: 'kit.removed' }));
    await expect(deliver(envelope({ thing: 'pills' }))).rejects.toThrow('direction must be up or down');
    expect(moduleRef.get(Counter).received).toEqual([{ subject: 'kit.removed', data: { thing: 'pills' } }]);
    await moduleRef.close();
  });

  it('dead-letters an invalid event at its first delivery (no retries) and goes on with the next', async () => {
    const { moduleRef, bus } = await boot(new MemoryProcessedMessages());
    await moduleRef.init();
    const letters: EventEnvelope[] = [];
    await bus.consume({ stream: DLQ.name, durable: 'dlq-reader', filterSubjects: [deadLetterSubject(STREAM.name, 'kitdlq')] }, async (event) => {
      if (event.headers[HEADER.dlqConsumer] === 'counter') letters.push(event);
    });
    await bus.publish('kit.counted', { thing: 'pills' });
    await bus.publish('kit.counted', { thing: 'pills', direction: 'down' });
    const counter = moduleRef.get(Counter);
    await eventually(() => letters.length === 1 && counter.calls.length === 1);
    expect(letters[0]!.headers[HEADER.dlqDeliveries]).toBe('1');
    expect(letters[0]!.headers[HEADER.dlqError]).toContain('direction must be up or down');
    expect(counter.received).toContainEqual({ thing: 'pills', direction: 'down' });
    expect(counter.received).not.toContainEqual({ thing: 'pills' });
    await moduleRef.close();
  });

  it('applies a redelivered message once: the record is kept per durable and message id', async () => {
    const processed = new MemoryProcessedMessages();
    const { moduleRef, bus } = await boot(processed);
    await moduleRef.init();
    const counter = moduleRef.get(Counter);
    counter.failAfterCommit = true;
    await bus.publish('kit.counted', { thing: 'pills', direction: 'up' }, { msgId: 'msg-7' });
    await eventually(() => counter.calls.length === 2);
    // Delivered twice (the first failed after its work committed), applied once.
    expect(counter.calls).toEqual([1, 2]);
    expect(processed.committed).toEqual(['pills:up']);
    expect([...processed.ids]).toEqual(['counter:msg-7']);
    await moduleRef.close();
  });

  it('refuses to start a handler that names no payload class', async () => {
    @Injectable()
    class Unchecked {
      @OnEvent({ stream: STREAM.name, durable: 'unchecked', subjects: ['kit.counted'] } as unknown as OnEventOptions)
      async handle(): Promise<void> {
        return undefined;
      }
    }
    const { moduleRef } = await boot(new MemoryProcessedMessages(), [Unchecked]);
    await expect(moduleRef.init()).rejects.toThrow(/Unchecked\.handle: name the payload's contract class/);
    await moduleRef.close();
  });

  it("refuses to start a 'once' handler without the kit's record of processed messages", async () => {
    const { moduleRef } = await boot(null);
    await expect(moduleRef.init()).rejects.toThrow(/Counter\.count: 'once' needs the service kit/);
    await moduleRef.close();
  });
});

describe('runDelivery and InvalidEventError', () => {
  const spec = resolveConsumerSpec({ stream: 'S', durable: 'd', filterSubjects: ['s.>'], maxDeliver: 5 });

  it('dead-letters an invalid event at once, and retries other failures', async () => {
    const event = () => envelope({});
    await expect(runDelivery(spec, 1, event, () => Promise.reject(new InvalidEventError('bad')))).resolves.toEqual({ kind: 'dead-letter', error: 'bad' });
    await expect(runDelivery(spec, 1, event, () => Promise.reject(new Error('down')))).resolves.toMatchObject({ kind: 'retry', error: 'down' });
  });
});
