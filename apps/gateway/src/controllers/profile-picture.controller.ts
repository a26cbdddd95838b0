import { Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import type { CallerIdentity } from '@medfolio/contracts';
import { InternalUploadRepository } from '../repositories/internal-upload.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { forwardMultipart, type UploadReply, type UploadRequest } from './multipart-forwarding';

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
  upload(@Req() req: UploadRequest, @Res() reply: UploadReply, @CurrentCaller() caller: CallerIdentity): Promise<void> {
    const refusal = 'Send the picture as multipart/form-data in the field "picture".';
    return forwardMultipart(this.uploads, 'identity', refusal, req, reply, caller);
  }
}
