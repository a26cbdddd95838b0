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
  type CallerIdentity,
  type SummaryItem,
} from '@medfolio/contracts';
import { SummaryRepository } from '../repositories/summary.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ErrorDoc } from './openapi.models';
import { AddFactBodyDoc, ConfirmSummaryBodyDoc, EditFactBodyDoc, HideFactBodyDoc, SummaryItemDoc } from './summary.openapi';

/**
 * GET /api/summary/ answers 404 to a signed-out caller (a summary's existence is not revealed), but
 * a token that is sent must be valid (401), so the web app still refreshes an expired one.
 */
@Injectable()
class TokenIfSentGuard extends AuthGuard('jwt') {
  override canActivate(context: ExecutionContext) {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    return req.headers['authorization'] ? super.canActivate(context) : true;
  }
}

const FACT_ID = { name: 'factId', format: 'uuid', description: 'A fact id from the summary' } as const;

/**
 * The patient's summary (issue 14) and their review of it. Thin: one call to the summary service
 * each, with the caller identity; it decides who may see what, audits and answers.
 */
@ApiTags('summary')
@ApiBearerAuth()
@Controller('summary')
export class SummaryController {
  constructor(@Inject(SummaryRepository) private readonly summaries: SummaryRepository) {}

  @Get()
  @UseGuards(TokenIfSentGuard)
  @ApiOperation({
    summary: "A patient's summary: the text, its sections with cited facts, and the reading state of each document",
    description:
      'For now only the owner: anyone else, or nobody signed in, gets 404. A list with one item (the seed shape). The summary is ' +
      'rebuilt a moment after documents change; `status` is `processing` until then.',
  })
  @ApiQuery({ name: 'user', required: true, type: String, description: "The patient's user id", example: '0b7e4c1e-5d1a-4c36-9a51-8f3f1f0c2a11' })
  @ApiOkResponse({ type: [SummaryItemDoc] })
  @ApiUnauthorizedResponse({ type: ErrorDoc, description: 'An access token was sent and is not valid' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'Summary not found (not yours, or not signed in)' })
  get(@Query() query: SummaryQueryDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem[]> {
    return this.summaries.get(query, caller);
  }

  @Post('facts/:factId/hide')
  @HttpCode(200)
  @UseGuards(AuthGuard('jwt'))
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
  @ApiOperation({ summary: 'Add a fact to a section (marked added by the patient, with no sources)' })
  @ApiBody({ type: AddFactBodyDoc })
  @ApiOkResponse({ type: SummaryItemDoc, description: 'The summary, as a new version' })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'Unknown section, or text not 1 to 300 characters' })
  add(@Body() body: AddFactDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.add({ section: body.section, text: body.text }, caller);
  }

  @Delete('facts/:factId')
  @UseGuards(AuthGuard('jwt'))
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
  @ApiOperation({ summary: 'Confirm the latest version as reviewed (the version kept for sharing)' })
  @ApiBody({ type: ConfirmSummaryBodyDoc })
  @ApiOkResponse({ type: SummaryItemDoc, description: 'The summary, with confirmed_version set' })
  @ApiConflictResponse({ type: ErrorDoc, description: 'The summary changed; review the new version.' })
  confirm(@Body() body: ConfirmSummaryDto, @CurrentCaller() caller: CallerIdentity): Promise<SummaryItem> {
    return this.summaries.confirm({ version: body.version }, caller);
  }
}
