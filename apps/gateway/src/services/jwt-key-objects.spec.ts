import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { asKeyObjects } from './jwt.strategy';

const pem = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** The token check's key provider: the key object is made once per public key, not per request. */
describe('asKeyObjects', () => {
  const resolve = (provider: ReturnType<typeof asKeyObjects>) =>
    new Promise<{ err: unknown; key: unknown }>((done) => provider({}, 'token', (err, key) => done({ err, key })));

  it('hands out one key object per PEM, a new one for a rotated key', async () => {
    let current = pem();
    const provider = asKeyObjects((_req, _token, done) => done(null, current));
    const first = await resolve(provider);
    expect(first.key).toBeInstanceOf(KeyObject);
    expect((await resolve(provider)).key).toBe(first.key);
    current = pem();
    const rotated = await resolve(provider);
    expect(rotated.key).toBeInstanceOf(KeyObject);
    expect(rotated.key).not.toBe(first.key);
  });

  it('passes on "no key" and errors, and refuses a PEM that is not a key', async () => {
    expect(await resolve(asKeyObjects((_req, _token, done) => done(null, null)))).toEqual({ err: null, key: null });
    const failure = new Error('jwks down');
    expect((await resolve(asKeyObjects((_req, _token, done) => done(failure)))).err).toBe(failure);
    const bad = await resolve(asKeyObjects((_req, _token, done) => done(null, 'not a pem')));
    expect(String(bad.err)).toMatch(/error|unsupported|invalid/i);
    expect(bad.key).toBeNull();
  });
});
