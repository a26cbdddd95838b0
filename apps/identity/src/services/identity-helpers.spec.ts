import { generateSigningKey } from '@medfolio/security';
import { parseKeyRing } from '../repositories/keys.repository';
import { formatWait } from './brute-force.service';
import { checkDateOfBirth } from './date-of-birth';
import { otpCode, otpHash, randomToken, sameHash, sha256 } from './secrets';

describe('date of birth', () => {
  const today = new Date(Date.UTC(2026, 10, 21));
  it('accepts real past dates and today', () => {
    expect(checkDateOfBirth('1990-04-01', today)).toBe('1990-04-01');
    expect(checkDateOfBirth('2000-02-29', today)).toBe('2000-02-29');
    expect(checkDateOfBirth('2026-11-21', today)).toBe('2026-11-21');
  });
  it.each([
    ['1990-02-30', 'Date of birth is not a real date.'],
    ['2001-02-29', 'Date of birth is not a real date.'],
    ['1990-13-01', 'Date of birth is not a real date.'],
    ['1990-4-1', 'Date of birth is not a real date.'],
    ['2026-11-22', 'Date of birth cannot be in the future.'],
    ['1899-12-31', 'Date of birth must be after 1900.'],
  ])('refuses %s', (text, message) => {
    expect(() => checkDateOfBirth(text, today)).toThrow(message);
  });
});

describe('secrets', () => {
  it('makes 4-digit codes covering the whole range', () => {
    const codes = new Set(Array.from({ length: 5000 }, otpCode));
    for (const code of codes) expect(code).toMatch(/^\d{4}$/);
    expect(codes.size).toBeGreaterThan(3500);
  });
  it('binds code hashes to the secret and the user', () => {
    const secret = Buffer.alloc(32, 7);
    const hash = otpHash(secret, 'user-1', '0417');
    expect(sameHash(hash, otpHash(secret, 'user-1', '0417'))).toBe(true);
    expect(sameHash(hash, otpHash(secret, 'user-2', '0417'))).toBe(false);
    expect(sameHash(hash, otpHash(Buffer.alloc(32, 8), 'user-1', '0417'))).toBe(false);
  });
  it('makes 256-bit URL-safe tokens, stored as SHA-256', () => {
    const token = randomToken();
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(sha256(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(randomToken()).not.toBe(token);
  });
});

describe('formatWait', () => {
  it('speaks in seconds, then minutes', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(30)).toBe('30 seconds');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(3600)).toBe('60 minutes');
  });
});

describe('JWT_SIGNING_KEYS', () => {
  it('reads a ring whose first key signs and whose public keys carry no private part', async () => {
    const [a, b] = [await generateSigningKey(), await generateSigningKey()];
    const ring = parseKeyRing(JSON.stringify([a.privateJwk, b.privateJwk]));
    expect(ring.current.kid).toBe(a.kid);
    expect(ring.keys.map((k) => k.kid)).toEqual([a.kid, b.kid]);
    expect(ring.keys.every((k) => !('d' in k.publicJwk))).toBe(true);
  });
  it('names what is wrong', () => {
    expect(() => parseKeyRing('nope')).toThrow('JWT_SIGNING_KEYS is not valid JSON');
    expect(() => parseKeyRing('[]')).toThrow('non-empty JSON array');
    expect(() => parseKeyRing(JSON.stringify([{ kty: 'RSA', kid: 'x', d: 'y' }]))).toThrow('JWT_SIGNING_KEYS[0] must be a private EC P-256 JWK with a kid');
  });
});
