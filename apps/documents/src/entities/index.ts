import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { DocumentRecord } from './document.entity';
import { Entitlement } from './entitlement.entity';
import { AccessRequest, ProviderGrant } from './provider-access.entity';
import { UnfinishedUpload } from './unfinished-upload.entity';

export { AccessRequest, DocumentRecord, Entitlement, ProviderGrant, UnfinishedUpload };

export const DOCUMENTS_ENTITIES = [DocumentRecord, Entitlement, UnfinishedUpload, AccessRequest, ProviderGrant, OutboxMessage, ProcessedMessage];
