import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';

import type { BlobStorage } from '@medfolio/storage';

import type { ProcessedProfilePicture } from './profile-picture-processor';

/** Every profile picture lives under this prefix, and the store touches nothing else. */
export const PROFILE_PICTURE_KEY_PREFIX = 'profile-pictures/';

/** A user id fit for a key segment (UUIDs and the like); anything else is a programming error. */
const USER_ID = /^[A-Za-z0-9_-]{1,128}$/;
const EXTENSIONS: Record<ProcessedProfilePicture['contentType'], string> = {
  'image/webp': 'webp',
  'image/jpeg': 'jpg',
};

/** Whether `key` names a profile picture (e.g. before deleting a key read from the database). */
export function isProfilePictureKey(key: string): boolean {
  return key.startsWith(PROFILE_PICTURE_KEY_PREFIX) && !key.includes('..');
}

/**
 * Keeps processed profile pictures in blob storage under server-made keys
 * (`profile-pictures/<userId>/<random>.webp`): never the client's filename, which could collide,
 * traverse or leak. Each upload gets a new key, so a cached old picture URL never shows the new
 * one; the caller deletes the previous key after saving the new one and recording it.
 */
export class ProfilePictureStore {
  constructor(private readonly storage: BlobStorage) {}

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
}
