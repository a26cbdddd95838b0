import { ServerNats, type NatsOptions } from '@nestjs/microservices';

/** The parts of nats.js' subscription and connection a drain uses (ServerNats keeps them private). */
interface DrainableSubscription {
  drain(): Promise<void>;
  isClosed(): boolean;
}
interface FlushableConnection {
  flush(): Promise<void>;
  isClosed(): boolean;
}

/**
 * Nest's NATS server with a graceful stop. Nest's own `close()` closes the connection at once: a
 * request being handled at that moment never gets its reply (the caller waits for its time-out, a
 * 504 at the gateway). `drain()` instead
 * 1. drains every subscription: the server is told to stop delivering, so the queue group hands new
 *    requests to the other replicas, and the messages already on their way here are still handled;
 * 2. waits (at most `drainTimeoutMs`) until every request taken has sent its final reply;
 * 3. flushes the replies to the server.
 * `close()` drains first (once), then closes as Nest does.
 */
export class DrainingServerNats extends ServerNats {
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private draining?: Promise<void>;

  constructor(
    options: NonNullable<NatsOptions['options']>,
    private readonly drainTimeoutMs = 10_000,
  ) {
    super(options);
  }

  /** Requests taken whose final reply has not been sent yet. */
  get pendingRequests(): number {
    return this.inFlight;
  }

  // Every request with a reply subject is counted from its publisher's creation to its last packet
  // (Nest sends the reply, then a packet marked isDisposed; an unknown pattern gets one error packet).
  override getPublisher(...args: Parameters<ServerNats['getPublisher']>): ReturnType<ServerNats['getPublisher']> {
    const publish = super.getPublisher(...args);
    const [natsMsg] = args;
    if (!natsMsg.reply) return publish;
    this.inFlight += 1;
    let settled = false;
    const settle = () => {
      if (settled) return;
      settled = true;
      this.inFlight -= 1;
      if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    };
    return (packet: { isDisposed?: boolean; status?: string }) => {
      try {
        return publish(packet);
      } finally {
        if (packet.isDisposed || packet.status === 'error') settle();
      }
    };
  }

  drain(): Promise<void> {
    this.draining ??= this.drainOnce();
    return this.draining;
  }

  private async drainOnce(): Promise<void> {
    const self = this as unknown as { subscriptions: DrainableSubscription[]; natsClient: FlushableConnection | null };
    const connection = self.natsClient;
    if (!connection || connection.isClosed()) return;
    await Promise.all(self.subscriptions.filter((sub) => !sub.isClosed()).map((sub) => sub.drain().catch(() => undefined)));
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.drainTimeoutMs);
        this.idleWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (!connection.isClosed()) await connection.flush().catch(() => undefined);
  }

  override async close(): Promise<void> {
    await this.drain();
    await super.close();
  }
}
