import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { DocumentRecord } from './document.entity';
import { Entitlement } from './entitlement.entity';
import { HouseholdMember } from './household-member.entity';
import { AccessRequest, ProviderGrant } from './provider-access.entity';
import { UnfinishedUpload } from './unfinished-upload.entity';

export { AccessRequest, DocumentRecord, Entitlement, HouseholdMember, ProviderGrant, UnfinishedUpload };

export const DOCUMENTS_ENTITIES = [DocumentRecord, Entitlement, HouseholdMember, UnfinishedUpload, AccessRequest, ProviderGrant, OutboxMessage, ProcessedMessage];
