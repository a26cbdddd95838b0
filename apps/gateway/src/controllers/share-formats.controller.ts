import { Body, Controller, Get, HttpCode, Inject, Options, Post, Query, Res, UseGuards } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExcludeEndpoint,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  DomainError,
  ShlFileDto,
  ShlLinkDto,
  ShlManifestBodyDto,
  SummaryPdfQueryDto,
  SummaryQueryDto,
  type CallerIdentity,
  type FhirBundle,
} from '@medfolio/contracts';
import { ShareFormatsRepository } from '../repositories/share-formats.repository';
import { CurrentCaller } from '../services/caller.decorator';
import { ErrorDoc } from './openapi.models';
import { ShlManifestBodyDoc, ShlManifestDoc, ShlRemainingAttemptsDoc } from './share-formats.openapi';
import { TokenIfSentGuard } from './summary.controller';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  headers(values: Record<string, string>): Reply;
  send(body: unknown): unknown;
}

/** Every answer of these routes: never cached or indexed, never a referrer to the link. */
const PUBLIC_HEADERS = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex', 'referrer-policy': 'no-referrer' };
/** SMART Health Link clients may be web apps on other origins: the manifest and files allow any origin (no cookies). */
const SHL_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '600',
};

const USER_QUERY = {
  name: 'user',
  required: true,
  type: String,
  description: "A share id (anyone holding the link), or the signed-in owner's own user id",
} as const;
const VIEW_TOKEN_QUERY = {
  name: 'view_token',
  required: false,
  type: String,
  description: "A passcode link's view token (POST /api/summary/unlock/)",
} as const;

/**
 * The summary in other formats: a FHIR R4 International Patient Summary, a printable PDF,
 * and SMART Health Links' manifest and file. Thin: one call each to the summary service, which
 * decides access as for GET /api/summary/ (share id or owner, passcode, audit).
 */
@ApiTags('summary')
@ApiExtraModels(ShlManifestDoc, ShlRemainingAttemptsDoc)
@Controller('summary')
export class ShareFormatsController {
  constructor(@Inject(ShareFormatsRepository) private readonly formats: ShareFormatsRepository) {}

