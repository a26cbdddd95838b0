import type { IncomingMessage } from 'node:http';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
  ApiResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import {
  DeleteDocumentDto,
  DomainError,
  type CallerIdentity,
  type DocumentListItem,
  type DownloadLinkReply,
  type MessageReply,
} from '@medfolio/contracts';
import { DocumentsRepository } from '../repositories/documents.repository';
import { InternalUploadRepository } from '../repositories/internal-upload.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { DeleteDocumentBodyDoc, DocumentItemDoc, DownloadLinkDoc, UploadReplyDoc } from './documents.openapi';
import { ErrorDoc, MessageDoc } from './openapi.models';

interface UploadRequest {
  headers: Record<string, string | string[] | undefined>;
  raw: IncomingMessage;
}
interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(body: unknown): unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The patient's documents (spec section 7): upload (multipart, repeated "files" fields, streamed on
 * to the documents service), list, delete, download link. A document of another user answers 404
 * on every route, exactly like one that does not exist.
 */
@ApiTags('documents')
@ApiBearerAuth()
@Controller()
@UseGuards(AuthGuard('jwt'))
export class DocumentsController {
  constructor(
    @Inject(InternalUploadRepository) private readonly uploads: InternalUploadRepository,
    @Inject(DocumentsRepository) private readonly documents: DocumentsRepository,
  ) {}

  @Post('upload')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Upload documents: PDF, JPG, PNG, Word (.doc, .docx), zip or health records (C-CDA .xml, FHIR .json), checked by their content',
    description:
      'Up to 20 files of up to 100 MB each (the server configuration decides), as repeated `files` fields. All or nothing: the first ' +
      'refused file (its type, its content, its size, or the plan quota) ends the request with a message naming it, and nothing of the ' +
      'request is kept.',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['files'],
      properties: {
        files: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'One entry per file' },
      },
    },
  })
  @ApiCreatedResponse({ type: UploadReplyDoc })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'Not multipart, no file, or files in another field' })
  @ApiResponse({
    status: 402,
    type: ErrorDoc,
    description: 'The plan allows no more documents; the message names a plan that does',
  })
  @ApiPayloadTooLargeResponse({ type: ErrorDoc, description: 'A file is larger than allowed, or too many files' })
  @ApiUnsupportedMediaTypeResponse({
    type: ErrorDoc,
    description: 'A file is not of an accepted type, its content does not match its name, or it carries a virus or malware (the message names the file and the signature)',
  })
  @ApiResponse({
    status: 503,
    type: ErrorDoc,
    description: 'Nothing was kept: the antivirus scanner (clamd) cannot check files right now, the store is full, or the documents service is down',
  })
  async upload(@Req() req: UploadRequest, @Res() reply: Reply, @CurrentCaller() caller: CallerIdentity): Promise<void> {
    const contentType = req.headers['content-type'];
    if (typeof contentType !== 'string' || !/^multipart\/form-data\s*;/i.test(contentType)) {
      throw new DomainError('VALIDATION_FAILED', 'Send the files as multipart/form-data, in the field "files".');
    }
    const forwarded = await this.uploads.forward(caller, 'documents', req.raw);
    if (forwarded.closeConnection) reply.header('connection', 'close');
    reply.status(forwarded.status).send(forwarded.body);
  }

  @Get('upload')
  @ApiOperation({ summary: "The signed-in user's documents, newest first" })
  @ApiOkResponse({ type: [DocumentItemDoc] })
  list(@CurrentCaller() caller: CallerIdentity): Promise<DocumentListItem[]> {
    return this.documents.list(caller);
  }

  @Delete('upload')
  @ApiOperation({
    summary: 'Delete one of your documents; it is gone from the list at once (its file is purged right after)',
  })
  @ApiBody({ type: DeleteDocumentBodyDoc })
  @ApiOkResponse({ type: MessageDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'No such document of yours' })
  delete(@Body() dto: DeleteDocumentDto, @CurrentCaller() caller: CallerIdentity): Promise<MessageReply> {
    return this.documents.delete(dto, caller);
  }

  @Get('get-document-download-link/:documentId')
  @ApiOperation({ summary: 'A 5-minute download link for one of your documents (its SHA-256 is checked first)' })
  @ApiParam({ name: 'documentId', format: 'uuid' })
  @ApiOkResponse({ type: DownloadLinkDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'No such document of yours' })
  @ApiResponse({
    status: 500,
    type: ErrorDoc,
    description: 'The stored file failed its integrity check: no link is given',
  })
  downloadLink(
    @Param('documentId') documentId: string,
    @CurrentCaller() caller: CallerIdentity,
  ): Promise<DownloadLinkReply> {
    if (!UUID.test(documentId)) throw new DomainError('NOT_FOUND', 'Document not found.');
    return this.documents.downloadLink(documentId.toLowerCase(), caller);
  }
}
