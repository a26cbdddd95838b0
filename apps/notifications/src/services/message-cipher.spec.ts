import { randomBytes } from 'node:crypto';
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

  it('does not open a value moved to another row, or under another key', () => {
    const sealed = cipher.seal(value, context);
    expect(() => cipher.open(sealed, SEAL_CONTEXT.email('another-row'))).toThrow();
    expect(() => cipher.open(sealed, SEAL_CONTEXT.contact('0b6f7d1e-2f55-4b8e-9d0c-1f1c1d1e1f10'))).toThrow();
    expect(() => new MessageCipher(randomBytes(32)).open(sealed, context)).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new MessageCipher(randomBytes(16))).toThrow('32 bytes');
  });
});
