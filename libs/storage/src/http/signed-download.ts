import type { Readable } from 'node:stream';
import { DomainError } from '@medfolio/contracts';
import type { BlobStorage } from '../blob-storage';
import { BlobNotFoundError } from '../errors';
import { attachmentContentDisposition } from '../http-headers';
import { verifySignedUrl } from '../signed-url';

/**
 * Types a browser shows without running anything in them. A link signed without a name is served
 * inline only if it is one of these; anything else (a C-CDA's XML with its `<?xml-stylesheet?>`,
 * JSON, an unknown type) is always an attachment.
 */
const INLINE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'application/pdf']);

/** Where a service serves the links it issued; the gateway passes `/api/files/<rest>` on as `/internal/files/<rest>`. */
export const INTERNAL_FILES_PATH = '/internal/files/';

export interface SignedDownload {
  headers: Record<string, string>;
  body: Readable;
}

export interface OpenSignedDownloadOptions {
  signingKey: string | null;
  /** The key prefixes this service owns; a link to anything else is not found here. */
  ownPrefixes: readonly string[];
  /** The base path of `url`; default {@link INTERNAL_FILES_PATH}. */
  basePath?: string;
}

/**
 * A download link the service issued, checked and opened: the blob as a stream with the headers to
 * send (the signed type, `Content-Disposition: attachment` with the signed name, `nosniff`). A
 * tampered, foreign or unknown link is NOT_FOUND; an expired one says so. If the blob's encryption
 * check fails mid-way the stream errors, and the response must be cut off rather than finished.
 */
export async function openSignedDownload(storage: BlobStorage, url: string, options: OpenSignedDownloadOptions): Promise<SignedDownload> {
  if (!options.signingKey) throw new DomainError('NOT_FOUND', 'Not found.');
  const verdict = verifySignedUrl(url, { signingKey: options.signingKey, basePath: options.basePath ?? INTERNAL_FILES_PATH });
  if (!verdict.valid) throw new DomainError('NOT_FOUND', verdict.reason === 'expired' ? 'This link has expired.' : 'Not found.');
  if (!options.ownPrefixes.some((prefix) => verdict.key.startsWith(prefix))) throw new DomainError('NOT_FOUND', 'Not found.');
  let body: Readable;
  try {
    body = await storage.get(verdict.key);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new DomainError('NOT_FOUND', 'Not found.');
    throw error;
  }
  const contentType = verdict.contentType ?? 'application/octet-stream';
  let disposition = INLINE_TYPES.has(contentType) ? 'inline' : 'attachment';
  if (verdict.filename) disposition = attachmentContentDisposition(verdict.filename);
  return {
    body,
    headers: {
      'content-type': contentType,
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
      'content-disposition': disposition,
    },
  };
}
