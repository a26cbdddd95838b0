import { createCipheriv, randomBytes } from 'node:crypto';
import { Envelope, ENVELOPE_VERSION, gcmLegacyOpener, keyFingerprint, parseEnvelopeKeys } from './envelope';

const k1 = { id: 'k1', key: randomBytes(32) };
const k2 = { id: 'k2', key: randomBytes(32) };

/** The earliest layout: [prefix] IV | tag | ciphertext, the context as additional data. */
function legacySeal(key: Buffer, plain: string, context: string, prefix = Buffer.alloc(0)): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([prefix, iv, cipher.getAuthTag(), body]);
}

describe('envelope: one sealed format with a key id', () => {
  it('seals with the current key: version byte, key id, then IV, tag and ciphertext; opens in the same context', () => {
    const envelope = new Envelope([k1]);
    const sealed = envelope.seal('shl key 123', 'share_links.shl_key:abc');
    expect(sealed[0]).toBe(ENVELOPE_VERSION);
    expect(sealed[1]).toBe(2);
    expect(sealed.subarray(2, 4).toString('ascii')).toBe('k1');
    expect(sealed.length).toBe(4 + 12 + 16 + 'shl key 123'.length);
    expect(sealed.includes(Buffer.from('shl key'))).toBe(false);
    expect(envelope.openString(sealed, 'share_links.shl_key:abc')).toBe('shl key 123');
    expect(envelope.seal('same', 'c').equals(envelope.seal('same', 'c'))).toBe(false);
  });

  it('refuses another context, an altered byte, a changed key id, or an unknown key', () => {
    const envelope = new Envelope([k1]);
    const sealed = envelope.seal('secret', 'row:1');
    expect(() => envelope.open(sealed, 'row:2')).toThrow('failed authentication');
    for (const index of [5, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[index] ^= 1;
      expect(() => envelope.open(altered, 'row:1')).toThrow('failed authentication');
    }
    // The key id is authenticated: relabelled to another key that holds the same bytes, it does not open.
    const twin = new Envelope([k1, { id: 'k9', key: k1.key }]);
    const relabelled = Buffer.from(sealed);
    relabelled.write('k9', 2, 'ascii');
    expect(() => twin.open(relabelled, 'row:1')).toThrow('failed authentication');
    expect(() => new Envelope([k2]).open(sealed, 'row:1')).toThrow('names key id k1, which is not among the keys given');
  });

  it('rotates: a new key in front seals, values under the old one still open and are told apart for resealing', () => {
    const before = new Envelope([k1]);
    const old = before.seal('v', 'c');
    const rotated = new Envelope([k2, k1]);
    expect(rotated.openString(old, 'c')).toBe('v');
    expect(rotated.needsResealing(old)).toBe(true);
    const fresh = rotated.seal('v', 'c');
    expect(fresh.subarray(2, 4).toString('ascii')).toBe('k2');
    expect(rotated.needsResealing(fresh)).toBe(false);
    expect(() => before.open(fresh, 'c')).toThrow('names key id k2');
  });

  it('opens values in a service\'s earlier formats through its legacy openers (for migration), and marks them for resealing', () => {
    const summaryStyle = legacySeal(k1.key, 'share id', 'share_links.share_sealed:1');
    const notificationsStyle = legacySeal(k1.key, '{"to":"a@b.c"}', 'email_messages:1', Buffer.from([1]));
    const envelope = new Envelope([k2], [gcmLegacyOpener([k1.key], Buffer.from([1])), gcmLegacyOpener([k1.key])]);
    expect(envelope.openString(summaryStyle, 'share_links.share_sealed:1')).toBe('share id');
    expect(envelope.openString(notificationsStyle, 'email_messages:1')).toBe('{"to":"a@b.c"}');
    expect(envelope.needsResealing(summaryStyle)).toBe(true);
    expect(() => envelope.open(summaryStyle, 'share_links.share_sealed:2')).toThrow('failed authentication');
    expect(() => new Envelope([k2]).open(summaryStyle, 'share_links.share_sealed:1')).toThrow();
  });

  it('parses keys as "id:base64,..." or bare base64 (then the id is a fingerprint), current first; never shows a key', () => {
    const a = randomBytes(32).toString('base64');
    const b = randomBytes(32).toString('base64');
    expect(parseEnvelopeKeys(`new:${a}, old:${b}`, 'X_KEYS').map((k) => k.id)).toEqual(['new', 'old']);
    const bare = parseEnvelopeKeys(a, 'X_KEY');
    expect(bare).toEqual([{ id: keyFingerprint(Buffer.from(a, 'base64')), key: Buffer.from(a, 'base64') }]);
    expect(bare[0]!.id).toMatch(/^[0-9a-f]{8}$/);
    for (const bad of ['', 'k1:c2hvcnQ=', `k1:${a},k1:${b}`, `bad id:${a}`, `${a.slice(0, -2)}`]) {
      try {
        parseEnvelopeKeys(bad, 'X_KEYS');
        throw new Error(`accepted ${bad}`);
      } catch (error) {
        expect((error as Error).message).toMatch(/^X_KEYS: /);
        expect((error as Error).message).not.toContain(a);
      }
    }
  });
});
