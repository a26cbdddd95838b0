import { createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { ClientKeyError, parseClientKeys } from '../repositories/client-keys';
import { type ClientRegistrationsRepository, parseRegistrations, RegistrationsError } from '../repositories/client-registrations.repository';
import { ClientAuthService } from './client-auth.service';

const TOKEN_ENDPOINT = 'https://ehr.example/oauth2/token';

async function privateJwk(alg: 'ES384' | 'RS384' | 'ES256'): Promise<Record<string, unknown>> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS384' ? { modulusLength: 2048 } : {}) });
  return { ...(await exportJWK(privateKey)) };
}

function registrations(map: Record<string, { client_id: string; auth: 'public' | 'private_key_jwt' }>, fallback = 'medfolio'): ClientRegistrationsRepository {
  return {
    for: (id: string) => map[id] ?? { client_id: fallback, auth: 'public' },
    usesPrivateKeyJwt: () => Object.values(map).some((r) => r.auth === 'private_key_jwt'),
  } as unknown as ClientRegistrationsRepository;
}

describe('client registrations and private_key_jwt assertions', () => {
  it('reads registrations per endpoint and refuses bad entries by name', () => {
    const parsed = parseRegistrations(JSON.stringify({ 'epic-r4': { client_id: 'abc-123', auth: 'private_key_jwt' }, 'small-clinic': { client_id: 'medfolio-small' } }));
    expect(Object.fromEntries(parsed)).toEqual({ 'epic-r4': { client_id: 'abc-123', auth: 'private_key_jwt' }, 'small-clinic': { client_id: 'medfolio-small', auth: 'public' } });
    expect(() => parseRegistrations('[]')).toThrow(RegistrationsError);
    expect(() => parseRegistrations('{')).toThrow(/not JSON/);
    expect(() => parseRegistrations(JSON.stringify({ x: { client_id: 'a b' } }))).toThrow(/"x": client_id/);
    expect(() => parseRegistrations(JSON.stringify({ x: { client_id: 'a', auth: 'client_secret_basic' } }))).toThrow(/"x": auth must be/);
    expect(() => parseRegistrations(JSON.stringify({ 'https://evil': { client_id: 'a' } }))).toThrow(/not an endpoint id/);
  });

  it('takes EC P-384 and RSA 2048 keys, publishes only their public members, and refuses other curves and public-only keys', async () => {
    const ec = await privateJwk('ES384');
    const rsa = await privateJwk('RS384');
    const keys = await parseClientKeys(JSON.stringify({ keys: [ec, { ...rsa, kid: 'old-rsa' }] }), 'SMART_CLIENT_JWK');
    expect(keys.signing).toMatchObject({ alg: 'ES384', kid: expect.any(String) });
    expect(keys.published.map((k) => [k.kty, k.alg, k.use])).toEqual([['EC', 'ES384', 'sig'], ['RSA', 'RS384', 'sig']]);
    expect(keys.published[1]?.kid).toBe('old-rsa');
    for (const published of keys.published) for (const member of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(published).not.toHaveProperty(member);
    await expect(parseClientKeys(JSON.stringify(await privateJwk('ES256')), 'SMART_CLIENT_JWK')).rejects.toThrow(/EC P-384 key/);
    const { d: _d, ...publicOnly } = ec;
    await expect(parseClientKeys(JSON.stringify(publicOnly), 'SMART_CLIENT_JWK')).rejects.toThrow(ClientKeyError);
    await expect(parseClientKeys('not json', 'SMART_CLIENT_JWK')).rejects.toThrow(/not JSON/);
  });

  it('signs an assertion a server verifies with the published JWKS: iss = sub = client_id, aud = the token endpoint, a fresh jti, exp at most 5 minutes ahead', async () => {
    for (const alg of ['ES384', 'RS384'] as const) {
      const keys = await parseClientKeys(JSON.stringify(await privateJwk(alg)), 'SMART_CLIENT_JWK');
      const service = new ClientAuthService(registrations({ 'epic-r4': { client_id: 'abc-123', auth: 'private_key_jwt' } }), keys);
      const form = await service.form('epic-r4', 'abc-123', TOKEN_ENDPOINT);
      expect(form).toMatchObject({ client_id: 'abc-123', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' });
      const assertion = form['client_assertion'] as string;
      expect(decodeProtectedHeader(assertion)).toEqual({ alg, kid: keys.signing?.kid, typ: 'JWT' });
      const { payload } = await jwtVerify(assertion, createLocalJWKSet(service.jwks() as never), { issuer: 'abc-123', subject: 'abc-123', audience: TOKEN_ENDPOINT });
      expect((payload.exp as number) - (payload.iat as number)).toBeLessThanOrEqual(300);
      const again = await service.form('epic-r4', 'abc-123', TOKEN_ENDPOINT);
      expect(JSON.parse(Buffer.from((again['client_assertion'] as string).split('.')[1] as string, 'base64url').toString()).jti).not.toBe(payload.jti);
    }
  });

  it('stays a public client for endpoints without a registration, and for connections made with another client id', async () => {
    const keys = await parseClientKeys(JSON.stringify(await privateJwk('ES384')), 'SMART_CLIENT_JWK');
    const service = new ClientAuthService(registrations({ 'epic-r4': { client_id: 'abc-123', auth: 'private_key_jwt' } }), keys);
    expect(service.registrationFor('other')).toEqual({ client_id: 'medfolio', auth: 'public' });
    await expect(service.form('other', 'medfolio', TOKEN_ENDPOINT)).resolves.toEqual({ client_id: 'medfolio' });
    await expect(service.form('epic-r4', 'an-older-id', TOKEN_ENDPOINT)).resolves.toEqual({ client_id: 'an-older-id' });
  });

  it('refuses to start with a private_key_jwt registration and no signing key', () => {
    const service = new ClientAuthService(registrations({ 'epic-r4': { client_id: 'abc-123', auth: 'private_key_jwt' } }), { signing: null, published: [] });
    expect(() => service.onApplicationBootstrap()).toThrow(/no SMART_CLIENT_JWK/);
    expect(() => new ClientAuthService(registrations({}), { signing: null, published: [] }).onApplicationBootstrap()).not.toThrow();
  });
});
