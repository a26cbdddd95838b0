import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { HistoryQueryDto, type CallerIdentity, type HistoryPage } from '@medfolio/contracts';
import { AuditRepository } from '../repositories/audit.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { HistoryPageDoc } from './openapi.models';

@ApiTags('history')
@ApiBearerAuth()
@Controller('history')
@UseGuards(AuthGuard('jwt'))
export class HistoryController {
  constructor(@Inject(AuditRepository) private readonly audit: AuditRepository) {}

  @Get()
  @ApiOperation({ summary: "The signed-in patient's access history: who read or changed their health data, newest first" })
  @ApiQuery({ name: 'page', required: false, type: Number, description: 'Page number, from 1' })
  @ApiQuery({ name: 'page_size', required: false, type: Number, description: 'Entries per page, 1 to 100 (default 20)' })
  @ApiOkResponse({ type: HistoryPageDoc })
  @ApiUnauthorizedResponse({ description: 'No valid access token' })
  list(@Query() query: HistoryQueryDto, @CurrentCaller() caller: CallerIdentity): Promise<HistoryPage> {
    return this.audit.history(query, caller);
  }
}
