import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { DomainError } from '@medfolio/contracts';
import { attachmentContentDisposition, BLOB_STORAGE, BlobNotFoundError, verifySignedUrl, type BlobStorage } from '@medfolio/storage';
import { STORAGE_URL_SIGNING_KEY } from './files.tokens';

interface RawReply {
  status(code: number): RawReply;
  header(name: string, value: string): RawReply;
  send(body: unknown): unknown;
  raw: { destroy(error?: Error): void };
}

/**
 * GET /api/files/...: the time-limited, signed download links of the filesystem store, and of the
 * S3 store unless S3_DOWNLOADS=presigned (then links point at S3 itself). Served from this origin
 * with nosniff and the signed type and filename. A tampered or expired link gets 404; a file whose
 * encryption check fails mid-way is cut off rather than finished.
 */
@ApiExcludeController()
@Controller('files')
@SkipThrottle()
export class FilesController {
  constructor(
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    @Inject(STORAGE_URL_SIGNING_KEY) private readonly signingKey: string | null,
  ) {}

  @Get('*')
  async serve(@Req() req: { url: string }, @Res() reply: RawReply): Promise<void> {
    if (!this.signingKey) throw new DomainError('NOT_FOUND', 'Not found.');
    const verdict = verifySignedUrl(req.url, { signingKey: this.signingKey });
    if (!verdict.valid) throw new DomainError('NOT_FOUND', verdict.reason === 'expired' ? 'This link has expired.' : 'Not found.');
    let stream;
    try {
      stream = await this.storage.get(verdict.key);
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw new DomainError('NOT_FOUND', 'Not found.');
      throw error;
    }
    stream.on('error', (error: Error) => reply.raw.destroy(error));
    reply
      .header('content-type', verdict.contentType ?? 'application/octet-stream')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .header('content-disposition', verdict.filename ? attachmentContentDisposition(verdict.filename) : 'inline')
      .send(stream);
  }
}
