import { CreateOutboxTables1795290000000 } from '@medfolio/messaging/outbox';
import type { SummaryConfig } from '../config';
import { CreateSummary1797000000000 } from './1797000000000-create-summary';
import { PagesCoveredByFacts1797000000001 } from './1797000000001-pages-covered-by-facts';
import { CreateShareLinks1797000000002 } from './1797000000002-create-share-links';
import { sealShlKeysMigration } from './1797000000003-seal-shl-keys';
import { ShowPatientIdentity1797000000004 } from './1797000000004-show-patient-identity';
import { CreateObservations1797000000005 } from './1797000000005-create-observations';
import { DocumentSource1797000000006 } from './1797000000006-document-source';
import { PrivateDocuments1797500000000 } from './1797500000000-private-documents';

/** The summary's migrations; the one that seals SHL keys needs the config (its key). */
export function summaryMigrations(config: SummaryConfig) {
  return [CreateOutboxTables1795290000000, CreateSummary1797000000000, PagesCoveredByFacts1797000000001, CreateShareLinks1797000000002, sealShlKeysMigration(config), ShowPatientIdentity1797000000004, CreateObservations1797000000005, DocumentSource1797000000006, PrivateDocuments1797500000000];
}
