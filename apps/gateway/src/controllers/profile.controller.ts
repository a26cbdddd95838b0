import { Body, Controller, Get, Inject, Put, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChangePasswordDto, UpdateProfileDto, type CallerIdentity, type ChangePasswordReply, type Profile } from '@medfolio/contracts';
import { IdentityRepository } from '../repositories/identity.repository';
import { RevokedSessionsRepository } from '../repositories/revoked-sessions.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ChangePasswordBodyDoc, UpdateProfileBodyDoc } from './openapi.bodies';
import { ChangePasswordReplyDoc, ProfileDoc } from './openapi.models';

/** The signed-in user's own profile and password. */
@ApiTags('profile')
@ApiBearerAuth()
@Controller()
@UseGuards(AuthGuard('jwt'))
export class ProfileController {
  constructor(
    @Inject(IdentityRepository) private readonly identity: IdentityRepository,
    @Inject(RevokedSessionsRepository) private readonly revoked: RevokedSessionsRepository,
  ) {}

  @Get('profile')
  @ApiOperation({ summary: "The signed-in user's profile" })
  @ApiOkResponse({ type: ProfileDoc })
  get(@CurrentCaller() caller: CallerIdentity): Promise<Profile> {
    return this.identity.call('getProfile', {}, caller);
  }

  @Put('profile')
  @ApiOperation({ summary: 'Change first name, last name and phone' })
  @ApiBody({ type: UpdateProfileBodyDoc })
  @ApiOkResponse({ type: ProfileDoc })
  update(@Body() dto: UpdateProfileDto, @CurrentCaller() caller: CallerIdentity): Promise<Profile> {
    return this.identity.call('updateProfile', dto, caller);
  }

  @Put('change/password')
  @ApiOperation({ summary: 'Change the password (the current one is checked); other sign-ins are revoked' })
  @ApiBody({ type: ChangePasswordBodyDoc })
  @ApiOkResponse({ type: ChangePasswordReplyDoc })
  async changePassword(@Body() dto: ChangePasswordDto, @CurrentCaller() caller: CallerIdentity): Promise<ChangePasswordReply> {
    // The other sign-ins are refused on this gateway before the answer; the others learn through identity's event.
    return this.revoked.revokeFrom(await this.identity.call('changePassword', dto, caller));
  }
}
