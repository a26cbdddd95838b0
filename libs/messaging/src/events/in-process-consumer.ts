import { Logger } from '@nestjs/common';
import {
  backoffDelayMs,
  deadLetterHeaders,
  deadLetterMsgId,
  errorMessage,
  runDelivery,
  type Outcome,
  type ResolvedConsumerSpec,
} from './delivery-policy';
import {
  deadLetterSubject,
  type ConsumerHandle,
  type EventEnvelope,
  type EventHandlerFn,
  type Headers,
} from './event-bus';
import type { DurableState, MemoryStream, StoredMessage } from './in-process-stream';

export interface DeadLetterTarget {
  deadLetterPrefix: string;
  /** Publishes an already-serialized payload (the bus's own publish, minus the JSON step). */
  publishRaw(subject: string, payload: string, msgId: string, headers: Headers): Promise<unknown>;
}

/**
 * One handler attached to a durable consumer of the in-process bus: a loop that delivers the
 * next message after the durable's ack floor, waits out redelivery delays, and sleeps until
 * the next publish when there is nothing to do.
 */
export class InProcessConsumer<T> implements ConsumerHandle {
  private readonly logger = new Logger('InProcessEventBus');
  private readonly durable: DurableState;
  private stopped = false;
  private wake?: () => void;
  private readonly loop: Promise<void>;

  constructor(
    private readonly stream: MemoryStream,
    private readonly spec: ResolvedConsumerSpec,
    private readonly handler: EventHandlerFn<T>,
    private readonly deadLetters: DeadLetterTarget,
  ) {
    this.durable = stream.durable(spec.durable);
    if (this.durable.active) throw new Error(`Consumer ${spec.stream}/${spec.durable} already has a handler`);
    this.durable.active = true;
    this.loop = this.run();
  }

  /** Finishes the delivery in progress (its ack included), then detaches the handler. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const unsubscribe = this.stream.onAppend(() => this.wake?.());
    try {
      while (!this.stopped) {
        const msg = this.stream.messageAfter(this.durable.ackFloor, this.spec.filterSubjects);
        if (!msg) {
          // Nothing up to the end is for this consumer: don't scan those messages again.
          this.durable.ackFloor = this.stream.lastSeq;
          await this.sleep();
          continue;
        }
        const retry = this.durable.retry?.seq === msg.seq ? this.durable.retry : undefined;
        const waitMs = (retry?.notBefore ?? 0) - Date.now();
        if (waitMs > 0) {
          await this.sleep(waitMs);
          continue;
        }
        const deliveryCount = (retry?.deliveries ?? 0) + 1;
        this.durable.retry = { seq: msg.seq, deliveries: deliveryCount, notBefore: 0 };
        const outcome = await runDelivery(
          this.spec,
          deliveryCount,
          () => toEnvelope<T>(msg, deliveryCount),
          this.handler,
        );
        await this.settle(msg, deliveryCount, outcome);
      }
    } catch (err) {
      this.logger.error(`Consumer ${this.spec.stream}/${this.spec.durable} stopped: ${errorMessage(err)}`);
    } finally {
      unsubscribe();
      this.durable.active = false;
    }
  }

  private async settle(msg: StoredMessage, deliveryCount: number, outcome: Outcome): Promise<void> {
    const where = `${this.spec.stream}/${this.spec.durable} seq ${msg.seq} (${msg.subject}), delivery ${deliveryCount}`;
    switch (outcome.kind) {
      case 'ack':
        await this.stream.ack(this.spec.durable, msg.seq);
        return;
      case 'retry':
        this.logger.warn(`Handler failed for ${where}; retrying in ${outcome.delayMs} ms: ${outcome.error}`);
        this.retryIn(outcome.delayMs);
        return;
      case 'dead-letter':
        try {
          const source = {
            subject: msg.subject,
            stream: this.spec.stream,
            seq: msg.seq,
            durable: this.spec.durable,
            deliveryCount,
            error: outcome.error,
            headers: msg.headers,
          };
          await this.deadLetters.publishRaw(
            deadLetterSubject(this.spec.stream, this.deadLetters.deadLetterPrefix),
            msg.payload,
            deadLetterMsgId(source),
            deadLetterHeaders(source),
          );
          this.logger.error(`Dead-lettered ${where}: ${outcome.error}`);
          await this.stream.ack(this.spec.durable, msg.seq);
        } catch (err) {
          this.logger.error(`Could not dead-letter ${where}; will retry: ${errorMessage(err)}`);
          this.retryIn(backoffDelayMs(this.spec.backoffMs, deliveryCount));
        }
        return;
    }
  }

  private retryIn(delayMs: number): void {
    if (this.durable.retry) this.durable.retry.notBefore = Date.now() + delayMs;
  }

  /** Waits for `ms`, or (without `ms`) for the next publish; stop() cuts either short. */
  private sleep(ms?: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => done(), ms);
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }
}

function toEnvelope<T>(msg: StoredMessage, deliveryCount: number): EventEnvelope<T> {
  return {
    id: msg.id,
    subject: msg.subject,
    data: JSON.parse(msg.payload) as T,
    headers: { ...msg.headers },
    deliveryCount,
    seq: msg.seq,
  };
}
