import { Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { MultipartFile } from '@fastify/multipart';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { GatewayConfig } from '../config';
import { InternalUploadRepository } from '../repositories/internal-upload.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ProfileDoc } from './openapi.models';

interface MultipartRequest {
  isMultipart(): boolean;
  file(options?: { limits?: { fileSize?: number } }): Promise<MultipartFile | undefined>;
}
interface Reply {
  status(code: number): Reply;
  send(body: unknown): unknown;
}

/** POST /api/profile/picture/: a multipart upload (field `picture`), streamed to identity. */
@ApiTags('profile')
@ApiBearerAuth()
@Controller('profile')
@UseGuards(AuthGuard('jwt'))
export class ProfilePictureUploadController {
  constructor(
    @Inject(InternalUploadRepository) private readonly uploads: InternalUploadRepository,
    @Inject(GatewayConfig) private readonly config: GatewayConfig,
  ) {}

  @Post('picture')
  @HttpCode(200)
  @ApiOperation({ summary: 'Upload a profile picture (JPEG, PNG, WebP or GIF, checked by content); stored resized to 400x400' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['picture'], properties: { picture: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ type: ProfileDoc, description: 'The updated profile, with the new picture URL' })
  async upload(@Req() req: MultipartRequest, @Res() reply: Reply, @CurrentCaller() caller: CallerIdentity): Promise<void> {
    if (!req.isMultipart()) throw new DomainError('VALIDATION_FAILED', 'Send the picture as multipart/form-data in the field "picture".');
    const part = await req.file({ limits: { fileSize: this.config.uploadMaxBytes } });
    if (!part) throw new DomainError('VALIDATION_FAILED', 'Please choose a picture to upload.');
    const forwarded = await this.uploads.putProfilePicture(caller, part.file);
    if (part.file.truncated) {
      throw new DomainError('PAYLOAD_TOO_LARGE', `The picture is too large (at most ${Math.floor(this.config.uploadMaxBytes / 1048576)} MB).`);
    }
    reply.status(forwarded.status).send(forwarded.body);
  }
}
