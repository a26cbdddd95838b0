import { Body, Controller, Delete, Get, Headers, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { WALLET_SUBJECTS, type CallerIdentity } from '@medfolio/contracts';
import { FileDownloadsRepository } from '../repositories/file-downloads.repository';
import { ServicesRepository } from '../repositories/services.repository';
import { CurrentCaller } from '../services/caller.decorator';

interface Reply {
  status(code: number): Reply;
  header(name: string, value: string): Reply;
  headers(values: Record<string, string>): Reply;
  send(body?: unknown): unknown;
  raw: { destroy(error?: Error): void };
}

const FILES_PATH = '/api/files/';

/** `Authorization: ApplePass <token>` → the token ('' when absent or of another scheme: 401). */
function applePassToken(authorization: string | undefined): string {
  return /^ApplePass\s+(\S{1,200})$/.exec(authorization ?? '')?.[1] ?? '';
}

/**
 * Apple's Wallet web service (the pass's webServiceURL is the product's base URL + /api/passkit/:
 * PUBLIC_BASE_URL, else where `npm start` listens, see libs/config public-url.ts; WALLET_WEB_SERVICE_URL
 * overrides it. Wallet appends v1/... and needs https). Outside the bearer guard: a device proves it holds the pass with
 * `Authorization: ApplePass <authenticationToken>`, checked by the wallet service (401 wrong token,
 * 404 unknown pass). The latest pass is served through the wallet service's own signed link.
 */
@Controller('passkit/v1')
export class PassKitController {
  constructor(
    @Inject(ServicesRepository) private readonly services: ServicesRepository,
    @Inject(FileDownloadsRepository) private readonly downloads: FileDownloadsRepository,
  ) {}

  @Post('devices/:device/registrations/:passType/:serial')
  async register(
    @Param('device') device: string,
    @Param('passType') passType: string,
    @Param('serial') serial: string,
    @Headers('authorization') authorization: string | undefined,
    @Body() body: { pushToken?: unknown } | undefined,
    @CurrentCaller() caller: CallerIdentity,
    @Res() reply: Reply,
  ): Promise<void> {
    const pushToken = typeof body?.pushToken === 'string' ? body.pushToken : '';
    const { status } = await this.services.call(WALLET_SUBJECTS.passkitRegister, 
      { device_library_identifier: device, pass_type_identifier: passType, serial_number: serial, authentication_token: applePassToken(authorization), push_token: pushToken },
      caller,
    );
    reply.status(status).send();
  }

  @Delete('devices/:device/registrations/:passType/:serial')
  async unregister(
    @Param('device') device: string,
    @Param('passType') passType: string,
    @Param('serial') serial: string,
    @Headers('authorization') authorization: string | undefined,
    @CurrentCaller() caller: CallerIdentity,
    @Res() reply: Reply,
  ): Promise<void> {
    await this.services.call(WALLET_SUBJECTS.passkitUnregister, { device_library_identifier: device, pass_type_identifier: passType, serial_number: serial, authentication_token: applePassToken(authorization) }, caller);
    reply.status(200).send();
  }

  @Get('devices/:device/registrations/:passType')
  async updated(
    @Param('device') device: string,
    @Param('passType') passType: string,
    @Query('passesUpdatedSince') since: string | undefined,
    @CurrentCaller() caller: CallerIdentity,
    @Res() reply: Reply,
  ): Promise<void> {
    const answer = await this.services.call(WALLET_SUBJECTS.passkitUpdated, { device_library_identifier: device, pass_type_identifier: passType, ...(since ? { passes_updated_since: since } : {}) }, caller);
    if (!answer) reply.status(204).send();
    else reply.status(200).header('content-type', 'application/json').send(JSON.stringify(answer));
  }

  @Get('passes/:passType/:serial')
  async pass(
    @Param('passType') passType: string,
    @Param('serial') serial: string,
    @Headers('authorization') authorization: string | undefined,
    @Headers('if-modified-since') ifModifiedSince: string | undefined,
    @CurrentCaller() caller: CallerIdentity,
    @Res() reply: Reply,
  ): Promise<void> {
    const answer = await this.services.call(WALLET_SUBJECTS.passkitPass, 
      { pass_type_identifier: passType, serial_number: serial, authentication_token: applePassToken(authorization), ...(ifModifiedSince ? { if_modified_since: ifModifiedSince.slice(0, 100) } : {}) },
      caller,
    );
    if (answer.not_modified) {
      reply.status(304).header('last-modified', answer.last_modified).send();
      return;
    }
    if (!answer.url.startsWith(FILES_PATH)) {
      // S3 with presigned downloads: the device follows the redirect to the store.
      reply.status(302).header('location', answer.url).header('last-modified', answer.last_modified).send();
      return;
    }
    const download = await this.downloads.fetch(answer.url.slice(FILES_PATH.length));
    download.body.on('aborted', () => reply.raw.destroy());
    download.body.on('error', (error: Error) => reply.raw.destroy(error));
    reply.status(download.status).headers({ ...download.headers, 'last-modified': answer.last_modified, 'cache-control': 'no-store' }).send(download.body);
  }

  @Post('log')
  async log(@Body() body: { logs?: unknown } | undefined, @CurrentCaller() caller: CallerIdentity, @Res() reply: Reply): Promise<void> {
    const logs = Array.isArray(body?.logs) ? body.logs.filter((line): line is string => typeof line === 'string') : [];
    await this.services.call(WALLET_SUBJECTS.passkitLog, { logs }, caller);
    reply.status(200).send();
  }
}
