import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Inject, Injectable } from '@nestjs/common';
import { callerHeaders, INTERNAL_TOKEN_HEADER } from '@medfolio/messaging';
import { SummaryConfig } from '../config';

/** The documents service's header with the display name (see its ContentController). */
const FILENAME_HEADER = 'x-document-filename';

/** A document's bytes in a temporary file; `release()` removes it. */
export interface SpooledDocument {
  path: string;
  filename: string;
  contentType: string;
  release(): Promise<void>;
}

/** The document is gone (deleted, or not this owner's): nothing to read. */
export class DocumentGoneError extends Error {
  constructor() {
    super('The document is no longer stored');
    this.name = 'DocumentGoneError';
  }
}

/**
 * Reads a document's bytes from the documents service over its internal HTTP route (never NATS),
 * streamed to a temporary file (never whole in memory), because the readers (PDF, zip, OCR) want
 * a file they can seek in.
 */
@Injectable()
export class DocumentContentRepository {
  constructor(@Inject(SummaryConfig) private readonly config: SummaryConfig) {}

  async spool(documentId: string, ownerId: string, signal?: AbortSignal): Promise<SpooledDocument> {
    const token = this.config.internalApiToken;
    if (!token) throw new Error('INTERNAL_API_TOKEN is not set: documents cannot be read');
    const url = new URL(`/internal/documents/${encodeURIComponent(documentId)}/content`, this.config.documentsInternalUrl);
    url.searchParams.set('owner', ownerId);
    const caller = { userId: 'system', roles: ['system'], correlationId: randomUUID() };
    const response = await fetch(url, {
      headers: { [INTERNAL_TOKEN_HEADER]: token, ...callerHeaders(caller) },
      ...(signal ? { signal } : {}),
    });
    if (response.status === 404) {
      await response.body?.cancel();
      throw new DocumentGoneError();
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Error(`documents answered ${response.status} to a content read`);
    }
    const dir = await mkdtemp(path.join(this.config.spoolDir ?? tmpdir(), 'medfolio-summary-'));
    const release = () => rm(dir, { recursive: true, force: true });
    const file = path.join(dir, 'document');
    try {
      await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(file, { mode: 0o600 }), signal ? { signal } : {});
    } catch (error) {
      await release();
      throw error;
    }
    const rawName = response.headers.get(FILENAME_HEADER);
    return {
      path: file,
      filename: rawName ? safeDecode(rawName) : 'document',
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      release,
    };
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return 'document';
  }
}
