import path from 'node:path';
import type { BaseConfig, MessagingSettings } from '@medfolio/config';
import { InProcessEventBus, JetStreamEventBus, type EventBus } from '@medfolio/messaging';

/** JetStream when NATS_URL is set; otherwise the in-process bus, persisted under DATA_DIR/events. */
export async function createEventBus(config: Pick<BaseConfig, 'dataDir'> & MessagingSettings, name: string): Promise<EventBus> {
  if (config.natsUrl) return JetStreamEventBus.connect({ connection: config.natsUrl, name, timeoutMs: config.rpcTimeoutMs });
  return new InProcessEventBus({ dataDir: path.resolve(config.dataDir, 'events') });
}
