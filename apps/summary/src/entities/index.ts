import { OutboxMessage, ProcessedMessage } from '@medfolio/messaging/outbox';
import { FactOverride } from './fact-override.entity';
import { SummaryDocument, type DocumentState } from './summary-document.entity';
import { SummaryPage } from './summary-page.entity';
import { SummaryPatient } from './summary-patient.entity';
import { SummaryVersion } from './summary-version.entity';
import { ShareLink } from './share-link.entity';
import { SummaryEntitlement } from './entitlement.entity';
import { TrendObservation } from './trend-observation.entity';
import { PrivateDocument } from './private-document.entity';

export { PrivateDocument, SummaryEntitlement, TrendObservation, ShareLink, FactOverride, SummaryDocument, SummaryPage, SummaryPatient, SummaryVersion, type DocumentState };

export const SUMMARY_ENTITIES = [SummaryDocument, SummaryPage, SummaryPatient, SummaryVersion, FactOverride, ShareLink, TrendObservation, SummaryEntitlement, PrivateDocument, OutboxMessage, ProcessedMessage];
