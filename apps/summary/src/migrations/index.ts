import { CreateOutboxTables1795290000000 } from '@medfolio/messaging/outbox';
import { CreateSummary1797000000000 } from './1797000000000-create-summary';

export const SUMMARY_MIGRATIONS = [CreateOutboxTables1795290000000, CreateSummary1797000000000];
