import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '@medfolio/contracts';
import { INTERNAL_TOKEN_HEADER } from '@medfolio/messaging';
import { assertSafeBlobKey, forwardDownload, INTERNAL_FILES_PATH, type ForwardedDownload } from '@medfolio/storage';
import { GatewayConfig } from '../config';

/** Which service issued a link, by the first segment of its blob key. */
type Owner = 'documents' | 'identity' | 'wallet';
const OWNERS: readonly (readonly [prefix: string, owner: Owner])[] = [
  ['documents/', 'documents'],
  ['document-thumbnails/', 'documents'],
  ['profile-pictures/', 'identity'],
  ['wallet-passes/', 'wallet'],
];

/**
 * The download links (/api/files/<key>?expires&signature...) are served by the service that issued
 * them, from its own store with its own keys: the gateway only passes the request on to that
 * service's GET /internal/files/<key>?... and pipes the answer back, so it holds no storage key
 * and cannot read a blob by itself (docs/architecture.md, "Downloads").
 */
@Injectable()
export class FileDownloadsRepository {
  constructor(@Inject(GatewayConfig) private readonly config: GatewayConfig) {}

  /** `path` is the request's path and query from `/files/` on; an unknown or unsafe key is NOT_FOUND. */
  fetch(path: string): Promise<ForwardedDownload> {
    const token = this.config.internalApiToken;
    if (!token) return Promise.reject(new DomainError('UNAVAILABLE', 'Downloads are not configured (INTERNAL_API_TOKEN is not set).'));
    const owner = ownerOf(path);
    if (!owner) return Promise.reject(new DomainError('NOT_FOUND', 'Not found.'));
    const base = { documents: this.config.documentsInternalUrl, identity: this.config.identityInternalUrl, wallet: this.config.walletInternalUrl }[owner];
    const target = new URL(`${INTERNAL_FILES_PATH}${path}`, base);
    // The key was checked to be a plain relative key, so the path cannot leave /internal/files/.
    if (!target.pathname.startsWith(INTERNAL_FILES_PATH)) return Promise.reject(new DomainError('NOT_FOUND', 'Not found.'));
    return forwardDownload(target, { [INTERNAL_TOKEN_HEADER]: token });
  }
}

function ownerOf(path: string): Owner | undefined {
  const encodedKey = path.split('?')[0] ?? '';
  let key: string;
  try {
    key = decodeURIComponent(encodedKey);
    assertSafeBlobKey(key);
  } catch {
    return undefined;
  }
  return OWNERS.find(([prefix]) => key.startsWith(prefix))?.[1];
}
