import type { Readable } from 'node:stream';
import { Controller, HttpCode, Inject, Post, UseFilters } from '@nestjs/common';
import { DomainError, type UploadReply } from '@medfolio/contracts';
import { internalCallerOf, RawRequest } from '@medfolio/messaging';
import { HttpErrorFilter } from '@medfolio/runtime';
import { discardRestOfBody } from '@medfolio/storage';
import { DocumentsConfig } from '../config';
import { UPLOAD_MESSAGES, UploadService } from '../services/upload.service';

/**
 * Where an internal caller (connections) fetched the files from, URI-encoded ("Springfield General
 * Hospital via MyChart"). The gateway builds its own headers when it forwards a browser's upload, so a
 * browser cannot set it.
 */
export const SOURCE_HEADER = 'x-document-source';
const MAX_SOURCE_CHARS = 200;

function sourceOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  let text: string;
  try {
    text = decodeURIComponent(Array.isArray(header) ? (header[0] ?? '') : header).trim();
  } catch {
    throw new DomainError('VALIDATION_FAILED', UPLOAD_MESSAGES.badSource);
  }
  if (text.length > MAX_SOURCE_CHARS || /\p{Cc}/u.test(text)) throw new DomainError('VALIDATION_FAILED', UPLOAD_MESSAGES.badSource);
  return text || null;
}

interface InternalUploadRequest {
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/**
 * POST /internal/documents: the gateway passes the browser's multipart body on as it arrives (file
 * bytes never go over NATS). Only the gateway may call it (shared INTERNAL_API_TOKEN); the user
 * comes from the caller headers the gateway built from the verified access token.
 */
@Controller('internal')
@UseFilters(HttpErrorFilter)
export class UploadController {
  constructor(
    @Inject(UploadService) private readonly uploads: UploadService,
    @Inject(DocumentsConfig) private readonly config: DocumentsConfig,
  ) {}

  @Post('documents')
  @HttpCode(201)
  async upload(@RawRequest() req: InternalUploadRequest): Promise<UploadReply> {
    try {
      const caller = internalCallerOf(req, this.config.internalApiToken);
      const contentType = req.headers['content-type'];
      if (typeof req.body?.pipe !== 'function')
        throw new DomainError('VALIDATION_FAILED', UPLOAD_MESSAGES.notMultipart);
      return await this.uploads.upload(caller, {
        contentType: Array.isArray(contentType) ? contentType[0] : contentType,
        body: req.body,
        source: sourceOf(req.headers[SOURCE_HEADER]),
      });
    } catch (error) {
      discardRestOfBody(req.body);
      throw error;
    }
  }
}
