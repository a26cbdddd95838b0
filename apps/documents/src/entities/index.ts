import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { DocumentRecord } from './document.entity';
import { Entitlement } from './entitlement.entity';
import { UnfinishedUpload } from './unfinished-upload.entity';

export { DocumentRecord, Entitlement, UnfinishedUpload };

export const DOCUMENTS_ENTITIES = [DocumentRecord, Entitlement, UnfinishedUpload, OutboxMessage, ProcessedMessage];
