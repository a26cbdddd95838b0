import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { DomainError } from '@medfolio/contracts';
import { FileDownloadsRepository } from '../repositories/file-downloads.repository';

interface RawReply {
  status(code: number): RawReply;
  headers(values: Record<string, string>): RawReply;
  send(body: unknown): unknown;
  raw: { destroy(error?: Error): void };
}

const FILES_PATH = '/api/files/';

/**
 * GET /api/files/...: the time-limited, signed download links of the filesystem store, and of the
 * S3 store unless S3_DOWNLOADS=presigned (then links point at S3 itself). Served on this origin,
 * so the strict CSP needs no exception, but by the service that issued the link (it checks the
 * signature and streams the blob with the signed type and name and nosniff); this route pipes the
 * answer through. A download the service cuts off (a failed encryption check) is cut off here too.
 */
@Controller('files')
@SkipThrottle()
export class FilesController {
  constructor(@Inject(FileDownloadsRepository) private readonly downloads: FileDownloadsRepository) {}

  @Get('*')
  async serve(@Req() req: { url: string }, @Res() reply: RawReply): Promise<void> {
    if (!req.url.startsWith(FILES_PATH)) throw new DomainError('NOT_FOUND', 'Not found.');
    const download = await this.downloads.fetch(req.url.slice(FILES_PATH.length));
    download.body.on('aborted', () => reply.raw.destroy());
    download.body.on('error', (error: Error) => reply.raw.destroy(error));
    reply.status(download.status).headers(download.headers).send(download.body);
  }
}
