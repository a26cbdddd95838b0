import type { IncomingMessage } from 'node:http';
import { Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { InternalUploadRepository } from '../repositories/internal-upload.repository';
import { CurrentCaller } from '../services/caller.decorator';

interface UploadRequest {
  headers: Record<string, string | string[] | undefined>;
  raw: IncomingMessage;
}
interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  send(body: unknown): unknown;
}

/**
 * POST /api/upload/ (documentsUpload in the route table): multipart, repeated "files" fields,
 * streamed on to the documents service, which parses and checks them. Hand-written because the
 * body is not JSON; the list, delete and download-link routes are forwarded from the table.
 */
@Controller()
@UseGuards(AuthGuard('jwt'))
export class DocumentsUploadController {
  constructor(@Inject(InternalUploadRepository) private readonly uploads: InternalUploadRepository) {}

  @Post('upload')
  @HttpCode(201)
  async upload(@Req() req: UploadRequest, @Res() reply: Reply, @CurrentCaller() caller: CallerIdentity): Promise<void> {
    const contentType = req.headers['content-type'];
    if (typeof contentType !== 'string' || !/^multipart\/form-data\s*;/i.test(contentType)) {
      throw new DomainError('VALIDATION_FAILED', 'Send the files as multipart/form-data, in the field "files".');
    }
    const forwarded = await this.uploads.forward(caller, 'documents', req.raw);
    if (forwarded.closeConnection) reply.header('connection', 'close');
    reply.status(forwarded.status).send(forwarded.body);
  }
}
