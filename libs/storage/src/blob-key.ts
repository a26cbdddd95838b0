import { InvalidBlobKeyError } from './errors';

/**
 * Keys are "/"-separated segments of letters, digits, ".", "_" and "-", where no segment starts
 * with "." (which rules out ".", ".." and hidden files). The same rule holds for every store,
 * so a key that works on S3 also works as a relative path on the filesystem store.
 */
const SAFE_KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
const MAX_KEY_LENGTH = 512;
/** NAME_MAX of common filesystems: a longer segment cannot be a file name. */
const MAX_SEGMENT_LENGTH = 255;

/** Throws {@link InvalidBlobKeyError} unless `key` is a safe storage key. */
export function assertSafeBlobKey(key: string): void {
  // The specific checks come first only to give a clearer message; SAFE_KEY alone rejects them all.
  if (key.includes('\0')) throw new InvalidBlobKeyError('Blob key contains a NUL character');
  if (key.startsWith('/') || key.startsWith('\\') || /^[A-Za-z]:/.test(key)) {
    throw new InvalidBlobKeyError('Blob key must be relative, not an absolute path');
  }
  if (key.split(/[/\\]/).includes('..')) throw new InvalidBlobKeyError('Blob key must not contain ".."');
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new InvalidBlobKeyError(`Blob key must be 1 to ${MAX_KEY_LENGTH} characters long`);
  }
  if (!SAFE_KEY.test(key) || key.split('/').some((segment) => segment.length > MAX_SEGMENT_LENGTH)) {
    throw new InvalidBlobKeyError(`Blob key "${key}" does not match the safe key pattern ${SAFE_KEY.source}`);
  }
}
