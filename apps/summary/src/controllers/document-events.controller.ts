import { Controller, Inject } from '@nestjs/common';
import { DOCUMENTS_SUBJECTS, DocumentDeletedEvent, DocumentUploadedEvent, STREAMS } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import type { OnceInTransaction } from '@medfolio/messaging/outbox';
import { ExtractionService } from '../services/extraction.service';

/**
 * Inbound adapter for documents' events. One durable for both subjects, so a document's upload and
 * deletion arrive in order; the handlers only note the work (reading happens off this path). The kit
 * validates each payload against its subject's contract class and records the message as processed
 * in the transaction that notes the work.
 */
@Controller()
export class DocumentEventsController {
  constructor(@Inject(ExtractionService) private readonly extraction: ExtractionService) {}

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'summary-documents',
    subjects: [DOCUMENTS_SUBJECTS.uploaded, DOCUMENTS_SUBJECTS.deleted],
    maxDeliver: 10,
    payload: { [DOCUMENTS_SUBJECTS.uploaded]: DocumentUploadedEvent, [DOCUMENTS_SUBJECTS.deleted]: DocumentDeletedEvent },
    once: true,
  })
  async onDocument(event: EventEnvelope<DocumentUploadedEvent | DocumentDeletedEvent>, once: OnceInTransaction): Promise<void> {
    if (event.subject === DOCUMENTS_SUBJECTS.deleted) await this.extraction.noteDeleted(event.data as DocumentDeletedEvent, once);
    else await this.extraction.noteUploaded(event.data as DocumentUploadedEvent, once);
  }
}
