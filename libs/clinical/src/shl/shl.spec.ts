import {
  checkShlFileToken,
  decodeShlink,
  decryptShlFile,
  encodeShlink,
  encryptShlFile,
  newShlKey,
  SHL_FILE_TOKEN_SKEW_SECONDS,
  SHL_LOCATION_TTL_SECONDS,
  shlFileToken,
  shlFlags,
  shlManifestTag,
  shlViewerUrl,
} from './shl';

describe('SMART Health Link payload', () => {
  it('encodes shlink:/ + base64url JSON with the spec fields, and decodes it back from a viewer URL', () => {
    const key = newShlKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const shlink = encodeShlink({
      url: 'https://medfolio.example/api/shl/abc/def',
      key,
      exp: 1_900_000_000.7,
      flag: 'PL',
      label: 'x'.repeat(100),
    });
    expect(shlink).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/);
    const raw = JSON.parse(Buffer.from(shlink.slice(8), 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(raw).toEqual({
      url: 'https://medfolio.example/api/shl/abc/def',
      key,
      exp: 1_900_000_000,
      flag: 'LP',
      label: 'x'.repeat(80),
      v: 1,
    });
    expect(decodeShlink(shlViewerUrl('https://medfolio.example/summary/abc', shlink))).toEqual(raw);
    expect(() => decodeShlink('https://medfolio.example/summary/abcshlink:/e30')).toThrow('Not a SMART Health Link.');
    expect(() => encodeShlink({ url: 'u', key: 'short' })).toThrow();
  });

  it('sets P for a passcode and L for a link that does not expire', () => {
    expect(shlFlags({ hasPasscode: true, expiresAt: null })).toBe('LP');
    expect(shlFlags({ hasPasscode: false, expiresAt: new Date() })).toBe('');
  });
});

describe('SMART Health Link files and locations', () => {
  it('encrypts as compact JWE (dir, A256GCM, cty) that only the key opens', async () => {
    const key = newShlKey();
    const jwe = await encryptShlFile('{"resourceType":"Bundle"}', key);
    expect(jwe.split('.')).toHaveLength(5);
    const header = JSON.parse(Buffer.from(jwe.split('.')[0] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    expect(header).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' });
    expect(jwe.split('.')[1]).toBe(''); // "dir": no encrypted key
    await expect(decryptShlFile(jwe, key)).resolves.toEqual({
      contentType: 'application/fhir+json',
      content: '{"resourceType":"Bundle"}',
    });
    await expect(decryptShlFile(jwe, newShlKey())).rejects.toThrow();
  });

  it('ties manifest tags and file tokens to the key and the link, and file tokens to their expiry', () => {
    const key = newShlKey();
    expect(shlManifestTag(key, 'share-a')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(shlManifestTag(key, 'share-a')).not.toBe(shlManifestTag(key, 'share-b'));
    expect(shlManifestTag(key, 'share-a')).not.toBe(shlManifestTag(newShlKey(), 'share-a'));
    const now = 1_800_000_000;
    const token = shlFileToken(key, 'share-a', now + 60);
    expect(checkShlFileToken(key, 'share-a', token, now)).toBe(true);
    expect(checkShlFileToken(key, 'share-a', token, now + 61)).toBe(false);
    expect(checkShlFileToken(key, 'share-b', token, now)).toBe(false);
    expect(checkShlFileToken(newShlKey(), 'share-a', token, now)).toBe(false);
    expect(checkShlFileToken(key, 'share-a', `${now + 9999}.${token.split('.')[1]}`, now)).toBe(false);
  });

  it('refuses a file token made to last longer than a location may, even one made with the right key', () => {
    const key = newShlKey();
    const now = 1_800_000_000;
    // The key is in the SHL payload: its holder can make a token for any expiry.
    const tenYears = shlFileToken(key, 'share-a', now + 10 * 365 * 86_400);
    expect(checkShlFileToken(key, 'share-a', tenYears, now)).toBe(false);
    const justTooLong = shlFileToken(key, 'share-a', now + SHL_LOCATION_TTL_SECONDS + SHL_FILE_TOKEN_SKEW_SECONDS + 1);
    expect(checkShlFileToken(key, 'share-a', justTooLong, now)).toBe(false);
    // What the manifest gives (an hour), checked on a server whose clock is a little behind, still works.
    const given = shlFileToken(key, 'share-a', now + SHL_LOCATION_TTL_SECONDS);
    expect(checkShlFileToken(key, 'share-a', given, now - 30)).toBe(true);
  });
});
