import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { HousekeepingSettings } from '@medfolio/config';
import { InProcessEventBus, type EventBus } from '@medfolio/messaging';
import { OutboxMessage, ProcessedMessage, pruneOutbox, pruneProcessedMessages } from '@medfolio/messaging/outbox';

const DAY_MS = 24 * 3_600_000;

/** One kind of bookkeeping that is pruned: what goes is what was recorded before now − retention. */
export interface HousekeepingTask {
  /** What it prunes, for the log line ("published outbox rows"). */
  name: string;
  retentionMs: number;
  /** Deletes what was recorded before `before`; resolves how many went. */
  prune(before: Date): Promise<number>;
}

/**
 * Prunes a service's bookkeeping on a schedule: every task once a pass, one pass every
 * HOUSEKEEPING_INTERVAL_MINUTES, the first a minute after start. The kit registers the outbox, the
 * processed-message ids and (one process) the event logs; a service adds its own with `register`
 * (notifications: delivered e-mail bodies). A failing task is logged and the others still run;
 * replicas may run side by side (each pass only deletes what is old enough, in batches).
 */
export class Housekeeping implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Housekeeping.name);
  private readonly tasks: HousekeepingTask[] = [];
  private timers: NodeJS.Timeout[] = [];
  private pass: Promise<unknown> = Promise.resolve();

  constructor(private readonly intervalMs: number) {}

  register(task: HousekeepingTask): void {
    this.tasks.push(task);
  }

  get taskNames(): string[] {
    return this.tasks.map((t) => t.name);
  }

  /** One pass now: how many went, per task (a failed task: -1). */
  runOnce(now = new Date()): Promise<Record<string, number>> {
    const run = this.pass.then(async () => {
      const pruned: Record<string, number> = {};
      for (const task of this.tasks) {
        try {
          pruned[task.name] = await task.prune(new Date(now.getTime() - task.retentionMs));
        } catch (err) {
          pruned[task.name] = -1;
          this.logger.warn(`Housekeeping of ${task.name} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      if (Object.values(pruned).some((n) => n !== 0)) this.logger.log({ pruned }, 'housekeeping pass');
      return pruned;
    });
    this.pass = run.catch(() => undefined);
    return run;
  }

  onApplicationBootstrap(): void {
    if (this.intervalMs <= 0 || this.tasks.length === 0) return;
    const tick = () => void this.runOnce();
    this.timers = [setTimeout(tick, Math.min(60_000, this.intervalMs)).unref(), setInterval(tick, this.intervalMs).unref()];
  }

  async onModuleDestroy(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers = [];
    await this.pass;
  }
}

/** In one process every service shares one bus: only the first service's housekeeping prunes its logs. */
const busesWithHousekeeping = new WeakSet<EventBus>();

/** The kit's housekeeping for a service: its outbox and processed ids (if it has the tables) and, first come, the one-process event logs. */
export function serviceHousekeeping(
  settings: HousekeepingSettings,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: Function[],
  dataSource: DataSource,
  eventBus: EventBus,
): Housekeeping {
  const housekeeping = new Housekeeping(settings.housekeepingIntervalMinutes * 60_000);
  if (entities.includes(OutboxMessage))
    housekeeping.register({ name: 'published outbox rows', retentionMs: settings.outboxRetentionDays * DAY_MS, prune: (before) => pruneOutbox(dataSource, before) });
  if (entities.includes(ProcessedMessage))
    housekeeping.register({
      name: 'processed-message ids',
      retentionMs: settings.processedMessagesRetentionDays * DAY_MS,
      prune: (before) => pruneProcessedMessages(dataSource, before),
    });
  if (eventBus instanceof InProcessEventBus && !busesWithHousekeeping.has(eventBus)) {
    busesWithHousekeeping.add(eventBus);
    housekeeping.register({ name: 'event log messages', retentionMs: settings.eventLogRetentionDays * DAY_MS, prune: (before) => eventBus.prune(before) });
  }
  return housekeeping;
}
