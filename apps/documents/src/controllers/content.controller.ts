import { Controller, Get, Inject, Param, Query, Res, UseFilters } from '@nestjs/common';
import { DomainError } from '@medfolio/contracts';
import { internalCallerOf, RawRequest } from '@medfolio/messaging';
import { HttpErrorFilter } from '@medfolio/runtime';
import { DocumentsConfig } from '../config';
import { DocumentsService } from '../services/documents.service';
import { NOT_FOUND_MESSAGE } from '../services/owner';

interface RawReply {
  headers(values: Record<string, string>): RawReply;
  send(body: unknown): unknown;
  raw: { destroy(error?: Error): void };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OWNER_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Response header carrying the document's display name (URI-encoded: names may be any Unicode). */
export const FILENAME_HEADER = 'x-document-filename';
/** Response header with where the document was fetched from (URI-encoded), when a service fetched it (connections). */
export const SOURCE_HEADER = 'x-document-source';

/**
 * GET /internal/documents/{id}/content?owner={userId}: the decrypted bytes, streamed, for other
 * services that read documents (summary's extraction). Internal callers only (INTERNAL_API_TOKEN);
 * the owner named must own the document, so a wrong pairing reads nothing.
 */
@Controller('internal/documents')
@UseFilters(HttpErrorFilter)
export class ContentController {
  constructor(
    @Inject(DocumentsService) private readonly documents: DocumentsService,
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
  ) {}

  @Get(':id/content')
  async content(
    @RawRequest() req: { headers: Record<string, string | string[] | undefined> },
    @Param('id') id: string,
    @Query('owner') owner: string | undefined,
    @Res() reply: RawReply,
  ): Promise<void> {
    const caller = internalCallerOf(req, this.config.internalApiToken);
    if (!UUID.test(id) || !owner || !OWNER_ID.test(owner)) throw new DomainError('NOT_FOUND', NOT_FOUND_MESSAGE);
    const content = await this.documents.openContent(caller, id, owner);
    // A blob failing its encryption check mid-way: cut the response off so the reader sees an error.
    content.body.on('error', (error: Error) => reply.raw.destroy(error));
    reply
      .headers({
        'content-type': content.contentType,
        'content-length': String(content.size),
        [FILENAME_HEADER]: encodeURIComponent(content.filename),
        ...(content.source ? { [SOURCE_HEADER]: encodeURIComponent(content.source) } : {}),
        'cache-control': 'no-store',
      })
      .send(content.body);
  }
}
