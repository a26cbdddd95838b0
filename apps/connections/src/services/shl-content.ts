// The SMART Health Links and Cards pieces the receiver needs (HL7 SMART Health Cards and Links IG,
// STU1; SMART Health Cards Framework 1.4): the `shlink:/` payload, a file's compact JWE, a card's
// JWS. Pure: no I/O (the receiver's repository fetches; this only reads bytes it is given).
import { inflateRawSync } from 'node:zlib';
import { compactDecrypt, compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';

export interface ShlPayload {
  url: string;
  key: string;
  exp?: number;
  flag: string;
  label: string | null;
}

/** Why a link or one of its files cannot be read (the receiver maps each to a message). */
export class ShlContentError extends Error {
  constructor(readonly reason: 'not-shl' | 'undecryptable' | 'too-large' | 'not-a-card') {
    super(reason);
  }
}

const SHLINK = /^shlink:\/([A-Za-z0-9_-]+={0,2})$/;

/**
 * The payload of `shlink:/<base64url JSON>`, alone or after '#' in a viewer URL (what a QR code
 * holds). Throws ShlContentError('not-shl') for anything else: no url, a key that is not 32 bytes,
 * unknown flags, or U together with P (the spec forbids it).
 */
export function parseShlink(text: string): ShlPayload {
  const trimmed = text.trim();
  const hash = trimmed.indexOf('#shlink:/');
  const candidate = trimmed.startsWith('shlink:/') ? trimmed : hash >= 0 ? trimmed.slice(hash + 1) : '';
  const match = SHLINK.exec(candidate);
  if (!match?.[1]) throw new ShlContentError('not-shl');
  let payload: Record<string, unknown>;
  try {
    payload = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw new ShlContentError('not-shl');
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new ShlContentError('not-shl');
  const { url, key, exp, flag, label } = payload;
  if (typeof url !== 'string' || url.length > 2048 || typeof key !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(key) || Buffer.from(key, 'base64url').length !== 32) throw new ShlContentError('not-shl');
  if (exp !== undefined && (typeof exp !== 'number' || !Number.isFinite(exp))) throw new ShlContentError('not-shl');
  if (flag !== undefined && (typeof flag !== 'string' || !/^[LPU]{0,3}$/.test(flag) || (flag.includes('U') && flag.includes('P')))) throw new ShlContentError('not-shl');
  const cleanLabel = typeof label === 'string' ? cleanText(label, 80) : '';
  return { url, key, ...(exp !== undefined ? { exp } : {}), flag: (flag as string | undefined) ?? '', label: cleanLabel || null };
}

/** A file's compact JWE, decrypted with the link's key: `dir` + `A256GCM` only; its `cty` and text. */
export async function decryptShlFile(jwe: string, key: string, limit: number): Promise<{ cty: string | undefined; text: string }> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwe.trim());
  } catch {
    throw new ShlContentError('undecryptable');
  }
  if (header.alg !== 'dir' || header.enc !== 'A256GCM') throw new ShlContentError('undecryptable');
  try {
    const { plaintext } = await compactDecrypt(jwe.trim(), Buffer.from(key, 'base64url'), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      maxDecompressedLength: limit,
    });
    if (plaintext.byteLength > limit) throw new ShlContentError('too-large');
    return { cty: typeof header.cty === 'string' ? header.cty : undefined, text: new TextDecoder().decode(plaintext) };
  } catch (error) {
    if (error instanceof ShlContentError) throw error;
    if (error instanceof Error && /exceeded the configured limit/.test(error.message)) throw new ShlContentError('too-large');
    throw new ShlContentError('undecryptable');
  }
}

/** The JWSs of a `.smart-health-card` file (`{"verifiableCredential": [...]}`). */
export function healthCardJwsList(text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ShlContentError('not-a-card');
  }
  const list = (body as { verifiableCredential?: unknown })?.verifiableCredential;
  if (!Array.isArray(list) || list.length === 0 || !list.every((jws) => typeof jws === 'string' && jws.split('.').length === 3)) throw new ShlContentError('not-a-card');
  return list as string[];
}

export interface HealthCard {
  /** The issuer's URL (`iss`), as the card says. */
  iss: string;
  /** The card's FHIR Bundle (`vc.credentialSubject.fhirBundle`). */
  bundle: Record<string, unknown>;
  kid: string | undefined;
}

/** A card's claims, read without checking the signature (ES256 header, DEF-compressed payload). */
export function readHealthCard(jws: string, limit: number): HealthCard {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw new ShlContentError('not-a-card');
  }
  const payload = jws.split('.')[1] ?? '';
  return { ...claimsOf(Buffer.from(payload, 'base64url'), header.zip, limit), kid: typeof header.kid === 'string' ? header.kid : undefined };
}

/** True when the card's ES256 signature verifies with a key of the issuer's JWK Set. */
export async function verifyHealthCard(jws: string, jwks: JSONWebKeySet): Promise<boolean> {
  try {
    await compactVerify(jws, createLocalJWKSet(jwks), { algorithms: ['ES256'] });
    return true;
  } catch {
    return false;
  }
}

function claimsOf(payload: Buffer, zip: unknown, limit: number): Omit<HealthCard, 'kid'> {
  let json: string;
  try {
    json = (zip === 'DEF' ? inflateRawSync(payload, { maxOutputLength: limit }) : payload).toString('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ShlContentError('too-large');
    throw new ShlContentError('not-a-card');
  }
  let claims: { iss?: unknown; vc?: { credentialSubject?: { fhirBundle?: unknown } } };
  try {
    claims = JSON.parse(json) as typeof claims;
  } catch {
    throw new ShlContentError('not-a-card');
  }
  const bundle = claims.vc?.credentialSubject?.fhirBundle;
  if (typeof claims.iss !== 'string' || !isBundle(bundle)) throw new ShlContentError('not-a-card');
  return { iss: claims.iss, bundle };
}

export function isBundle(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && (value as { resourceType?: unknown }).resourceType === 'Bundle';
}

/** Text fit for a file name or a label: no control or path characters, trimmed, at most `max` characters. */
export function cleanText(text: string, max: number): string {
  return [...text.replace(/[\\/:*?"<>|\p{Cc}]/gu, ' ').replace(/\s+/g, ' ').trim()].slice(0, max).join('');
}
