import { CreateOutboxTables1795290000000 } from '@medfolio/messaging/outbox';
import { CreateIdentity1795300000000 } from './1795300000000-create-identity';

export const IDENTITY_MIGRATIONS = [CreateOutboxTables1795290000000, CreateIdentity1795300000000];
