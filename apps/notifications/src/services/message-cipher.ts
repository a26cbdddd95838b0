import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Format version byte, so a later format (or key rotation with a key id) can be told apart. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

/**
 * Encrypts message contents at rest (AES-256-GCM): recipients, subjects, bodies and contact-form
 * text never sit in the database in plain text, so a database dump or backup reveals no codes,
 * reset links or addresses. Layout: version (1) | IV (12) | tag (16) | ciphertext, the plaintext
 * being the value's JSON.
 *
 * - One key (NOTIFICATIONS_ENCRYPTION_KEY) for all values; a random 96-bit IV per value. Random IVs
 *   stay safe for up to 2^32 values per key (NIST SP 800-38D), far above this service's mail volume.
 * - `context` is authenticated but not stored (GCM's additional data): table and row id
 *   ({@link SEAL_CONTEXT}), so a sealed value copied into another row, or from the contact table into
 *   the e-mail table, does not open there.
 * - The version byte is not authenticated; it only selects the layout, and 1 is the only one accepted.
 * - No key id: a value opens only under the key that sealed it, so changing the key makes queued
 *   mail fail (mail-sender marks it failed) and stored contact messages unreadable.
 */
export class MessageCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('The notifications encryption key must be 32 bytes');
  }

  seal(value: unknown, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), ciphertext]);
  }

  /** Throws if the value was altered, sealed for another context, or sealed with another key. */
  open<T>(sealed: Buffer, context: string): T {
    if (sealed.length < HEADER_BYTES || sealed[0] !== VERSION) throw new Error('Not a sealed notifications value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(1, 1 + IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.subarray(1 + IV_BYTES, HEADER_BYTES));
    const plain = decipher.update(sealed.subarray(HEADER_BYTES));
    try {
      decipher.final();
    } catch {
      // OpenSSL's own message ("unable to authenticate data") says nothing about why.
      throw new Error(
        'Sealed notifications value failed authentication: altered, from another row, or sealed with another key',
      );
    }
    return JSON.parse(plain.toString('utf8')) as T;
  }
}

/** The context each table's sealed values are bound to: table and row id. */
export const SEAL_CONTEXT = {
  email: (id: string) => `email_messages:${id}`,
  contact: (id: string) => `contact_messages:${id}`,
};
