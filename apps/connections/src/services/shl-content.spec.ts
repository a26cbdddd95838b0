import { deflateRawSync } from 'node:zlib';
import { CompactEncrypt, CompactSign, exportJWK, generateKeyPair } from 'jose';
import { cleanText, decryptShlFile, healthCardJwsList, parseShlink, readHealthCard, type ShlContentError, verifyHealthCard } from './shl-content';

const KEY = Buffer.alloc(32, 7).toString('base64url');
const link = (payload: Record<string, unknown>) => `shlink:/${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
const reason = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return (error as ShlContentError).reason;
  }
  return 'no error';
};
const reasonAsync = (work: Promise<unknown>) => work.then(() => 'no error', (error: ShlContentError) => error.reason);

describe('parseShlink', () => {
  it('reads the payload alone, after # in a viewer URL, with the label cleaned and flags kept', () => {
    const text = link({ url: 'https://clinic.example/m', key: KEY, exp: 1_900_000_000, flag: 'LP', label: 'Springfield\nClinic / Labs' });
    expect(parseShlink(text)).toEqual({ url: 'https://clinic.example/m', key: KEY, exp: 1_900_000_000, flag: 'LP', label: 'Springfield Clinic Labs' });
    expect(parseShlink(`  https://viewer.example/#${text}\n`)).toEqual(parseShlink(text));
    expect(parseShlink(link({ url: 'https://x.example/m', key: KEY }))).toEqual({ url: 'https://x.example/m', key: KEY, flag: '', label: null });
  });

  it.each([
    ['no shlink at all', 'https://example.com/'],
    ['shlink not after #', 'https://example.com/?shlink:/abc'],
    ['not base64url JSON', 'shlink:/@@@'],
    ['no key', link({ url: 'https://x.example/m' })],
    ['a 16-byte key', link({ url: 'https://x.example/m', key: Buffer.alloc(16).toString('base64url') })],
    ['unknown flags', link({ url: 'https://x.example/m', key: KEY, flag: 'X' })],
    ['U together with P', link({ url: 'https://x.example/m', key: KEY, flag: 'PU' })],
    ['an exp that is not a number', link({ url: 'https://x.example/m', key: KEY, exp: 'soon' })],
    ['an array payload', `shlink:/${Buffer.from('[]').toString('base64url')}`],
  ])('refuses %s', (_what, text) => {
    expect(reason(() => parseShlink(text))).toBe('not-shl');
  });
});

describe('decryptShlFile', () => {
  const encrypt = (text: string, header: Record<string, unknown> = {}) =>
    new CompactEncrypt(new TextEncoder().encode(text)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json', ...header }).encrypt(Buffer.from(KEY, 'base64url'));

  it('opens dir + A256GCM with the link key, DEF-compressed too, and refuses other algorithms, other keys and too much', async () => {
    expect(await decryptShlFile(await encrypt('{"resourceType":"Bundle"}'), KEY, 1000)).toEqual({ cty: 'application/fhir+json', text: '{"resourceType":"Bundle"}' });
    expect((await decryptShlFile(await encrypt('x'.repeat(500), { zip: 'DEF' }), KEY, 1000)).text).toBe('x'.repeat(500));
    expect(await reasonAsync(decryptShlFile(await encrypt('x'.repeat(5000), { zip: 'DEF' }), KEY, 1000))).toBe('too-large');
    expect(await reasonAsync(decryptShlFile(await encrypt('x'.repeat(5000)), KEY, 1000))).toBe('too-large');
    expect(await reasonAsync(decryptShlFile(await encrypt('{}'), Buffer.alloc(32, 8).toString('base64url'), 1000))).toBe('undecryptable');
    const a128 = await new CompactEncrypt(new TextEncoder().encode('{}')).setProtectedHeader({ alg: 'dir', enc: 'A128GCM' }).encrypt(Buffer.alloc(16, 1));
    expect(await reasonAsync(decryptShlFile(a128, KEY, 1000))).toBe('undecryptable');
    expect(await reasonAsync(decryptShlFile('not.a.jwe', KEY, 1000))).toBe('undecryptable');
  });
});

describe('SMART Health Cards', () => {
  it('reads a card (DEF payload), verifies ES256 with the JWK Set, and not with another key', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const other = await generateKeyPair('ES256', { extractable: true });
    const claims = { iss: 'https://issuer.example', nbf: 1, vc: { type: ['https://smarthealth.cards#health-card'], credentialSubject: { fhirVersion: '4.0.1', fhirBundle: { resourceType: 'Bundle', type: 'collection', entry: [] } } } };
    const jws = await new CompactSign(deflateRawSync(Buffer.from(JSON.stringify(claims)))).setProtectedHeader({ alg: 'ES256', zip: 'DEF', kid: 'k1' }).sign(privateKey);
    expect(readHealthCard(jws, 10_000)).toEqual({ iss: 'https://issuer.example', bundle: claims.vc.credentialSubject.fhirBundle, kid: 'k1' });
    expect(await verifyHealthCard(jws, { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] })).toBe(true);
    expect(await verifyHealthCard(jws, { keys: [{ ...(await exportJWK(other.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' }] })).toBe(false);
    expect(await verifyHealthCard(jws, { keys: [] })).toBe(false);
    expect(reason(() => readHealthCard(jws, 10))).toBe('too-large');
    expect(healthCardJwsList(JSON.stringify({ verifiableCredential: [jws] }))).toEqual([jws]);
    expect(reason(() => healthCardJwsList('{"verifiableCredential":[]}'))).toBe('not-a-card');
    expect(reason(() => healthCardJwsList('{"verifiableCredential":["a.b"]}'))).toBe('not-a-card');
  });

  it('cleans text for file names: no path or control characters, at most n characters', () => {
    expect(cleanText('a/b\\c:d*e?f"g<h>i|j\u0000k', 100)).toBe('a b c d e f g h i j k');
    expect(cleanText('x'.repeat(200), 80)).toHaveLength(80);
  });
});
