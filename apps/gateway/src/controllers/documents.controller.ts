import { Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { CallerIdentity } from '@medfolio/contracts';
import { InternalUploadRepository } from '../repositories/internal-upload.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { forwardMultipart, type UploadReply, type UploadRequest } from './multipart-forwarding';

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
  upload(@Req() req: UploadRequest, @Res() reply: UploadReply, @CurrentCaller() caller: CallerIdentity): Promise<void> {
    const refusal = 'Send the files as multipart/form-data, in the field "files".';
    return forwardMultipart(this.uploads, 'documents', refusal, req, reply, caller);
  }
}
