import { Body, Controller, Get, HttpCode, Inject, Options, Post, Query, Res, UseGuards } from '@nestjs/common';
import {
  DomainError,
  ShlFileDto,
  ShlLinkDto,
  ShlManifestBodyDto,
  SummaryPdfQueryDto,
  SHARE_FORMAT_SUBJECTS,
  SHARE_READ_HEADERS,
  type CallerIdentity,
} from '@medfolio/contracts';
import { ServicesRepository } from '../repositories/services.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { TokenIfSentGuard } from '../services/token-if-sent.guard';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  headers(values: Record<string, string>): Reply;
  send(body: unknown): unknown;
}

/** SMART Health Link clients may be web apps on other origins: the manifest and files allow any origin (no cookies). */
const SHL_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

/**
 * The summary's shared formats whose HTTP is special (the route table documents them; the FHIR
 * Bundle is a plain forward): the PDF's bytes, and SMART Health Links' manifest and file, which
 * any origin may call and whose wrong passcode answers the SHL spec's `remainingAttempts`. One
 * call each to the summary service, which decides access as for GET /api/summary/.
 */
@Controller('summary')
export class ShareFormatsController {
  constructor(@Inject(ServicesRepository) private readonly services: ServicesRepository) {}

  @Get('pdf')
  @UseGuards(TokenIfSentGuard)
  async pdf(
    @Query() query: SummaryPdfQueryDto,
    @CurrentCaller() caller: CallerIdentity,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<Buffer> {
    const pdf = await this.services.call(SHARE_FORMAT_SUBJECTS.pdf, query, caller);
    reply.headers({
      ...SHARE_READ_HEADERS,
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${pdf.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'x-content-type-options': 'nosniff',
    });
    return Buffer.from(pdf.content_base64, 'base64');
  }

  @Options('shl')
  @HttpCode(204)
  manifestPreflight(@Res({ passthrough: true }) reply: Reply): void {
    reply.headers(SHL_CORS);
  }

  @Post('shl')
  async manifest(
    @Query() query: ShlLinkDto,
    @Body() body: ShlManifestBodyDto,
    @CurrentCaller() caller: CallerIdentity,
    @Res() reply: Reply,
  ): Promise<void> {
    const dto = {
      user: query.user,
      tag: query.tag,
      recipient: body.recipient,
      ...(body.passcode !== undefined ? { passcode: body.passcode } : {}),
      ...(body.embeddedLengthMax !== undefined ? { embeddedLengthMax: body.embeddedLengthMax } : {}),
    };
    try {
      const manifest = await this.services.call(SHARE_FORMAT_SUBJECTS.shlManifest, dto, caller);
      reply
        .status(200)
        .headers({ ...SHARE_READ_HEADERS, ...SHL_CORS, 'content-type': 'application/json; charset=utf-8' })
        .send(manifest);
    } catch (error) {
      const left =
        error instanceof DomainError && error.code === 'UNAUTHENTICATED'
          ? error.details?.['remaining_attempts']?.[0]
          : undefined;
      if (left === undefined || !/^\d+$/.test(left)) throw error;
      // The SHL spec's answer to a wrong passcode: 401 with the attempts left.
      reply
        .status(401)
        .headers({ ...SHARE_READ_HEADERS, ...SHL_CORS, 'content-type': 'application/json; charset=utf-8' })
        .send({ remainingAttempts: Number(left), message: (error as DomainError).message, code: 'UNAUTHENTICATED' });
    }
  }

  @Get('shl/file')
  async file(
    @Query() query: ShlFileDto,
    @CurrentCaller() caller: CallerIdentity,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<string> {
    const { jwe } = await this.services.call(SHARE_FORMAT_SUBJECTS.shlFile, { user: query.user, tag: query.tag, token: query.token }, caller);
    reply.headers({ ...SHARE_READ_HEADERS, ...SHL_CORS, 'content-type': 'application/jose' });
    return jwe;
  }
}
