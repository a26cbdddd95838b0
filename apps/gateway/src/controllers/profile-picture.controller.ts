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
 * POST /api/profile/picture/: a multipart upload with one file in the field `picture`, piped as it
 * arrives to identity, which parses, checks and stores it (the same path as document uploads).
 */
@Controller('profile')
@UseGuards(AuthGuard('jwt'))
export class ProfilePictureUploadController {
  constructor(@Inject(InternalUploadRepository) private readonly uploads: InternalUploadRepository) {}

  @Post('picture')
  @HttpCode(200)
  async upload(@Req() req: UploadRequest, @Res() reply: Reply, @CurrentCaller() caller: CallerIdentity): Promise<void> {
    const contentType = req.headers['content-type'];
    if (typeof contentType !== 'string' || !/^multipart\/form-data\s*;/i.test(contentType)) {
      throw new DomainError('VALIDATION_FAILED', 'Send the picture as multipart/form-data in the field "picture".');
    }
    const forwarded = await this.uploads.forward(caller, 'identity', req.raw);
    if (forwarded.closeConnection) reply.header('connection', 'close');
    reply.status(forwarded.status).send(forwarded.body);
  }
}
