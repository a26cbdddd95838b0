export { CreateOutboxTables1795290000000 } from './migrations/1795290000000-create-outbox-tables';
export { ProcessedMessages, type OnceInTransaction } from './processed-messages';
export { Outbox } from './outbox';
export { OutboxMessage } from './outbox-message.entity';
export { PollingLoop } from './polling-loop';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
export { ProcessedMessage } from './processed-message.entity';
export { PROCESSED_MESSAGES_MIN_RETENTION_MS, REDELIVERY_WINDOW_MS, pruneOutbox, pruneProcessedMessages } from './retention';
