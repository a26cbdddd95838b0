import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { CreateShareLinkDto, UpdateShareLinkBodyDto, type CallerIdentity, type ShareLinkItem } from '@medfolio/contracts';
import { SharingRepository } from '../repositories/sharing.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ErrorDoc } from './openapi.models';
import { CreateShareLinkBodyDoc, ShareLinkItemDoc, UpdateShareLinkBodyDoc } from './share-links.openapi';

const LINK_ID = { name: 'linkId', format: 'uuid', description: "The link's id (not its secret share id)" } as const;

/**
 * The owner's share links. Thin: one call to the summary service each, which owns the
 * links, checks the owner and audits.
 */
@ApiTags('sharing')
@ApiBearerAuth()
@Controller('share-links')
@UseGuards(AuthGuard('jwt'))
@ApiUnauthorizedResponse({ type: ErrorDoc, description: 'No valid access token' })
export class ShareLinksController {
  constructor(@Inject(SharingRepository) private readonly sharing: SharingRepository) {}

  @Get()
  @ApiOperation({ summary: "The signed-in patient's share links, newest first (revoked ones too), with view counts" })
  @ApiOkResponse({ type: [ShareLinkItemDoc] })
  list(@CurrentCaller() caller: CallerIdentity): Promise<ShareLinkItem[]> {
    return this.sharing.list(caller);
  }

  @Get('default')
  @ApiOperation({
    summary: "The default link (the dashboard's QR code), made when first asked for",
    description: 'A new default link expires 30 days after it is made (PATCH changes that). Loading the dashboard never calls this: View Summary is the owner\'s own page, /summary/{userId}.',
  })
  @ApiOkResponse({ type: ShareLinkItemDoc })
  default(@CurrentCaller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.ensure({ purpose: 'default' }, caller);
  }

  @Post()
  @ApiOperation({ summary: 'Make a share link: a label, and optionally an expiry, a passcode, an e-mail on view' })
  @ApiBody({ type: CreateShareLinkBodyDoc })
  @ApiCreatedResponse({ type: ShareLinkItemDoc })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'A field is not valid (label 1 to 60 characters, passcode 4 to 64, expiry in the future)' })
  @ApiConflictResponse({ type: ErrorDoc, description: 'Too many live links' })
  create(@Body() body: CreateShareLinkDto, @CurrentCaller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.create(body, caller);
  }

  @Patch(':linkId')
  @ApiOperation({ summary: "Change a link's label, expiry, passcode, e-mail on view or providers flag (only the fields sent)" })
  @ApiParam(LINK_ID)
  @ApiBody({ type: UpdateShareLinkBodyDoc })
  @ApiOkResponse({ type: ShareLinkItemDoc })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'A field is not valid' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'Share link not found' })
  @ApiConflictResponse({ type: ErrorDoc, description: 'The link was revoked' })
  update(@Param('linkId') linkId: string, @Body() body: UpdateShareLinkBodyDto, @CurrentCaller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.update({ ...body, link_id: linkId }, caller);
  }

  @Post(':linkId/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke a link at once: it answers "This link is not valid." from then on' })
  @ApiParam(LINK_ID)
  @ApiOkResponse({ type: ShareLinkItemDoc })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'Share link not found' })
  revoke(@Param('linkId') linkId: string, @CurrentCaller() caller: CallerIdentity): Promise<ShareLinkItem> {
    return this.sharing.revoke({ link_id: linkId }, caller);
  }
}
