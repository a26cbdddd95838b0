import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { keyFingerprint, parseEnvelopeKeys, type EnvelopeKey } from '@medfolio/security';
import type { NotificationsConfig } from '../config';

export const KEY_FILE = path.join('keys', 'notifications.key');

/**
 * The key that encrypts message contents at rest: NOTIFICATIONS_ENCRYPTION_KEY when set (required in
 * service mode, from a Secret). In embedded mode without it, a key generated on first start into
 * `<DATA_DIR>/keys/notifications.key` (owner-only) and reused afterwards, so queued mail survives
 * a restart.
 */
/**
 * The keys of message contents, current first (a list, so the key can rotate):
 * NOTIFICATIONS_ENCRYPTION_KEY as "id:base64,id2:base64" or bare base64 keys; otherwise the one key
 * of {@link loadEncryptionKey} (the embedded mode's key file).
 */
export async function loadEncryptionKeys(config: Pick<NotificationsConfig, 'encryptionKey' | 'mode' | 'dataDir'>): Promise<EnvelopeKey[]> {
  if (config.encryptionKey) return parseEnvelopeKeys(config.encryptionKey, 'NOTIFICATIONS_ENCRYPTION_KEY');
  const key = await loadEncryptionKey(config);
  return [{ id: keyFingerprint(key), key }];
}

export async function loadEncryptionKey(config: Pick<NotificationsConfig, 'encryptionKey' | 'mode' | 'dataDir'>): Promise<Buffer> {
  if (config.encryptionKey) return decode(config.encryptionKey, 'NOTIFICATIONS_ENCRYPTION_KEY');
  if (config.mode === 'service') throw new Error('NOTIFICATIONS_ENCRYPTION_KEY is required in service mode');
  const file = path.resolve(config.dataDir, KEY_FILE);
  const stored = await readKeyFile(file);
  if (stored) return stored;
  const key = randomBytes(32);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': if another process created the file meanwhile, use theirs rather than overwrite it.
    await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const theirs = await readKeyFile(file);
    if (!theirs) throw new Error(`Cannot read the notifications key file ${KEY_FILE}`);
    return theirs;
  }
  await chmod(file, 0o600);
  return key;
}

async function readKeyFile(file: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`Cannot read the notifications key file ${KEY_FILE}`);
  }
  return decode(text.trim(), KEY_FILE);
}

function decode(base64: string, source: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes in base64`);
  return key;
}
