/**
 * Rewrites every blob of the filesystem store that is in an older format or under an older key into
 * the current format under the current key (FilesystemBlobStorage.reencryptAll): after a key rotation,
 * so the old key can then be removed, or to bind version 1 files to their storage keys.
 *
 *   STORAGE_DIR=/data/files STORAGE_ENCRYPTION_KEYS=new:...,old:... node dist/libs/storage/src/fs/reencrypt-command.js
 *
 * Safe while the services run: each blob is replaced atomically, with the same plaintext, and a blob
 * replaced meanwhile is left as it is. Prints counts only (storage keys of unreadable blobs, which are
 * random ids, on stderr); exits 1 if any blob could not be read.
 */
import { randomBytes } from 'node:crypto';

import { parseEncryptionKeys } from '../config';
import { FilesystemBlobStorage } from './filesystem-blob-storage';

export async function runReencrypt(
  env: NodeJS.ProcessEnv,
  print: { out(line: string): void; error(line: string): void },
): Promise<number> {
  if (!env['STORAGE_DIR'] || !env['STORAGE_ENCRYPTION_KEYS']) {
    print.error('Set STORAGE_DIR and STORAGE_ENCRYPTION_KEYS (the current key first, then every key still in use).');
    return 2;
  }
  const storage = new FilesystemBlobStorage({
    directory: env['STORAGE_DIR'],
    encryptionKeys: parseEncryptionKeys(env['STORAGE_ENCRYPTION_KEYS']),
    // Links are not made here; the store only requires a well-formed key.
    urlSigningKey: env['STORAGE_URL_SIGNING_KEY'] ?? randomBytes(32).toString('base64url'),
  });
  await storage.init();
  const { rewritten, current, failed } = await storage.reencryptAll();
  print.out(`re-encrypted ${rewritten}, already current ${current}, unreadable ${failed.length}`);
  for (const key of failed) print.error(`unreadable (damaged, or its key is not configured): ${key}`);
  return failed.length > 0 ? 1 : 0;
}

if (require.main === module) {
  runReencrypt(process.env, { out: (line) => console.log(line), error: (line) => console.error(line) }).then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 2;
    },
  );
}
