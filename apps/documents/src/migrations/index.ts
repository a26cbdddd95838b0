import { CreateOutboxTables1795290000000 } from '@medfolio/messaging/outbox';
import { CreateDocuments1796500000000 } from './1796500000000-create-documents';

export const DOCUMENTS_MIGRATIONS = [CreateOutboxTables1795290000000, CreateDocuments1796500000000];