  @Get('fhir')
  @UseGuards(TokenIfSentGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'The summary as a FHIR R4 International Patient Summary (IPS) document Bundle',
    description:
      'Bundle type document; Composition LOINC 60591-5 with the Problems (11450-4), Medications (10160-0) and Allergies (48765-2) sections always, ' +
      'and past illness, immunizations, procedures, results and vital signs when present. Codes (SNOMED CT, RxNorm, LOINC, CVX...) where the records gave them, text always. ' +
      'Through a share link: the confirmed version, without hidden facts or the patient id.',
  })
  @ApiQuery(USER_QUERY)
  @ApiQuery(VIEW_TOKEN_QUERY)
  @ApiProduces('application/fhir+json')
  @ApiOkResponse({
    description: 'A FHIR R4 Bundle (application/fhir+json)',
    schema: {
      type: 'object',
      required: ['resourceType', 'type'],
      properties: {
        resourceType: { type: 'string', enum: ['Bundle'] },
        type: { type: 'string', enum: ['document'] },
        entry: { type: 'array', items: { type: 'object' } },
      },
    },
  })
  @ApiResponse({ status: 403, type: ErrorDoc, description: 'This link needs a passcode.' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'This link is not valid.' })
  async fhir(
    @Query() query: SummaryQueryDto,
    @CurrentCaller() caller: CallerIdentity,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<FhirBundle> {
    const bundle = await this.formats.fhir(query, caller);
    reply.headers({ ...PUBLIC_HEADERS, 'content-type': 'application/fhir+json; charset=utf-8' });
    return bundle;
  }

  @Get('pdf')
  @UseGuards(TokenIfSentGuard)
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'The summary as a printable PDF (A4 or Letter), with the link QR code and expiry',
    description:
      "One page where it fits. Through a share link the QR is that link's; for the owner, their default link's.",
  })
  @ApiQuery(USER_QUERY)
  @ApiQuery({ name: 'size', required: false, enum: ['a4', 'letter'], description: 'Paper size (default a4)' })
  @ApiQuery(VIEW_TOKEN_QUERY)
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF', schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 400, type: ErrorDoc, description: 'size must be a4 or letter.' })
  @ApiResponse({ status: 403, type: ErrorDoc, description: 'This link needs a passcode.' })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'This link is not valid.' })
  async pdf(
    @Query() query: SummaryPdfQueryDto,
    @CurrentCaller() caller: CallerIdentity,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<Buffer> {
    const pdf = await this.formats.pdf(query, caller);
    reply.headers({
      ...PUBLIC_HEADERS,
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${pdf.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
      'x-content-type-options': 'nosniff',
    });
    return Buffer.from(pdf.content_base64, 'base64');
  }

  @Options('shl')
  @HttpCode(204)
  @ApiExcludeEndpoint()
  manifestPreflight(@Res({ passthrough: true }) reply: Reply): void {
    reply.headers(SHL_CORS);
  }

  @Post('shl')
  @ApiOperation({
    summary: "A SMART Health Link's manifest (the SHL payload's url)",
    description:
      'The HL7 SMART Health Links manifest request: `recipient`, and `passcode` when the payload has flag P. Answers the manifest with one file, ' +
      'the IPS Bundle as a compact JWE (alg dir, enc A256GCM, cty application/fhir+json) embedded, or at a location valid for an hour when it is longer than ' +
      '`embeddedLengthMax`. A wrong passcode answers 401 with `remainingAttempts`; at the limit the link locks. Revoked, expired, locked or unknown links answer 404.',
  })
  @ApiQuery({ name: 'user', required: true, type: String, description: 'The share id' })
  @ApiQuery({ name: 'tag', required: true, type: String, description: "The tag binding the URL to the link's SHL key" })
  @ApiBody({ type: ShlManifestBodyDoc })
  @ApiOkResponse({ schema: { $ref: getSchemaPath(ShlManifestDoc) } })
  @ApiResponse({
    status: 401,
    schema: { $ref: getSchemaPath(ShlRemainingAttemptsDoc) },
    description: 'Wrong or missing passcode',
  })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'This link is not valid.' })
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
      const manifest = await this.formats.manifest(dto, caller);
      reply
        .status(200)
        .headers({ ...PUBLIC_HEADERS, ...SHL_CORS, 'content-type': 'application/json; charset=utf-8' })
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
        .headers({ ...PUBLIC_HEADERS, ...SHL_CORS, 'content-type': 'application/json; charset=utf-8' })
        .send({ remainingAttempts: Number(left), message: (error as DomainError).message, code: 'UNAUTHENTICATED' });
    }
  }

  @Get('shl/file')
  @ApiOperation({
    summary:
      'A SMART Health Link file location: the IPS Bundle as a compact JWE (application/jose), valid an hour after the manifest gave it',
  })
  @ApiQuery({ name: 'user', required: true, type: String })
  @ApiQuery({ name: 'tag', required: true, type: String })
  @ApiQuery({ name: 'token', required: true, type: String })
  @ApiProduces('application/jose')
  @ApiOkResponse({ description: 'The compact JWE', schema: { type: 'string' } })
  @ApiNotFoundResponse({ type: ErrorDoc, description: 'This link is not valid.' })
  async file(
    @Query() query: ShlFileDto,
    @CurrentCaller() caller: CallerIdentity,
    @Res({ passthrough: true }) reply: Reply,
  ): Promise<string> {
    const { jwe } = await this.formats.file({ user: query.user, tag: query.tag, token: query.token }, caller);
    reply.headers({ ...PUBLIC_HEADERS, ...SHL_CORS, 'content-type': 'application/jose' });
    return jwe;
  }
}
