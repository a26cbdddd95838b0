import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * One format for every value a service keeps encrypted at rest, so keys can rotate:
 *
 *   version (1 byte, 2) | key id length (1 byte) | key id (1-32 bytes, ASCII) | IV (12) | tag (16) | ciphertext
 *
 * - AES-256-GCM with a random 96-bit IV per value (safe for up to 2^32 values per key).
 * - The additional data is the header (version and key id) followed by the value's context (table,
 *   field and row id): a value moved to another row or field, or its key id changed, does not open.
 * - Keys are given as a list, the current one first: values are sealed with it, and open with
 *   whichever key their id names. Rotating is adding a new key in front; once every value has been
 *   sealed again (`needsResealing`), the old key can go.
 * - Values in a service's earlier format (no version or key id) still open through the `legacy`
 *   openers the service passes, so stored rows can be migrated.
 */
export const ENVELOPE_VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_.-]{1,32}$/;

export interface EnvelopeKey {
  /** Short name stored with each value (1-32 of A-Z a-z 0-9 _ . -). */
  id: string;
  /** 32 bytes. */
  key: Buffer;
}

/** Opens a value sealed in an earlier format; null when the value is not in that format (or does not open). */
export type LegacyOpener = (sealed: Buffer, context: string) => Buffer | null;

/** The id a key gets when none is given: the first 8 hex digits of its SHA-256 (a fingerprint, not the key). */
export function keyFingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Parses "id:base64,id2:base64" or "base64,base64" (ids then are fingerprints), the current key
 * first. Throws naming `setting` (never a value) if an entry is not 32 bytes or ids repeat.
 */
export function parseEnvelopeKeys(text: string, setting: string): EnvelopeKey[] {
  const keys = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const colon = entry.indexOf(':');
      const base64 = colon >= 0 ? entry.slice(colon + 1) : entry;
      const key = Buffer.from(base64, 'base64');
      if (key.length !== 32 || key.toString('base64') !== base64) throw new Error(`${setting}: each key must be 32 bytes in base64`);
      const id = colon >= 0 ? entry.slice(0, colon) : keyFingerprint(key);
      if (!KEY_ID.test(id)) throw new Error(`${setting}: a key id must be 1-32 of A-Z a-z 0-9 _ . -`);
      return { id, key };
    });
  if (keys.length === 0) throw new Error(`${setting}: no key given`);
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error(`${setting}: two keys have the same id`);
  return keys;
}

export class Envelope {
  private readonly byId: Map<string, Buffer>;
  private readonly current: EnvelopeKey;

  constructor(
    keys: EnvelopeKey[],
    private readonly legacy: LegacyOpener[] = [],
  ) {
    if (keys.length === 0) throw new Error('An envelope needs at least one key');
    for (const { id, key } of keys) {
      if (!KEY_ID.test(id)) throw new Error('A key id must be 1-32 of A-Z a-z 0-9 _ . -');
      if (key.length !== 32) throw new Error('Envelope keys must be 32 bytes');
    }
    this.current = keys[0]!;
    this.byId = new Map(keys.map((k) => [k.id, k.key]));
    if (this.byId.size !== keys.length) throw new Error('Two envelope keys have the same id');
  }

  /** The id of the key new values are sealed with. */
  get currentKeyId(): string {
    return this.current.id;
  }

  seal(plain: Buffer | string, context: string): Buffer {
    const header = Buffer.concat([Buffer.from([ENVELOPE_VERSION, this.current.id.length]), Buffer.from(this.current.id, 'ascii')]);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(additionalData(header, context));
    const body = Buffer.concat([cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain), cipher.final()]);
    return Buffer.concat([header, iv, cipher.getAuthTag(), body]);
  }

  /** Throws if the value was altered, sealed for another context, or with a key not given. */
  open(sealed: Buffer, context: string): Buffer {
    const parsed = parse(sealed);
    if (parsed) {
      const key = this.byId.get(parsed.keyId);
      if (key) {
        const plain = decrypt(key, parsed, context);
        if (plain) return plain;
      }
    }
    for (const opener of this.legacy) {
      const plain = opener(sealed, context);
      if (plain) return plain;
    }
    if (parsed && !this.byId.has(parsed.keyId)) {
      throw new Error(`Sealed value names key id ${parsed.keyId}, which is not among the keys given (rotated out too early?)`);
    }
    throw new Error('Sealed value failed authentication: altered, from another row or field, or sealed with another key');
  }

  openString(sealed: Buffer, context: string): string {
    return this.open(sealed, context).toString('utf8');
  }

  /** True when the value is in an earlier format or sealed with a key other than the current one. */
  needsResealing(sealed: Buffer): boolean {
    return parse(sealed)?.keyId !== this.current.id;
  }
}

interface Parsed {
  header: Buffer;
  keyId: string;
  iv: Buffer;
  tag: Buffer;
  body: Buffer;
}

function parse(sealed: Buffer): Parsed | null {
  if (sealed.length < 2 || sealed[0] !== ENVELOPE_VERSION) return null;
  const idLength = sealed[1]!;
  const start = 2 + idLength;
  if (idLength < 1 || idLength > 32 || sealed.length < start + IV_BYTES + TAG_BYTES) return null;
  const keyId = sealed.subarray(2, start).toString('ascii');
  if (!KEY_ID.test(keyId)) return null;
  return {
    header: sealed.subarray(0, start),
    keyId,
    iv: sealed.subarray(start, start + IV_BYTES),
    tag: sealed.subarray(start + IV_BYTES, start + IV_BYTES + TAG_BYTES),
    body: sealed.subarray(start + IV_BYTES + TAG_BYTES),
  };
}

function decrypt(key: Buffer, parsed: Parsed, context: string): Buffer | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, parsed.iv);
    decipher.setAAD(additionalData(parsed.header, context));
    decipher.setAuthTag(parsed.tag);
    return Buffer.concat([decipher.update(parsed.body), decipher.final()]);
  } catch {
    return null;
  }
}

function additionalData(header: Buffer, context: string): Buffer {
  return Buffer.concat([header, Buffer.from(context, 'utf8')]);
}

/**
 * An opener for the earliest layout, `[prefix] IV (12) | tag (16) | ciphertext` with the context as
 * additional data (notifications' version-1 values have the prefix 0x01; summary's share-link values none).
 */
export function gcmLegacyOpener(keys: Buffer[], prefix: Buffer = Buffer.alloc(0)): LegacyOpener {
  return (sealed, context) => {
    if (sealed.length < prefix.length + IV_BYTES + TAG_BYTES || !sealed.subarray(0, prefix.length).equals(prefix)) return null;
    const rest = sealed.subarray(prefix.length);
    for (const key of keys) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, rest.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(rest.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(rest.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
      } catch {
        // not this key
      }
    }
    return null;
  };
}
