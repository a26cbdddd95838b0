/** Every profile picture lives under this prefix, and the pictures repository touches nothing else. */
export const PROFILE_PICTURE_KEY_PREFIX = 'profile-pictures/';

/** Whether `key` names a profile picture (e.g. before deleting a key read from the database). */
export function isProfilePictureKey(key: string): boolean {
  return key.startsWith(PROFILE_PICTURE_KEY_PREFIX) && !key.includes('..');
}
