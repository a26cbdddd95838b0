import { Controller, Inject } from '@nestjs/common';
import { DOCUMENT_PRIVACY_SUBJECTS, DocumentPrivacyChangedEvent, STREAMS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { PrivateDocumentsRepository } from '../repositories/private-documents.repository';

/** documents' "hidden from proxies" flag, kept per document for the reads of proxies (docs/guide/family.md). */
@Controller()
export class DocumentPrivacyEventsController {
  constructor(@Inject(PrivateDocumentsRepository) private readonly privacy: PrivateDocumentsRepository) {}

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'summary-document-privacy',
    subjects: [DOCUMENT_PRIVACY_SUBJECTS.privacyChanged],
    maxDeliver: 10,
    payload: { [DOCUMENT_PRIVACY_SUBJECTS.privacyChanged]: DocumentPrivacyChangedEvent },
    once: true,
  })
  async onPrivacy(event: EventEnvelope<DocumentPrivacyChangedEvent>, once: OnceInTransaction): Promise<void> {
    const { document_id: documentId, owner_id: userId, private: isPrivate } = event.data;
    await once((manager) => this.privacy.set(documentId, userId, isPrivate, manager));
  }
}
