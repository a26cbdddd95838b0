import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { PKPASS_CONTENT_TYPE, WALLET_PASS_KEY_PREFIX } from '@medfolio/contracts';
import { BLOB_STORAGE, BlobNotFoundError, type BlobStorage } from '@medfolio/storage';

const SERIAL = /^[0-9a-f-]{36}$/;
const DIGEST = /^[0-9a-f]{16,64}$/;

/** Signed passes in blob storage: `wallet-passes/<serial>/<digest>.pkpass`, one per signed state. */
@Injectable()
export class PassBlobsRepository {
  constructor(@Inject(BLOB_STORAGE) private readonly storage: BlobStorage) {}

  keyFor(serialNumber: string, digest: string): string {
    if (!SERIAL.test(serialNumber) || !DIGEST.test(digest)) throw new TypeError('A pass key needs a serial number (UUID) and a hex digest');
    return `${WALLET_PASS_KEY_PREFIX}${serialNumber}/${digest}.pkpass`;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.storage.put(key, Readable.from([bytes]), { contentType: PKPASS_CONTENT_TYPE });
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.storage.head(key);
      return true;
    } catch (error) {
      if (error instanceof BlobNotFoundError) return false;
      throw error;
    }
  }

  /** Idempotent: the pass signed before the current one. */
  delete(key: string): Promise<void> {
    return this.storage.delete(key);
  }

  downloadUrl(key: string, filename: string, expiresInSeconds: number): Promise<string> {
    return this.storage.createDownloadUrl(key, { expiresInSeconds, filename, contentType: PKPASS_CONTENT_TYPE });
  }
}
