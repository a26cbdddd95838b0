import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Inject, Injectable } from '@nestjs/common';
import { sniffStructuredRecord, STRUCTURED_SNIFF_BYTES, type StructuredKind } from '@medfolio/clinical';
import { callerHeaders, INTERNAL_TOKEN_HEADER } from '@medfolio/messaging';
import { SummaryConfig } from '../config';

/** The documents service's header with the display name (see its ContentController). */
const FILENAME_HEADER = 'x-document-filename';
/** …and the one with where it was fetched from, when a service fetched it (connections). */
const SOURCE_HEADER = 'x-document-source';

/** A document's bytes in a temporary file; `release()` removes it. */
export interface SpooledDocument {
  path: string;
  filename: string;
  contentType: string;
  /** Where the document was fetched from ("Springfield General Hospital via MyChart"); null for the patient's own uploads. */
  source?: string | null;
  release(): Promise<void>;
}

/** Structured records larger than this are not read again for their observations (extraction's own limit is lower). */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** A C-CDA or FHIR file's text, for reading its observations. */
export interface StructuredRecord {
  kind: StructuredKind;
  text: string;
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
    const rawSource = response.headers.get(SOURCE_HEADER);
    return {
      path: file,
      filename: rawName ? safeDecode(rawName) : 'document',
      source: rawSource ? safeDecode(rawSource).slice(0, 200) || null : null,
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      release,
    };
  }

  /** See readStructuredRecord. */
  readRecord(file: string): Promise<StructuredRecord | null> {
    return readStructuredRecord(file);
  }
}

/**
 * The spooled file's text when it is a C-CDA document or a FHIR resource (by content, as the
 * documents service sniffs uploads); null for anything else (PDF, image, zip...) or a record too large.
 */
export async function readStructuredRecord(file: string): Promise<StructuredRecord | null> {
  const size = (await stat(file)).size;
  const handle = await open(file, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(Math.min(size, STRUCTURED_SNIFF_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const kind = sniffStructuredRecord(head, size <= STRUCTURED_SNIFF_BYTES);
  if (!kind || size > MAX_RECORD_BYTES) return null;
  return { kind, text: (await readFile(file, 'utf8')).replace(/^\uFEFF/, '') };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return 'document';
  }
}
