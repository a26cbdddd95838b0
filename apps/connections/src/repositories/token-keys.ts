import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Envelope, parseEnvelopeKeys, readOrCreateSecretFile } from '@medfolio/security';
import type { ConnectionsConfig } from '../config';

export const TOKEN_KEY_FILE = path.join('keys', 'connections.key');

/**
 * The envelope that seals tokens at rest: CONNECTIONS_TOKEN_KEY (required in service mode); in
 * embedded mode without it, a key generated on first start into DATA_DIR/keys/connections.key
 * (owner-only) and reused, so connections survive a restart.
 */
export async function loadTokenEnvelope(config: Pick<ConnectionsConfig, 'tokenKey' | 'mode' | 'dataDir'>): Promise<Envelope> {
  if (config.tokenKey) return new Envelope(parseEnvelopeKeys(config.tokenKey, 'CONNECTIONS_TOKEN_KEY'));
  if (config.mode === 'service') throw new Error('CONNECTIONS_TOKEN_KEY is required in service mode');
  const text = await readOrCreateSecretFile(path.resolve(config.dataDir, TOKEN_KEY_FILE), () => `${randomBytes(32).toString('base64')}\n`);
  return new Envelope(parseEnvelopeKeys(text.trim(), TOKEN_KEY_FILE));
}
