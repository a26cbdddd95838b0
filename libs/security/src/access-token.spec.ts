import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { DEFAULT_TOKEN_SETTINGS, signAccessToken } from './access-token';
import { generateSigningKey, loadOrCreateSigningKeys, publicJwks } from './signing-keys';

describe('signing keys and access tokens', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'medfolio-keys-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates the key ring once, owner-readable only, and reuses it', async () => {
    const first = await loadOrCreateSigningKeys(dir);
    const again = await loadOrCreateSigningKeys(dir);
    expect(again.current.kid).toBe(first.current.kid);
    const mode = (await stat(path.join(dir, 'keys', 'jwt-signing-keys.json'))).mode & 0o777;
    expect(mode).toBe(0o600);
  });

  it('signs ES256 access tokens that verify against the public JWKS only', async () => {
    const ring = await loadOrCreateSigningKeys(dir);
    const token = await signAccessToken(ring.current, { sub: 'patient-1', roles: ['patient'], sid: 'sign-in-1' });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'ES256', kid: ring.current.kid });
    const jwks = publicJwks(ring);
    expect(JSON.stringify(jwks)).not.toContain('"d"');
    const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: DEFAULT_TOKEN_SETTINGS.issuer,
      audience: DEFAULT_TOKEN_SETTINGS.audience,
    });
    expect(payload).toMatchObject({ sub: 'patient-1', roles: ['patient'], token_use: 'access' });
    expect(payload.exp! - payload.iat!).toBe(900);
  });

  it('rejects a token signed with a key that is not in the JWKS', async () => {
    const ring = await loadOrCreateSigningKeys(dir);
    const stranger = await generateSigningKey();
    const token = await signAccessToken(stranger, { sub: 'x', roles: [], sid: 's' });
    await expect(jwtVerify(token, createLocalJWKSet(publicJwks(ring)))).rejects.toThrow();
  });
});
