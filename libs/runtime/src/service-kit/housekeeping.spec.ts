import type { DataSource } from 'typeorm';
import { InProcessEventBus } from '@medfolio/messaging';
import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { Housekeeping, serviceHousekeeping } from './housekeeping';

const settings = { housekeepingIntervalMinutes: 60, outboxRetentionDays: 7, processedMessagesRetentionDays: 30, eventLogRetentionDays: 3 };
const DAY = 24 * 3_600_000;

describe('Housekeeping', () => {
  it('gives each task its own cut-off (now minus its retention), and a failing task does not stop the others', async () => {
    const housekeeping = new Housekeeping(60_000);
    const cutoffs: Record<string, number> = {};
    housekeeping.register({ name: 'a', retentionMs: DAY, prune: async (before) => ((cutoffs['a'] = before.getTime()), 3) });
    housekeeping.register({ name: 'broken', retentionMs: DAY, prune: async () => Promise.reject(new Error('database down')) });
    housekeeping.register({ name: 'b', retentionMs: 2 * DAY, prune: async (before) => ((cutoffs['b'] = before.getTime()), 0) });
    const now = new Date('2026-01-10T00:00:00Z');
    await expect(housekeeping.runOnce(now)).resolves.toEqual({ a: 3, broken: -1, b: 0 });
    expect(cutoffs).toEqual({ a: now.getTime() - DAY, b: now.getTime() - 2 * DAY });
  });

  it('runs a pass a minute after start, then every interval, and not at all when the interval is 0', async () => {
    jest.useFakeTimers();
    try {
      const passes: number[] = [];
      const housekeeping = new Housekeeping(60 * 60_000);
      housekeeping.register({ name: 'a', retentionMs: DAY, prune: async () => (passes.push(Date.now()), 0) });
      const off = new Housekeeping(0);
      off.register({ name: 'never', retentionMs: DAY, prune: async () => (passes.push(-1), 0) });
      housekeeping.onApplicationBootstrap();
      off.onApplicationBootstrap();
      await jest.advanceTimersByTimeAsync(59_000);
      expect(passes).toHaveLength(0);
      await jest.advanceTimersByTimeAsync(1_000);
      expect(passes).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(2 * 60 * 60_000);
      expect(passes).toHaveLength(3);
      expect(passes).not.toContain(-1);
      await housekeeping.onModuleDestroy();
      await jest.advanceTimersByTimeAsync(2 * 60 * 60_000);
      expect(passes).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });

  it("registers a service's outbox and processed ids when it has the tables, and one process's event logs once for all services", async () => {
    const bus = new InProcessEventBus();
    const dataSource = {} as DataSource;
    const first = serviceHousekeeping(settings, [OutboxMessage, ProcessedMessage], dataSource, bus);
    const second = serviceHousekeeping(settings, [OutboxMessage, ProcessedMessage], dataSource, bus);
    const noTables = serviceHousekeeping(settings, [], dataSource, new InProcessEventBus());
    expect(first.taskNames).toEqual(['published outbox rows', 'processed-message ids', 'event log messages']);
    expect(second.taskNames).toEqual(['published outbox rows', 'processed-message ids']);
    expect(noTables.taskNames).toEqual(['event log messages']);
    await bus.close();
  });
});
