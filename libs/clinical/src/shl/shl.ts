// SMART Health Links (HL7 SMART Health Cards and Links IG, STU1): the `shlink:/` payload, its key,
// and the files as compact JWE (alg "dir", enc "A256GCM", cty the file's content type). Pure
// protocol pieces; the summary service keeps the links and answers the manifest.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';

/** What a manifest lists and a JWE's `cty` says: an IPS (or any FHIR) Bundle. */
export const SHL_FHIR_CONTENT_TYPE = 'application/fhir+json';
/** The content type of a file endpoint's answer (a compact JWE). */
export const SHL_JOSE_CONTENT_TYPE = 'application/jose';
/** The longest a file location may be used after the manifest gave it (the spec: at most one hour). */
export const SHL_LOCATION_TTL_SECONDS = 3600;
/** A payload label is at most 80 characters. */
export const SHL_LABEL_MAX = 80;

export interface ShlPayload {
  /** The manifest URL (≥ 256 bits of entropy in it). */
  url: string;
  /** 32 random bytes, base64url (43 characters). */
  key: string;
  /** Expiry, seconds since the epoch. */
  exp?: number;
  /** Single-letter flags in alphabetical order: L long-term, P passcode (U direct file is not used here). */
  flag?: string;
  label?: string;
  v?: 1;
}

export interface ShlManifestRequest {
  recipient: string;
  passcode?: string;
  embeddedLengthMax?: number;
}

export interface ShlManifestFile {
  contentType: typeof SHL_FHIR_CONTENT_TYPE;
  /** A compact JWE, when it fits the receiver's embeddedLengthMax. */
  embedded?: string;
  /** Otherwise a short-lived URL answering the JWE to a GET. */
  location?: string;
  /** ISO 8601: when the content last changed. */
  lastUpdated?: string;
}

export interface ShlManifest {
  /** 'can-change': the summary may be updated; poll again for the latest. */
  status: 'finalized' | 'can-change' | 'no-longer-valid';
  files: ShlManifestFile[];
}

const B64URL_KEY = /^[A-Za-z0-9_-]{43}$/;

/** A new SHL key: 32 bytes from the CSPRNG, base64url. */
export function newShlKey(): string {
  return randomBytes(32).toString('base64url');
}

export function isShlKey(key: string): boolean {
  return B64URL_KEY.test(key) && Buffer.from(key, 'base64url').length === 32;
}

/** The payload's flags for a link: P with a passcode, L when it does not expire (long-term). */
export function shlFlags(link: { hasPasscode: boolean; expiresAt: Date | null }): string {
  return `${link.expiresAt ? '' : 'L'}${link.hasPasscode ? 'P' : ''}`;
}

/** `shlink:/` + base64url(JSON payload). */
export function encodeShlink(payload: ShlPayload): string {
  if (!isShlKey(payload.key)) throw new Error('An SHL key is 32 bytes, base64url.');
  const body: ShlPayload = { url: payload.url, key: payload.key };
  if (payload.exp !== undefined) body.exp = Math.floor(payload.exp);
  if (payload.flag) body.flag = [...new Set(payload.flag.split(''))].sort().join('');
  if (payload.label) body.label = [...payload.label].slice(0, SHL_LABEL_MAX).join('');
  body.v = 1;
  return `shlink:/${Buffer.from(JSON.stringify(body), 'utf8').toString('base64url')}`;
}

/** The payload of a `shlink:/…` or of a viewer URL carrying one after '#'. Throws on anything else. */
export function decodeShlink(text: string): ShlPayload {
  const at = text.indexOf('shlink:/');
  if (at < 0 || (at > 0 && text[at - 1] !== '#')) throw new Error('Not a SMART Health Link.');
  const payload = JSON.parse(
    Buffer.from(text.slice(at + 'shlink:/'.length), 'base64url').toString('utf8'),
  ) as ShlPayload;
  if (typeof payload.url !== 'string' || typeof payload.key !== 'string' || !isShlKey(payload.key))
    throw new Error('Not a SMART Health Link.');
  return payload;
}

/** The page a person's camera opens, with the SHL after '#' for an SHL-aware app (the fragment never reaches a server). */
export function shlViewerUrl(pageUrl: string, shlink: string): string {
  return `${pageUrl}#${shlink}`;
}

/**
 * The manifest path's tag: HMAC-SHA256 of the share id under the SHL key (256 bits), so the manifest
 * URL carries the share id's 128 bits and the key's 256 (the spec asks ≥ 256 bits in the URL).
 */
export function shlManifestTag(key: string, shareId: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64url')).update(`manifest:${shareId}`).digest('base64url');
}

/** A file location's token: its expiry and an HMAC of it under the SHL key. */
export function shlFileToken(key: string, shareId: string, expiresAtSeconds: number): string {
  const exp = String(Math.floor(expiresAtSeconds));
  const mac = createHmac('sha256', Buffer.from(key, 'base64url')).update(`file:${shareId}:${exp}`).digest('base64url');
  return `${exp}.${mac}`;
}

/** Clock difference between servers a file token's expiry may carry beyond SHL_LOCATION_TTL_SECONDS. */
export const SHL_FILE_TOKEN_SKEW_SECONDS = 60;

/**
 * True when the token was made with this key for this link, has not expired, and does not claim to
 * last longer than a location may (SHL_LOCATION_TTL_SECONDS from now, plus clock skew): the key is
 * also the SHL holder's, so a holder could make a token for any expiry; the server refuses those.
 */
export function checkShlFileToken(
  key: string,
  shareId: string,
  token: string,
  nowSeconds = Date.now() / 1000,
): boolean {
  const [exp] = token.split('.');
  if (!exp || !/^\d{1,12}$/.test(exp) || Number(exp) < nowSeconds) return false;
  if (Number(exp) > nowSeconds + SHL_LOCATION_TTL_SECONDS + SHL_FILE_TOKEN_SKEW_SECONDS) return false;
  return safeEqual(shlFileToken(key, shareId, Number(exp)), token);
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A file as the spec wants it: compact JWE, alg dir, enc A256GCM, cty its content type. */
export async function encryptShlFile(
  content: string,
  key: string,
  contentType: string = SHL_FHIR_CONTENT_TYPE,
): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(content))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: contentType })
    .encrypt(Buffer.from(key, 'base64url'));
}

/** The plaintext and content type of a file (the receiver's side; also for tests). */
export async function decryptShlFile(
  jwe: string,
  key: string,
): Promise<{ contentType: string | undefined; content: string }> {
  const { plaintext, protectedHeader } = await compactDecrypt(jwe, Buffer.from(key, 'base64url'));
  return { contentType: protectedHeader.cty, content: new TextDecoder().decode(plaintext) };
}
