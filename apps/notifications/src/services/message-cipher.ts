import { Envelope, gcmLegacyOpener, keyFingerprint, type EnvelopeKey } from '@medfolio/security';

/** The first layout's version byte: 1 | IV (12) | tag (16) | ciphertext, no key id. Still opened, never written. */
const LEGACY_VERSION = Buffer.from([1]);
const SHORTEST = 1 + 12 + 16;

/**
 * Encrypts message contents at rest: recipients, subjects, bodies and contact-form text never sit
 * in the database in plain text, so a database dump or backup reveals no codes, reset links or
 * addresses. The plaintext is the value's JSON, sealed in the shared envelope of libs/security
 *: version 2 | key id | IV | tag | ciphertext, AES-256-GCM.
 *
 * - Keys (NOTIFICATIONS_ENCRYPTION_KEY) are a list, the current one first: new values are sealed
 *   with it, stored ones open with the key their id names, so the key can rotate (put a new key in
 *   front; drop the old one once the mail it sealed is past MAIL_RETENTION_DAYS).
 * - `context` is authenticated but not stored (GCM's additional data): table and row id
 *   ({@link SEAL_CONTEXT}), so a sealed value copied into another row, or from the contact table into
 *   the e-mail table, does not open there.
 * - Rows written in the first layout (version 1, no key id) still open with any of the keys.
 */
export class MessageCipher {
  private readonly envelope: Envelope;

  /** One key (its id is its fingerprint), or the list, current first. */
  constructor(keys: Buffer | EnvelopeKey[]) {
    const list = Buffer.isBuffer(keys) ? [{ id: keyFingerprint(keys), key: keys }] : keys;
    if (list.length === 0 || list.some((k) => k.key.length !== 32)) throw new Error('The notifications encryption key must be 32 bytes');
    this.envelope = new Envelope(list, [gcmLegacyOpener(list.map((k) => k.key), LEGACY_VERSION)]);
  }

  seal(value: unknown, context: string): Buffer {
    return this.envelope.seal(JSON.stringify(value), context);
  }

  /** Throws if the value was altered, sealed for another context, or sealed with a key not given. */
  open<T>(sealed: Buffer, context: string): T {
    if (sealed.length < SHORTEST) throw new Error('Not a sealed notifications value');
    let plain: Buffer;
    try {
      plain = this.envelope.open(sealed, context);
    } catch (error) {
      const message = (error as Error).message;
      // OpenSSL's own message ("unable to authenticate data") says nothing about why; a missing key id does.
      throw new Error(
        message.includes('key id')
          ? `Sealed notifications value: ${message}`
          : 'Sealed notifications value failed authentication: altered, from another row, or sealed with another key',
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
