import { randomBytes } from 'node:crypto';

import { parseEncryptionKeys } from './config';

describe('parseEncryptionKeys', () => {
  const a = randomBytes(32);
  const b = randomBytes(32);

  it('parses "id:base64" pairs in order, the first being the current key', () => {
    const keys = parseEncryptionKeys(` k2:${b.toString('base64')} , k1:${a.toString('base64')}`);
    expect(keys.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(keys[0]?.key.equals(b)).toBe(true);
    expect(keys[1]?.key.equals(a)).toBe(true);
  });

  it.each([
    ['an empty value', '', 'At least one'],
    ['a key without id', a.toString('base64'), 'must look like'],
    ['a 16-byte key', `k:${randomBytes(16).toString('base64')}`, 'must be 32 bytes'],
    ['invalid base64', 'k:not*base64', 'must look like'],
    ['an id with a space', `my key:${a.toString('base64')}`, 'letters, digits'],
    ['a repeated id', `k:${a.toString('base64')},k:${b.toString('base64')}`, 'listed twice'],
  ])('refuses %s', (_name, value, message) => {
    expect(() => parseEncryptionKeys(value)).toThrow(message);
  });
});
