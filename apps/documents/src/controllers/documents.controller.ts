import { Controller, Inject, UseFilters } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  DeleteDocumentDto,
  DocumentIdDto,
  DOCUMENTS_SUBJECTS,
  type CallerIdentity,
  type DocumentListItem,
  type DownloadLinkReply,
  type MessageReply,
} from '@medfolio/contracts';
import { Caller, createValidationPipe, RpcErrorFilter } from '@medfolio/messaging';
import { DocumentsService } from '../services/documents.service';

const validated = createValidationPipe();

/** Request/reply handlers (the gateway's GET/DELETE /api/upload/ and the download link). */
@Controller()
@UseFilters(RpcErrorFilter)
export class DocumentsController {
  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @MessagePattern(DOCUMENTS_SUBJECTS.list)
  list(@Caller() caller: CallerIdentity): Promise<DocumentListItem[]> {
    return this.documents.list(caller);
  }

  @MessagePattern(DOCUMENTS_SUBJECTS.delete)
  delete(@Payload(validated) dto: DeleteDocumentDto, @Caller() caller: CallerIdentity): Promise<MessageReply> {
    return this.documents.delete(caller, dto);
  }

  @MessagePattern(DOCUMENTS_SUBJECTS.downloadLink)
  downloadLink(@Payload(validated) dto: DocumentIdDto, @Caller() caller: CallerIdentity): Promise<DownloadLinkReply> {
    return this.documents.downloadLink(caller, dto);
  }
}
