import { Controller, Get, Inject, Injectable, Res, UseFilters, type Provider } from '@nestjs/common';
import { internalCallerOf, RawRequest } from '@medfolio/messaging';
import { BLOB_STORAGE, DOWNLOAD_LINK_SIGNING_KEY, openSignedDownload, type BlobStorage, type SignedDownload } from '@medfolio/storage';
import { HttpErrorFilter } from './http-exception.filter';
import { blobStorageConfigFor, downloadLinkSigningKey } from './storage.factory';

/**
 * A service that keeps files serves the download links it issued itself (GET /internal/files/...),
 * passed on by the gateway, which holds no storage key. The same for every such service; each says
 * which storage keys are its own.
 */
export interface SignedFilesOptions {
  /** Key prefixes this service's links may name (e.g. 'documents/'); any other key answers 404. */
  ownPrefixes: string[];
  /** The service's config: its storage settings, and INTERNAL_API_TOKEN (read per request: the launcher fills it in). */
  config: Parameters<typeof blobStorageConfigFor>[0] & { internalApiToken?: string | undefined };
}

const SIGNED_FILES_OPTIONS = Symbol('SIGNED_FILES_OPTIONS');

@Injectable()
export class SignedDownloadsRepository {
  constructor(
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    @Inject(DOWNLOAD_LINK_SIGNING_KEY) private readonly signingKey: string | null,
    @Inject(SIGNED_FILES_OPTIONS) private readonly options: SignedFilesOptions,
  ) {}

  open(url: string): Promise<SignedDownload> {
    return openSignedDownload(this.storage, url, { signingKey: this.signingKey, ownPrefixes: this.options.ownPrefixes });
  }
}

interface RawReply {
  headers(values: Record<string, string>): RawReply;
  send(body: unknown): unknown;
  raw: { destroy(error?: Error): void };
}

/** GET /internal/files/...: only the gateway may call it (shared INTERNAL_API_TOKEN). */
@Controller('internal/files')
@UseFilters(HttpErrorFilter)
export class SignedFilesController {
  constructor(
    @Inject(SignedDownloadsRepository) private readonly downloads: SignedDownloadsRepository,
    @Inject(SIGNED_FILES_OPTIONS) private readonly options: SignedFilesOptions,
  ) {}

  @Get('*')
  async serve(@RawRequest() req: { url: string; headers: Record<string, string | string[] | undefined> }, @Res() reply: RawReply): Promise<void> {
    internalCallerOf(req, this.options.config.internalApiToken);
    const download = await this.downloads.open(req.url);
    // A blob failing its encryption check mid-way: cut the response off rather than finish it.
    download.body.on('error', (error: Error) => reply.raw.destroy(error));
    reply.headers(download.headers).send(download.body);
  }
}

/** The providers SignedFilesController needs: register both in the service's module. */
export function signedFilesProviders(options: SignedFilesOptions): Provider[] {
  return [
    { provide: SIGNED_FILES_OPTIONS, useValue: options },
    { provide: DOWNLOAD_LINK_SIGNING_KEY, useFactory: async () => downloadLinkSigningKey(await blobStorageConfigFor(options.config)) },
    SignedDownloadsRepository,
  ];
}
