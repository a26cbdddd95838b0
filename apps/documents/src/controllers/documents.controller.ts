import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DeleteDocumentDto,
  DOCUMENT_PRIVACY_SUBJECTS,
  DocumentPrivacyDto,
  DocumentIdDto,
  DOCUMENTS_SUBJECTS,
  type CallerIdentity,
  type DocumentListItem,
  type DownloadLinkReply,
  type MessageReply,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { DocumentsService } from '../services/documents.service';

/** Request/reply handlers (the gateway's GET/DELETE /api/upload/ and the download link). */
@RpcController()
export class DocumentsController {
  constructor(@Inject(DocumentsService) private readonly documents: DocumentsService) {}

  @Handles(DOCUMENTS_SUBJECTS.list)
  list(@Caller() caller: CallerIdentity): Promise<DocumentListItem[]> {
    return this.documents.list(caller);
  }

  @Handles(DOCUMENTS_SUBJECTS.delete)
  delete(@Payload() dto: DeleteDocumentDto, @Caller() caller: CallerIdentity): Promise<MessageReply> {
    return this.documents.delete(caller, dto);
  }

  @Handles(DOCUMENT_PRIVACY_SUBJECTS.setPrivate)
  setPrivate(@Payload() dto: DocumentPrivacyDto, @Caller() caller: CallerIdentity): Promise<DocumentListItem> {
    return this.documents.setPrivate(caller, dto);
  }

  @Handles(DOCUMENTS_SUBJECTS.downloadLink)
  downloadLink(@Payload() dto: DocumentIdDto, @Caller() caller: CallerIdentity): Promise<DownloadLinkReply> {
    return this.documents.downloadLink(caller, dto);
  }
}
