import { CreateOutboxTables1795290000000 } from '@medfolio/messaging/outbox';
import { CreateDocuments1796500000000 } from './1796500000000-create-documents';
import { StructuredRecordKinds1797000000000 } from './1797000000000-structured-record-kinds';
import { ProviderAccess1797100000000 } from './1797100000000-provider-access';
import { DocumentSource1797300000000 } from './1797300000000-document-source';
import { HouseholdMembers1797400000000 } from './1797400000000-household-members';
import { PrivateDocuments1797500000000 } from './1797500000000-private-documents';

export const DOCUMENTS_MIGRATIONS = [
  CreateOutboxTables1795290000000,
  CreateDocuments1796500000000,
  StructuredRecordKinds1797000000000,
  ProviderAccess1797100000000,
  DocumentSource1797300000000,
  HouseholdMembers1797400000000,
  PrivateDocuments1797500000000,
];
