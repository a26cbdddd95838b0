import { Body, Controller, Delete, Get, HttpCode, Inject, Injectable, Param, Post, Put, Query, UseGuards, type ExecutionContext } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import {
  AddFactDto,
  ConfirmSummaryDto,
  EditFactBodyDto,
  HideFactBodyDto,
  SummaryQueryDto,
  UnlockShareLinkDto,
  type CallerIdentity,
  type ShareLinkUnlockReply,
  type SummaryItem,
  type SummaryStatusReply,
} from '@medfolio/contracts';
import { SharingRepository } from '../repositories/sharing.repository';
import { SummaryRepository } from '../repositories/summary.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ErrorDoc } from './openapi.models';
import { UnlockBodyDoc, UnlockReplyDoc } from './share-links.openapi';
import { AddFactBodyDoc, ConfirmSummaryBodyDoc, EditFactBodyDoc, HideFactBodyDoc, SummaryItemDoc, SummaryStatusDoc } from './summary.openapi';

/**
 * GET /api/summary/ answers 404 to a signed-out caller (a summary's existence is not revealed), but
 * a token that is sent must be valid (401), so the web app still refreshes an expired one.
 */
@Injectable()
export class TokenIfSentGuard extends AuthGuard('jwt') {
  override canActivate(context: ExecutionContext) {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    return req.headers['authorization'] ? super.canActivate(context) : true;
  }
}

const FACT_ID = { name: 'factId', format: 'uuid', description: 'A fact id from the summary' } as const;

/**
 * The patient's summary and their review of it. Thin: one call to the summary service
 * each, with the caller identity; it decides who may see what, audits and answers.
 */
@ApiTags('summary')
@Controller('summary')
export class SummaryController {
  constructor(
    @Inject(SummaryRepository) private readonly summaries: SummaryRepository,
    @Inject(SharingRepository) private readonly sharing: SharingRepository,
  ) {}

  @Get()
  @UseGuards(TokenIfSentGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: "A patient's summary: the owner's own, or the one a share link shares",
    description:
      "`user` is the owner's own id (signed in: their latest summary, with documents and review state) or a share id (anyone, " +
      'signed in or not: the latest CONFIRMED version, without documents, sources or review state, and `shared` set). A revoked, ' +
      'expired, locked, wrong or guessed id answers 404 "This link is not valid."; a passcode link answers 403 until `view_token` ' +
      '(POST /api/summary/unlock/) is sent. A list with one item (the seed shape). Answers carry Referrer-Policy: no-referrer, ' +
      'X-Robots-Tag: noindex and Cache-Control: no-store.',
  })
  @ApiQuery({ name: 'user', required: true, type: String, description: "The patient's own user id, or a share id", example: 'kq3C1uXW0pDq3b0F7nHqXg' })
  @ApiQuery({ name: 'view_token', required: false, type: String, description: "A passcode link's view token (POST /api/summary/unlock/)" })
  @ApiOkResponse({ type: [SummaryItemDoc] })
  @ApiUnauthorizedResponse({ type: ErrorDoc, description: 'An access token was sent and is not valid' })
  @ApiResponse({ status: 403, type: ErrorDoc, description: 'This link needs a passcode.' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'This link is not valid.' })
  get(@Query() query: SummaryQueryDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem[]> {
    return this.summaries.get(query, caller);
  }

  @Get('status')
  @UseGuards(AuthGuard('jwt'))
  @ApiBearerAuth()
  @ApiOperation({
    summary: "Where the caller's own summary stands, without its content",
    description:
      'Status, latest and confirmed version, and the documents the summary knows of with how far each was read: no health data. ' +
      'The dashboard polls it every 2 s while a build is pending (a document being read, or one just uploaded that the summary has not heard of yet).',
  })
  @ApiOkResponse({ type: SummaryStatusDoc })
  @ApiUnauthorizedResponse({ type: ErrorDoc })
  status(@CurrentCaller() caller: CallerIdentity): Promise<SummaryStatusReply> {
    return this.summaries.status(caller);
  }

  @Post('unlock')
  @HttpCode(200)
  @ApiOperation({
    summary: "Open a passcode link: the passcode for a short-lived view token",
    description: 'A wrong passcode answers 401 with the attempts left (`details.remaining_attempts`); after 5 the link locks and answers 404 until its owner sets a new passcode.',
  })
  @ApiBody({ type: UnlockBodyDoc })
  @ApiOkResponse({ type: UnlockReplyDoc })
  @ApiUnauthorizedResponse({ type: ErrorDoc, description: 'Wrong passcode. n attempts left.' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'This link is not valid.' })
  unlock(@Body() body: UnlockShareLinkDto, @CurrentCaller() caller: CallerIdentity): Promise<ShareLinkUnlockReply> {
    return this.sharing.unlock({ user: body.user, passcode: body.passcode }, caller);
  }

  @Post('facts/:factId/hide')
  @HttpCode(200)
  @UseGuards(AuthGuard('jwt'))
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Hide a fact (or show it again): the owner still sees it, marked; the text and shares leave it out' })
  @ApiParam(FACT_ID)
  @ApiBody({ type: HideFactBodyDoc })
  @ApiOkResponse({ type: SummaryItemDoc, description: 'The summary, as a new version' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'Fact not found' })
  hide(@Param('factId') factId: string, @Body() body: HideFactBodyDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.hide({ fact_id: factId, hidden: body.hidden }, caller);
  }

  @Put('facts/:factId')
  @UseGuards(AuthGuard('jwt'))
  @ApiBearerAuth()
  @ApiOperation({ summary: "Correct a fact's text (the original is kept; the correction survives rebuilds)" })
  @ApiParam(FACT_ID)
  @ApiBody({ type: EditFactBodyDoc })
  @ApiOkResponse({ type: SummaryItemDoc, description: 'The summary, as a new version' })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'text must be 1 to 300 characters' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'Fact not found' })
  edit(@Param('factId') factId: string, @Body() body: EditFactBodyDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.edit({ fact_id: factId, text: body.text }, caller);
  }

  @Post('facts')
  @HttpCode(200)
  @UseGuards(AuthGuard('jwt'))
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Add a fact to a section (marked added by the patient, with no sources)' })
  @ApiBody({ type: AddFactBodyDoc })
  @ApiOkResponse({ type: SummaryItemDoc, description: 'The summary, as a new version' })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'Unknown section, or text not 1 to 300 characters' })
  add(@Body() body: AddFactDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.add({ section: body.section, text: body.text }, caller);
  }

  @Delete('facts/:factId')
  @UseGuards(AuthGuard('jwt'))
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Remove a fact the patient added (others can only be hidden)' })
  @ApiParam(FACT_ID)
  @ApiOkResponse({ type: SummaryItemDoc, description: 'The summary, as a new version' })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'Not a fact the patient added' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'Fact not found' })
  remove(@Param('factId') factId: string, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.remove({ fact_id: factId }, caller);
  }

  @Post('confirm')
  @HttpCode(200)
  @UseGuards(AuthGuard('jwt'))
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Confirm the latest version as reviewed (the version kept for sharing)' })
  @ApiBody({ type: ConfirmSummaryBodyDoc })
  @ApiOkResponse({ type: SummaryItemDoc, description: 'The summary, with confirmed_version set' })
  @ApiConflictResponse({ type: ErrorDoc, description: 'The summary changed; review the new version.' })
  confirm(@Body() body: ConfirmSummaryDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.confirm({ version: body.version }, caller);
  }
}
