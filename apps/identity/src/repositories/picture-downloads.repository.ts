import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORAGE, DOWNLOAD_LINK_SIGNING_KEY, openSignedDownload, type BlobStorage, type SignedDownload } from '@medfolio/storage';
import { PROFILE_PICTURE_KEY_PREFIX } from '../pictures';

/** Opens the picture links identity issued (the gateway passes them on); nothing but profile pictures. */
@Injectable()
export class PictureDownloadsRepository {
  constructor(
    @Inject(BLOB_STORAGE) private readonly storage: BlobStorage,
    @Inject(DOWNLOAD_LINK_SIGNING_KEY) private readonly signingKey: string | null,
  ) {}

  open(url: string): Promise<SignedDownload> {
    return openSignedDownload(this.storage, url, { signingKey: this.signingKey, ownPrefixes: [PROFILE_PICTURE_KEY_PREFIX] });
  }
}
