import type { Readable } from 'node:stream';
import { Controller, HttpCode, Inject, Post, UseFilters } from '@nestjs/common';
import type { Profile } from '@medfolio/contracts';
import { internalCallerOf, RawRequest } from '@medfolio/messaging';
import { HttpErrorFilter } from '@medfolio/runtime';
import { discardRestOfBody } from '@medfolio/storage';
import { IdentityConfig } from '../config';
import { ProfileService } from '../services/profile.service';

interface InternalUploadRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/**
 * POST /internal/profile-picture: the gateway passes the browser's multipart body on as it arrives
 * (file bytes never go over NATS); the picture is parsed here, as documents parse theirs. Only the
 * gateway may call it (shared INTERNAL_API_TOKEN); the user comes from the caller headers the
 * gateway built from the verified access token.
 */
@Controller('internal')
@UseFilters(HttpErrorFilter)
export class ProfilePictureController {
  constructor(
    @Inject(ProfileService) private readonly profiles: ProfileService,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  @Post('profile-picture')
  @HttpCode(200)
  async upload(@RawRequest() req: InternalUploadRequest): Promise<Profile> {
    try {
      const caller = internalCallerOf(req, this.config.internalApiToken);
      const contentType = req.headers['content-type'];
      return await this.profiles.setPicture(caller, {
        contentType: Array.isArray(contentType) ? contentType[0] : contentType,
        body: req.body,
      });
    } catch (error) {
      discardRestOfBody(req.body);
      throw error;
    }
  }
}
