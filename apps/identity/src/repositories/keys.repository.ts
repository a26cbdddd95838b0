import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { JWK } from 'jose';
import { loadOrCreateSigningKeys, readOrCreateSecretFile, type SigningKey, type SigningKeyRing } from '@medfolio/security';
import { IdentityConfig } from '../config';

/**
 * Key material: the ES256 signing key ring (JWT_SIGNING_KEYS, or generated in DATA_DIR in the
 * embedded mode) and the HMAC secret for verification codes (IDENTITY_SECRET, or generated).
 */
@Injectable()
export class KeysRepository {
  private ring?: Promise<SigningKeyRing>;
  private secret?: Promise<Buffer>;

  constructor(@Inject(IdentityConfig) private readonly config: IdentityConfig) {}

  signingKeys(): Promise<SigningKeyRing> {
    this.ring ??= this.config.signingKeys ? Promise.resolve(parseKeyRing(this.config.signingKeys)) : loadOrCreateSigningKeys(this.config.dataDir);
    return this.ring;
  }

  hmacSecret(): Promise<Buffer> {
    this.secret ??= this.config.secret ? Promise.resolve(Buffer.from(this.config.secret)) : loadOrCreateSecret(this.config.dataDir);
    return this.secret;
  }
}

/** JWT_SIGNING_KEYS: a JSON array of private EC P-256 JWKs with kids; the first one signs. */
export function parseKeyRing(json: string): SigningKeyRing {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('JWT_SIGNING_KEYS is not valid JSON');
  }
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error('JWT_SIGNING_KEYS must be a non-empty JSON array of JWKs');
  const keys: SigningKey[] = parsed.map((jwk: JWK, i) => {
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d || !jwk.kid) throw new Error(`JWT_SIGNING_KEYS[${i}] must be a private EC P-256 JWK with a kid`);
    const { d: _private, ...publicJwk } = jwk;
    return { kid: jwk.kid, privateJwk: jwk, publicJwk };
  });
  return { current: keys[0]!, keys };
}

async function loadOrCreateSecret(dataDir: string): Promise<Buffer> {
  const text = await readOrCreateSecretFile(path.resolve(dataDir, 'keys', 'identity-secret'), () => randomBytes(32).toString('base64'));
  return Buffer.from(text, 'base64');
}
