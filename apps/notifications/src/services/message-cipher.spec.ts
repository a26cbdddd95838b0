import { createCipheriv, randomBytes } from 'node:crypto';
import { MessageCipher, SEAL_CONTEXT } from './message-cipher';

describe('MessageCipher (AES-256-GCM)', () => {
  const cipher = new MessageCipher(randomBytes(32));
  const value = { to: 'ada@example.com', subject: 'Your Medfolio verification code', text: 'code 4821', html: '<p>4821</p>' };
  const context = SEAL_CONTEXT.email('0b6f7d1e-2f55-4b8e-9d0c-1f1c1d1e1f10');

  it('opens what it sealed', () => {
    expect(cipher.open(cipher.seal(value, context), context)).toEqual(value);
  });

  it('leaves nothing readable in the sealed bytes, and never seals the same way twice', () => {
    const sealed = cipher.seal(value, context);
    for (const secret of ['4821', 'ada@example.com', 'verification']) expect(sealed.toString('latin1')).not.toContain(secret);
    expect(cipher.seal(value, context).equals(sealed)).toBe(false);
  });

  it.each([
    ['the version byte', 0],
    ['the IV', 5],
    ['the tag', 20],
    ['the ciphertext', 40],
  ])('detects a change to %s', (_what, offset) => {
    const sealed = cipher.seal(value, context);
    sealed[offset] = sealed[offset]! ^ 0x01;
    expect(() => cipher.open(sealed, context)).toThrow();
  });

  it('detects truncation', () => {
    const sealed = cipher.seal(value, context);
    expect(() => cipher.open(sealed.subarray(0, sealed.length - 1), context)).toThrow();
    expect(() => cipher.open(sealed.subarray(0, 10), context)).toThrow('Not a sealed notifications value');
  });

  it('does not open a value moved to another row, or under another key, and says so', () => {
    const sealed = cipher.seal(value, context);
    const refused = 'failed authentication: altered, from another row, or sealed with another key';
    expect(() => cipher.open(sealed, SEAL_CONTEXT.email('another-row'))).toThrow(refused);
    expect(() => cipher.open(sealed, SEAL_CONTEXT.contact('0b6f7d1e-2f55-4b8e-9d0c-1f1c1d1e1f10'))).toThrow(refused);
    expect(() => new MessageCipher(randomBytes(32)).open(sealed, context)).toThrow(/which is not among the keys given/);
    // Another key under the same id: the authentication refuses it.
    const other = { id: 'k1', key: randomBytes(32) };
    const mine = { id: 'k1', key: randomBytes(32) };
    expect(() => new MessageCipher([other]).open(new MessageCipher([mine]).seal(value, context), context)).toThrow(refused);
  });

  it('seals in the shared envelope with the current key id, and opens values sealed under an older key (rotation)', () => {
    const old = { id: 'old', key: randomBytes(32) };
    const current = { id: 'new', key: randomBytes(32) };
    const before = new MessageCipher([old]).seal(value, context);
    const rotated = new MessageCipher([current, old]);
    expect(rotated.open(before, context)).toEqual(value);
    const after = rotated.seal(value, context);
    expect(after[0]).toBe(2);
    expect(after.subarray(2, 2 + after[1]!).toString('ascii')).toBe('new');
    expect(() => new MessageCipher([old]).open(after, context)).toThrow('names key id new');
  });

  it('refuses the sealed values of two rows swapped, each in the other', () => {
    const first = SEAL_CONTEXT.email('1b6f7d1e-2f55-4b8e-9d0c-1f1c1d1e1f10');
    const second = SEAL_CONTEXT.email('2b6f7d1e-2f55-4b8e-9d0c-1f1c1d1e1f10');
    const sealedFirst = cipher.seal({ ...value, text: 'first' }, first);
    const sealedSecond = cipher.seal({ ...value, text: 'second' }, second);
    expect(() => cipher.open(sealedSecond, first)).toThrow('failed authentication');
    expect(() => cipher.open(sealedFirst, second)).toThrow('failed authentication');
  });

  it('opens values in the layout rows are stored in (version 1 | IV | tag | ciphertext, context as GCM additional data)', () => {
    // Sealed here with node:crypto directly, as the documented layout says: rows written by any
    // earlier build must keep opening.
    const key = randomBytes(32);
    const iv = randomBytes(12);
    const gcm = createCipheriv('aes-256-gcm', key, iv);
    gcm.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([gcm.update(JSON.stringify(value), 'utf8'), gcm.final()]);
    const stored = Buffer.concat([Buffer.from([1]), iv, gcm.getAuthTag(), ciphertext]);
    expect(new MessageCipher(key).open(stored, context)).toEqual(value);
    // ... under any of the keys given, for the rows written before a rotation.
    expect(new MessageCipher([{ id: 'next', key: randomBytes(32) }, { id: 'was', key }]).open(stored, context)).toEqual(value);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new MessageCipher(randomBytes(16))).toThrow('32 bytes');
  });
});
