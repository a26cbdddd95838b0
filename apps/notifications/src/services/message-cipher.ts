import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** Format version byte, so a later format (or key rotation with a key id) can be told apart. */
const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 1 + IV_BYTES + TAG_BYTES;

/**
 * Encrypts message contents at rest (AES-256-GCM): recipients, subjects, bodies and contact-form
 * text never sit in the database in plain text, so a database dump or backup reveals no codes,
 * reset links or addresses. Layout: version (1) | IV (12) | tag (16) | ciphertext.
 *
 * `context` is authenticated but not stored (GCM's additional data): a row id, so a sealed value
 * copied into another row does not open there.
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
    const plain = Buffer.concat([decipher.update(sealed.subarray(HEADER_BYTES)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as T;
  }
}

/** The context each table's sealed values are bound to: table and row id. */
export const SEAL_CONTEXT = {
  email: (id: string) => `email_messages:${id}`,
  contact: (id: string) => `contact_messages:${id}`,
};
