import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { exportJWK, generateKeyPair, type JSONWebKeySet, type JWK } from 'jose';
import { readOrCreateSecretFile } from './secret-file';

export const ACCESS_TOKEN_ALG = 'ES256';

export interface SigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

export interface SigningKeyRing {
  /** Signs new tokens. */
  current: SigningKey;
  /** Every key whose tokens are still accepted (current first): rotation keeps old tokens valid until they expire. */
  keys: SigningKey[];
}

export function publicJwks(ring: SigningKeyRing): JSONWebKeySet {
  return { keys: ring.keys.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: ACCESS_TOKEN_ALG, use: 'sig' })) };
}

export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(ACCESS_TOKEN_ALG, { extractable: true });
  const kid = randomUUID();
  return { kid, privateJwk: { ...(await exportJWK(privateKey)), kid }, publicJwk: { ...(await exportJWK(publicKey)), kid } };
}

/**
 * The embedded mode's key ring: generated on first start into `<dataDir>/keys/jwt-signing-keys.json`
 * (readable by the owner only) and reused afterwards, so sessions survive a restart. In Kubernetes the
 * identity service gets its keys from a Secret instead, and the gateway reads them from its JWKS URL.
 */
export async function loadOrCreateSigningKeys(dataDir: string): Promise<SigningKeyRing> {
  const file = path.resolve(dataDir, 'keys', 'jwt-signing-keys.json');
  const text = await readOrCreateSecretFile(file, async () => JSON.stringify({ keys: [await generateSigningKey()] }));
  const stored = JSON.parse(text) as { keys: SigningKey[] };
  if (stored.keys.length === 0) throw new Error(`${path.basename(file)} holds no key`);
  return { current: stored.keys[0]!, keys: stored.keys };
}
