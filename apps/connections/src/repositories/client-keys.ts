import path from 'node:path';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { readOrCreateSecretFile } from '@medfolio/security';
import type { ConnectionsConfig } from '../config';

export const CLIENT_KEY_FILE = path.join('keys', 'connections-client-jwk.json');

/** The algorithms SMART App Launch 2.2 asks every confidential asymmetric client and server to support. */
export type ClientKeyAlg = 'ES384' | 'RS384';

/** The key that signs client assertions, and every public key the product publishes. */
export interface ClientKeys {
  /** Signs; null when no key is configured (service mode without SMART_CLIENT_JWK). */
  signing: { key: Awaited<ReturnType<typeof importJWK>>; alg: ClientKeyAlg; kid: string } | null;
  /** The public halves (no private member), current first, with kid, alg and use. */
  published: JWK[];
}

export class ClientKeyError extends Error {}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'] as const;

/**
 * SMART_CLIENT_JWK (a JWK or a JWK Set, the first signing); in embedded mode without it an ES384 key
 * generated on first start into DATA_DIR/keys/connections-client-jwk.json (owner-only) and reused,
 * so the JWKS an EHR registered stays the same across restarts; in service mode without it none.
 */
export async function loadClientKeys(config: Pick<ConnectionsConfig, 'clientJwk' | 'mode' | 'dataDir'>): Promise<ClientKeys> {
  let text = config.clientJwk;
  let name = 'SMART_CLIENT_JWK';
  if (!text) {
    if (config.mode === 'service') return { signing: null, published: [] };
    name = CLIENT_KEY_FILE;
    text = await readOrCreateSecretFile(path.resolve(config.dataDir, CLIENT_KEY_FILE), async () => {
      const { privateKey } = await generateKeyPair('ES384', { extractable: true });
      return `${JSON.stringify({ keys: [await exportJWK(privateKey)] })}\n`;
    });
  }
  return parseClientKeys(text, name);
}

/** Parses and checks a private JWK or JWK Set: EC P-384 (ES384) or RSA ≥ 2048 bits (RS384), each with its private part. */
export async function parseClientKeys(text: string, name: string): Promise<ClientKeys> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ClientKeyError(`${name} is not JSON (a private JWK or a JWK Set)`);
  }
  const list = isObject(parsed) && Array.isArray(parsed['keys']) ? (parsed['keys'] as unknown[]) : [parsed];
  if (list.length === 0) throw new ClientKeyError(`${name} holds no key`);
  const published: JWK[] = [];
  let signing: ClientKeys['signing'] = null;
  for (const [index, item] of list.entries()) {
    if (!isObject(item)) throw new ClientKeyError(`${name}: key ${index + 1} is not a JWK`);
    const jwk = item as JWK;
    const alg = algorithmOf(jwk);
    if (!alg) throw new ClientKeyError(`${name}: key ${index + 1} must be an EC P-384 key (ES384) or an RSA key of 2048 bits or more (RS384)`);
    if (typeof jwk.d !== 'string') throw new ClientKeyError(`${name}: key ${index + 1} has no private part ("d")`);
    const publicJwk: JWK = Object.fromEntries(Object.entries(jwk).filter(([member]) => !(PRIVATE_MEMBERS as readonly string[]).includes(member) && member !== 'key_ops' && member !== 'ext'));
    const kid = typeof jwk.kid === 'string' && jwk.kid ? jwk.kid : await calculateJwkThumbprint(publicJwk);
    published.push({ ...publicJwk, kid, alg, use: 'sig' });
    if (index === 0) {
      try {
        signing = { key: await importJWK({ ...jwk, alg }, alg), alg, kid };
      } catch {
        throw new ClientKeyError(`${name}: key 1 cannot be used to sign ${alg}`);
      }
    }
  }
  return { signing, published };
}

function algorithmOf(jwk: JWK): ClientKeyAlg | null {
  if (jwk.kty === 'EC' && jwk.crv === 'P-384' && (jwk.alg === undefined || jwk.alg === 'ES384')) return 'ES384';
  if (jwk.kty === 'RSA' && typeof jwk.n === 'string' && Buffer.from(jwk.n, 'base64url').length >= 256 && (jwk.alg === undefined || jwk.alg === 'RS384')) return 'RS384';
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
