import { Controller, Inject } from '@nestjs/common';
import { DOCUMENTS_SUBJECTS, STREAMS, type DocumentDeletedEvent, type DocumentUploadedEvent } from '@medfolio/contracts';
import { OnEvent, type EventEnvelope } from '@medfolio/messaging';
import { ExtractionService } from '../services/extraction.service';

/**
 * Inbound adapter for documents' events. One durable for both subjects, so a document's upload and
 * deletion arrive in order; the handlers only note the work (reading happens off this path).
 */
@Controller()
export class DocumentEventsController {
  constructor(@Inject(ExtractionService) private readonly extraction: ExtractionService) {}

  @OnEvent({
    stream: STREAMS.DOCUMENTS.name,
    durable: 'summary-documents',
    subjects: [DOCUMENTS_SUBJECTS.uploaded, DOCUMENTS_SUBJECTS.deleted],
    maxDeliver: 10,
    backoffMs: [1000, 5000, 30_000],
  })
  async onDocument(event: EventEnvelope<DocumentUploadedEvent | DocumentDeletedEvent>): Promise<void> {
    if (event.subject === DOCUMENTS_SUBJECTS.deleted) await this.extraction.noteDeleted(event as EventEnvelope<DocumentDeletedEvent>);
    else await this.extraction.noteUploaded(event as EventEnvelope<DocumentUploadedEvent>);
  }
}
