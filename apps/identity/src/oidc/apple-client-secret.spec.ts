import { exportPKCS8, exportSPKI, generateKeyPair, importSPKI, jwtVerify } from 'jose';
import { appleClientSecret } from './oidc-client';
import { parseOidcProviders } from './oidc-settings';

describe("Apple's client secret", () => {
  it('is an ES256 JWT from the team, for our client id, to Apple, short-lived, signed with the configured key', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const [settings] = parseOidcProviders(
      JSON.stringify([{ name: 'apple', issuer: 'https://appleid.apple.com', client_id: 'com.example.web', apple_client_secret: { team_id: 'TEAM123456', key_id: 'KEY1234567', private_key: pem.replace(/\n/g, '\\n') } }]),
    );
    expect(settings?.appleClientSecret).toEqual({ teamId: 'TEAM123456', keyId: 'KEY1234567', privateKey: pem });
    if (!settings?.appleClientSecret) throw new Error('apple_client_secret not read');
    const secret = await appleClientSecret(settings.appleClientSecret, 'com.example.web', 'https://appleid.apple.com');
    const { payload, protectedHeader } = await jwtVerify(secret, await importSPKI(await exportSPKI(publicKey), 'ES256'), { issuer: 'TEAM123456', audience: 'https://appleid.apple.com', subject: 'com.example.web' });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
  });

  it('is refused with a fixed client secret as well, or without a PEM key', () => {
    const base = { name: 'apple', issuer: 'https://appleid.apple.com', client_id: 'com.example.web' };
    expect(() => parseOidcProviders(JSON.stringify([{ ...base, client_secret: 's', apple_client_secret: { team_id: 't', key_id: 'k', private_key: 'a PEM key' } }]))).toThrow(/not both/);
    expect(() => parseOidcProviders(JSON.stringify([{ ...base, apple_client_secret: { team_id: 't', key_id: 'k', private_key: 'secret' } }]))).toThrow(/PKCS#8/);
  });
});
