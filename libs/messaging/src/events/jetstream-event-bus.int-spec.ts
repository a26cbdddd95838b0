import { randomBytes } from 'node:crypto';
import { connect } from '@nats-io/transport-node';
import { JetStreamApiCodes, JetStreamApiError, jetstreamManager } from '@nats-io/jetstream';
import { describeEventBusContract } from './event-bus.contract';
import type { EventBus } from './event-bus';
import { JetStreamEventBus } from './jetstream-event-bus';

const natsUrl = process.env['NATS_URL'] ?? 'nats://127.0.0.1:4222';
/** A running system's `DLQ` stream may own `dlq.>` on this server: dead-letter elsewhere. */
const deadLetterPrefix = `dlqtest${randomBytes(4).toString('hex')}`;
const connectBus = () => JetStreamEventBus.connect({ connection: natsUrl, timeoutMs: 2000, deadLetterPrefix });

describeEventBusContract(
  'JetStreamEventBus',
  async () => {
    const buses: EventBus[] = [await connectBus()];
    return {
      bus: buses[0],
      deadLetterPrefix,
      restart: async () => {
        await buses[buses.length - 1].close();
        buses.push(await connectBus());
        return buses[buses.length - 1];
      },
      dispose: async (streams) => {
        await Promise.all(buses.map((bus) => bus.close()));
        await deleteStreams(streams);
      },
    };
  },
  { survivesRestart: true },
);

describe('JetStreamEventBus consumer settings', () => {
  it('keeps ack_wait equal to backoff[0] and max_deliver above the backoff length', async () => {
    const bus = await JetStreamEventBus.connect({ connection: natsUrl });
    const name = `SETTINGS_${randomBytes(4).toString('hex')}`;
    try {
      await bus.ensureStream({ name, subjects: [`${name.toLowerCase()}.>`] });
      const handle = await bus.consume(
        {
          stream: name,
          durable: 'cfg',
          filterSubjects: [`${name.toLowerCase()}.>`],
          maxDeliver: 2,
          backoffMs: [100, 200, 300],
        },
        async () => undefined,
      );
      await handle.stop();
      const nc = await connect({ servers: natsUrl });
      const info = await (await jetstreamManager(nc)).consumers.info(name, 'cfg');
      await nc.close();
      expect(info.config.ack_policy).toBe('explicit');
      expect(info.config.max_ack_pending).toBe(1);
      expect(info.config.max_deliver).toBeGreaterThan(info.config.backoff!.length);
      expect(info.config.ack_wait).toBe(info.config.backoff![0]);
      // Changed settings on a later start update the durable in place.
      const again = await bus.consume(
        { stream: name, durable: 'cfg', filterSubjects: [`${name.toLowerCase()}.a`], maxDeliver: 7, backoffMs: [100] },
        async () => undefined,
      );
      await again.stop();
      const nc2 = await connect({ servers: natsUrl });
      const updated = await (await jetstreamManager(nc2)).consumers.info(name, 'cfg');
      await nc2.close();
      expect(updated.config.filter_subject).toBe(`${name.toLowerCase()}.a`);
      expect(updated.config.backoff).toHaveLength(1);
    } finally {
      await bus.close();
      await deleteStreams([name]);
    }
  });
});

describe('JetStreamEventBus consumer with maxInFlight', () => {
  it('hands out up to maxInFlight messages at once, each acked once, a failing one not holding back the rest', async () => {
    const bus = await connectBus();
    const name = `INFLIGHT_${randomBytes(4).toString('hex')}`;
    const subject = `${name.toLowerCase()}.e`;
    try {
      await bus.ensureStream({ name, subjects: [`${name.toLowerCase()}.>`] });
      for (let i = 0; i < 40; i += 1) await bus.publish(subject, { i });
      let running = 0;
      let peak = 0;
      const handled: number[] = [];
      let failedOnce = false;
      let done!: () => void;
      const all = new Promise<void>((resolve) => (done = resolve));
      const handle = await bus.consume<{ i: number }>(
        { stream: name, durable: 'batchy', filterSubjects: [subject], maxInFlight: 10, backoffMs: [300] },
        async (event) => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 20));
          running -= 1;
          if (event.data.i === 0 && !failedOnce) {
            failedOnce = true;
            throw new Error('first try fails');
          }
          handled.push(event.data.i);
          if (handled.length === 40) done();
        },
      );
      await all;
      await handle.stop();
      expect(peak).toBeGreaterThan(1);
      expect(peak).toBeLessThanOrEqual(10);
      expect([...handled].sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
      // Message 0 was retried after 300 ms; the others did not wait for it.
      expect(handled.indexOf(0)).toBeGreaterThan(0);
      const nc = await connect({ servers: natsUrl });
      const info = await (await jetstreamManager(nc)).consumers.info(name, 'batchy');
      await nc.close();
      expect(info.config.max_ack_pending).toBe(10);
      expect(info.num_ack_pending).toBe(0);
      expect(info.num_pending).toBe(0);
    } finally {
      await bus.close();
      await deleteStreams([name]);
    }
  });
});

async function deleteStreams(names: string[]): Promise<void> {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    for (const name of names) {
      await jsm.streams.delete(name).catch((err: unknown) => {
        if (!(err instanceof JetStreamApiError && err.code === JetStreamApiCodes.StreamNotFound)) throw err;
      });
    }
  } finally {
    await nc.close();
  }
}
