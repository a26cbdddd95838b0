/**
 * Time-limited download URLs served by the gateway, for the filesystem store and for S3 with
 * gateway downloads. A store cannot serve HTTP itself, so it signs a URL that a gateway route
 * (mounted at the base path) checks with {@link verifySignedUrl} before streaming the blob:
 *
 *   <basePath><key>?expires=<unix seconds>&filename=<name>&type=<content type>&signature=<base64url>
 *
 * The signature is HMAC-SHA256 over the key, expiry, filename and content type, so none of them
 * can be changed without invalidating the URL.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

import { assertSafeBlobKey } from './blob-key';
import type { DownloadUrlOptions } from './blob-storage';

export const DEFAULT_DOWNLOAD_BASE_PATH = '/api/files/';
const MIN_SIGNING_KEY_LENGTH = 32;

export interface SignDownloadUrlInput {
  key: string;
  expiresAt: Date;
  filename?: string;
  contentType?: string;
  signingKey: string;
  /** Default {@link DEFAULT_DOWNLOAD_BASE_PATH}. */
  basePath?: string;
}

export interface VerifySignedUrlOptions {
  signingKey: string;
  /** Must be the base path the URL was signed with. Default {@link DEFAULT_DOWNLOAD_BASE_PATH}. */
  basePath?: string;
  /** The current time; injectable for tests. */
  now?: Date;
}

/** What a gateway route needs to serve the download, or why it must refuse (403). */
export type SignedUrlVerification =
  | { valid: true; key: string; expiresAt: Date; filename?: string; contentType?: string }
  | { valid: false; reason: 'malformed' | 'bad-signature' | 'expired' };

/** Throws unless the signing key and base path are usable; the stores call it at construction. */
export function assertValidUrlSigning(signingKey: string, basePath: string): void {
  if (signingKey.length < MIN_SIGNING_KEY_LENGTH) {
    throw new Error(`The URL signing key must be at least ${MIN_SIGNING_KEY_LENGTH} characters long`);
  }
  if (!basePath.startsWith('/') || !basePath.endsWith('/')) {
    throw new Error(`The download base path must start and end with "/", got "${basePath}"`);
  }
}

/**
 * A store's createDownloadUrl for links the gateway serves: valid for `options.expiresInSeconds`
 * from now, offering `options.filename` (default: the key's last segment).
 */
export function gatewayDownloadUrl(key: string, options: DownloadUrlOptions, signingKey: string, basePath: string): string {
  return signDownloadUrl({
    key,
    expiresAt: new Date(Date.now() + options.expiresInSeconds * 1000),
    filename: options.filename ?? key.split('/').pop(),
    contentType: options.contentType,
    signingKey,
    basePath,
  });
}

/** Returns the signed path-and-query (relative to the public origin of the gateway). */
export function signDownloadUrl(input: SignDownloadUrlInput): string {
  const basePath = input.basePath ?? DEFAULT_DOWNLOAD_BASE_PATH;
  assertValidUrlSigning(input.signingKey, basePath);
  assertSafeBlobKey(input.key);
  const expires = Math.floor(input.expiresAt.getTime() / 1000);
  const query = new URLSearchParams({ expires: String(expires) });
  if (input.filename !== undefined) query.set('filename', input.filename);
  if (input.contentType !== undefined) query.set('type', input.contentType);
  query.set('signature', signature(input.signingKey, input.key, expires, input.filename, input.contentType));
  return `${basePath}${input.key}?${query.toString()}`;
}

/**
 * Checks a URL produced by {@link signDownloadUrl}: accepts the request's path-and-query or an
 * absolute URL. The signature is checked before the expiry, so "expired" is only ever reported
 * for a URL we really issued.
 */
export function verifySignedUrl(url: string, options: VerifySignedUrlOptions): SignedUrlVerification {
  const basePath = options.basePath ?? DEFAULT_DOWNLOAD_BASE_PATH;
  assertValidUrlSigning(options.signingKey, basePath);
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://signed-url.invalid');
  } catch {
    return { valid: false, reason: 'malformed' };
  }
  const query = parsed.searchParams;
  const expiresParam = query.get('expires') ?? '';
  const givenSignature = query.get('signature');
  const filename = query.get('filename') ?? undefined;
  const contentType = query.get('type') ?? undefined;
  if (!parsed.pathname.startsWith(basePath) || !/^\d{1,12}$/.test(expiresParam) || givenSignature === null) {
    return { valid: false, reason: 'malformed' };
  }
  const key = decodePath(parsed.pathname.slice(basePath.length));
  if (key === undefined) return { valid: false, reason: 'malformed' };

  const expires = Number(expiresParam);
  const expected = Buffer.from(signature(options.signingKey, key, expires, filename, contentType));
  const given = Buffer.from(givenSignature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { valid: false, reason: 'bad-signature' };
  }
  const expiresAt = new Date(expires * 1000);
  if ((options.now ?? new Date()).getTime() >= expiresAt.getTime()) return { valid: false, reason: 'expired' };
  return { valid: true, key, expiresAt, filename, contentType };
}

/** The blob key in the URL path, or undefined if it does not decode to a safe key. */
function decodePath(path: string): string | undefined {
  try {
    const key = decodeURIComponent(path);
    assertSafeBlobKey(key);
    return key;
  } catch {
    return undefined;
  }
}

function signature(signingKey: string, key: string, expires: number, filename?: string, contentType?: string): string {
  // JSON encoding keeps the fields unambiguous whatever characters the filename holds.
  const payload = JSON.stringify(['medfolio-download-v1', key, expires, filename ?? null, contentType ?? null]);
  return createHmac('sha256', signingKey).update(payload).digest('base64url');
}
