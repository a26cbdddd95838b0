import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORAGE, type BlobStorage } from '@medfolio/storage';
import { isProfilePictureKey, PROFILE_PICTURE_KEY_PREFIX } from '../pictures/profile-picture-key';
import type { ProcessedProfilePicture } from '../pictures/profile-picture-processor';

/** A user id fit for a key segment (UUIDs and the like); anything else is a programming error. */
const USER_ID = /^[A-Za-z0-9_-]{1,128}$/;
const EXTENSIONS: Record<ProcessedProfilePicture['contentType'], string> = {
  'image/webp': 'webp',
  'image/jpeg': 'jpg',
};

/**
 * Processed profile pictures in blob storage, under server-made keys
 * (`profile-pictures/<userId>/<random>.webp`): never the client's filename, which could collide,
 * traverse or leak. Each upload gets a new key, so a cached old picture URL never shows the new
 * one; the caller deletes the previous key after saving the new one and recording it.
 */
@Injectable()
export class ProfilePicturesRepository {
  constructor(@Inject(BLOB_STORAGE) private readonly storage: BlobStorage) {}

  async save(userId: string, picture: Pick<ProcessedProfilePicture, 'data' | 'contentType'>): Promise<{ key: string }> {
    if (!USER_ID.test(userId)) throw new TypeError('A profile picture needs a user id of letters, digits, "-" or "_"');
    const key = `${PROFILE_PICTURE_KEY_PREFIX}${userId}/${randomUUID()}.${EXTENSIONS[picture.contentType]}`;
    await this.storage.put(key, Readable.from([picture.data]), { contentType: picture.contentType });
    return { key };
  }

  /** Idempotent. Refuses keys outside {@link PROFILE_PICTURE_KEY_PREFIX}, so it can never remove a document. */
  async delete(key: string): Promise<void> {
    if (!isProfilePictureKey(key)) throw new TypeError('Not a profile picture key');
    await this.storage.delete(key);
  }

  /** A signed link to the picture, valid `expiresInSeconds`; the key's extension names its type. */
  downloadUrl(key: string, expiresInSeconds: number): Promise<string> {
    return this.storage.createDownloadUrl(key, { expiresInSeconds, contentType: key.endsWith('.jpg') ? 'image/jpeg' : 'image/webp' });
  }
}
