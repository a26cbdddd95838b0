import { Controller, Get, Inject, Res, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { TRENDS_SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import { ServicesRepository } from '../repositories/services.repository';
import { CurrentCaller } from '../services/caller.decorator';

interface Reply {
  headers(values: Record<string, string>): Reply;
}

/**
 * GET /api/trends/export.csv (trendsExport in the route table): the summary service writes the CSV
 * and answers it over RPC; this sends it as a text/csv download. Hand-written because the answer is
 * not JSON; GET /api/trends/ is forwarded from the table.
 */
@Controller('trends')
@UseGuards(AuthGuard('jwt'))
export class TrendsExportController {
  constructor(@Inject(ServicesRepository) private readonly services: ServicesRepository) {}

  @Get('export.csv')
  async exportCsv(@CurrentCaller() caller: CallerIdentity, @Res({ passthrough: true }) reply: Reply): Promise<string> {
    const csv = await this.services.call(TRENDS_SUBJECTS.exportCsv, {}, caller);
    reply.headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${csv.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    return csv.content;
  }
}
