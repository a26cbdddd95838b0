import { Controller, Get, Inject, Res, UseFilters } from '@nestjs/common';
import { internalCallerOf, RawRequest } from '@medfolio/messaging';
import { HttpErrorFilter } from '@medfolio/runtime';
import { IdentityConfig } from '../config';
import { PictureDownloadsRepository } from '../repositories/picture-downloads.repository';

interface RawReply {
  headers(values: Record<string, string>): RawReply;
  send(body: unknown): unknown;
  raw: { destroy(error?: Error): void };
}

/**
 * GET /internal/files/...: the picture links identity issued, passed on by the gateway (which
 * holds no storage keys). Only the gateway may call it (shared INTERNAL_API_TOKEN).
 */
@Controller('internal/files')
@UseFilters(HttpErrorFilter)
export class FilesController {
  constructor(
    @Inject(PictureDownloadsRepository) private readonly downloads: PictureDownloadsRepository,
    @Inject(IdentityConfig) private readonly config: IdentityConfig,
  ) {}

  @Get('*')
  async serve(@RawRequest() req: { url: string; headers: Record<string, string | string[] | undefined> }, @Res() reply: RawReply): Promise<void> {
    internalCallerOf(req, this.config.internalApiToken);
    const download = await this.downloads.open(req.url);
    // A blob failing its encryption check mid-way: cut the response off rather than finish it.
    download.body.on('error', (error: Error) => reply.raw.destroy(error));
    reply.headers(download.headers).send(download.body);
  }
}
