import type { Readable } from 'node:stream';
import { Controller, Inject, Put, UseFilters } from '@nestjs/common';
import type { Profile } from '@medfolio/contracts';
import { internalCallerOf, RawRequest } from '@medfolio/messaging';
import { HttpErrorFilter } from '@medfolio/runtime';
import { IdentityConfig } from '../config';
import { ProfileService } from '../services/profile.service';

/**
 * PUT /internal/profile-picture: the gateway streams the uploaded picture here (file bytes never go
 * over NATS). Only the gateway may call it (shared INTERNAL_API_TOKEN); the user comes from the
 * caller headers the gateway built from the verified access token.
 */
@Controller('internal')
@UseFilters(HttpErrorFilter)
export class ProfilePictureController {
  constructor(
    @Inject(ProfileService) private readonly profiles: ProfileService,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  @Put('profile-picture')
  upload(@RawRequest() req: { headers: Record<string, string | string[] | undefined>; body: Readable }): Promise<Profile> {
    const caller = internalCallerOf(req, this.config.internalApiToken);
    return this.profiles.setPicture(caller, req.body);
  }
}
