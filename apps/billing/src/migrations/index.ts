import { CreateOutboxTables1795290000000 } from '@medfolio/messaging/outbox';
import { CreateBilling1797100000000 } from './1797100000000-create-billing';

export const BILLING_MIGRATIONS = [CreateOutboxTables1795290000000, CreateBilling1797100000000];
