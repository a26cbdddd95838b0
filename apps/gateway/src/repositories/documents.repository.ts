import { Inject, Injectable } from '@nestjs/common';
import {
  DOCUMENTS_SUBJECTS,
  type CallerIdentity,
  type DeleteDocumentDto,
  type DocumentListItem,
  type DownloadLinkReply,
  type MessageReply,
} from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import { RPC_CLIENT } from './rpc-client.token';

/**
 * A download link is given only after the service has read the whole stored file again to check
 * its SHA-256 (up to 100 MB from S3), so that call may take longer than the usual time-out.
 */
export const DOWNLOAD_LINK_TIMEOUT_MS = 60_000;

/** The gateway's request/reply calls to the documents service (uploads stream over HTTP instead). */
@Injectable()
export class DocumentsRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  list(caller: CallerIdentity): Promise<DocumentListItem[]> {
    return this.rpc.send(DOCUMENTS_SUBJECTS.list, {}, caller);
  }

  delete(dto: DeleteDocumentDto, caller: CallerIdentity): Promise<MessageReply> {
    return this.rpc.send(DOCUMENTS_SUBJECTS.delete, dto, caller);
  }

  downloadLink(documentId: string, caller: CallerIdentity): Promise<DownloadLinkReply> {
    return this.rpc.send(DOCUMENTS_SUBJECTS.downloadLink, { document_id: documentId }, caller, {
      timeoutMs: DOWNLOAD_LINK_TIMEOUT_MS,
    });
  }
}
