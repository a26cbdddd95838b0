import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORAGE, DOWNLOAD_LINK_SIGNING_KEY, openSignedDownload, type BlobStorage, type SignedDownload } from '@medfolio/storage';
import { DOCUMENT_KEY_PREFIX, THUMBNAIL_KEY_PREFIX } from './document-blobs.repository';

/** Opens the document and thumbnail links this service issued (the gateway passes them on). */
@Injectable()
export class DocumentDownloadsRepository {
  constructor(
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    @Inject(DOWNLOAD_LINK_SIGNING_KEY) private readonly signingKey: string | null,
  ) {}

  open(url: string): Promise<SignedDownload> {
    return openSignedDownload(this.storage, url, {
      signingKey: this.signingKey,
      ownPrefixes: [DOCUMENT_KEY_PREFIX, THUMBNAIL_KEY_PREFIX],
    });
  }
}
