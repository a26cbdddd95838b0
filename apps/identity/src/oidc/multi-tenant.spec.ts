import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { OidcProviderRepository } from '../repositories/oidc-provider.repository';
import { isIssuerTemplateFor, OidcClient, tenantIssuer } from './oidc-client';
import type { OidcSignInError } from './oidc-errors';
import { parseOidcProviders, type OidcProviderSettings } from './oidc-settings';

/**
 * A stand-in for Microsoft's multi-tenant endpoint on a loopback port: `<origin>/common/v2.0` has a
 * discovery document naming the issuer `<origin>/{tenantid}/v2.0` (as login.microsoftonline.com
 * does), and one key set that signs for every tenant.
 */
let server: Server;
let origin: string;
let signingKey: CryptoKey;
const KID = 'multi-tenant-test-key';
const CLIENT_ID = 'medfolio-web';
const NONCE = 'n-0S6_WzA2Mj';
const TENANT_A = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const TENANT_B = '9188040d-6c67-4c5b-b112-36a304b66dad';

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  signingKey = privateKey;
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] };
  server = createServer((req, res) => {
    const json = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.url === '/common/v2.0/.well-known/openid-configuration') {
      return json({ issuer: `${origin}/{tenantid}/v2.0`, authorization_endpoint: `${origin}/common/oauth2/v2.0/authorize`, token_endpoint: `${origin}/common/oauth2/v2.0/token`, jwks_uri: `${origin}/common/discovery/v2.0/keys` });
    }
    if (req.url === '/common/discovery/v2.0/keys') return json(jwks);
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function settings(multiTenant: boolean): OidcProviderSettings {
  const [parsed] = parseOidcProviders(JSON.stringify([{ name: 'microsoft', issuer: `${origin}/common/v2.0`, client_id: CLIENT_ID, client_secret: 'not-used-here', verified_email_claim: 'xms_edov', ...(multiTenant ? { multi_tenant: true } : {}) }]));
  return parsed!;
}

/** An ID token as a Microsoft tenant signs it; `claims` override the defaults. */
function idToken(tid: string | undefined, claims: JWTPayload = {}): Promise<string> {
  const payload: JWTPayload = { nonce: NONCE, email: `someone-${randomUUID().slice(0, 8)}@contoso.example`, xms_edov: true, ...(tid === undefined ? {} : { tid }), ...claims };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'RS256', kid: KID })
    .setIssuer(typeof claims.iss === 'string' ? claims.iss : `${origin}/${tid ?? TENANT_A}/v2.0`)
    .setSubject('AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ')
    .setAudience(CLIENT_ID)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(signingKey);
}

const refusal = (p: Promise<unknown>) => p.then(() => 'accepted', (e: OidcSignInError) => `${e.code}:${e.reason}`);

describe('a multi-tenant provider (Microsoft common/organizations: a templated issuer)', () => {
  it('reads multi_tenant from OIDC_PROVIDERS (off unless set, a boolean only)', () => {
    expect(settings(false).multiTenant).toBe(false);
    expect(settings(true).multiTenant).toBe(true);
    expect(() => parseOidcProviders(JSON.stringify([{ name: 'microsoft', issuer: 'https://login.example.com/common/v2.0', client_id: 'x', multi_tenant: 'yes' }]))).toThrow(/multi_tenant must be true or false/);
  });

  it("accepts each tenant's token whose iss is the template with its own tid, and names that issuer", async () => {
    const client = new OidcClient(settings(true), new OidcProviderRepository(5000));
    await expect(client.verifyIdToken(await idToken(TENANT_A), NONCE)).resolves.toMatchObject({ provider: 'microsoft', issuer: `${origin}/${TENANT_A}/v2.0`, subject: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ' });
    await expect(client.verifyIdToken(await idToken(TENANT_B), NONCE)).resolves.toMatchObject({ issuer: `${origin}/${TENANT_B}/v2.0` });
  });

  it("refuses an iss that is not the template with the token's tid", async () => {
    const client = new OidcClient(settings(true), new OidcProviderRepository(5000));
    // Another tenant's issuer than the tid says, the template itself, another host, no tid, a tid that is no tenant id.
    await expect(refusal(client.verifyIdToken(await idToken(TENANT_A, { iss: `${origin}/${TENANT_B}/v2.0` }), NONCE))).resolves.toBe('UNAUTHENTICATED:wrong-issuer');
    await expect(refusal(client.verifyIdToken(await idToken(TENANT_A, { iss: `${origin}/{tenantid}/v2.0` }), NONCE))).resolves.toBe('UNAUTHENTICATED:wrong-issuer');
    await expect(refusal(client.verifyIdToken(await idToken(TENANT_A, { iss: `https://evil.example/${TENANT_A}/v2.0` }), NONCE))).resolves.toBe('UNAUTHENTICATED:wrong-issuer');
    await expect(refusal(client.verifyIdToken(await idToken(undefined, { iss: `${origin}/${TENANT_A}/v2.0` }), NONCE))).resolves.toBe('UNAUTHENTICATED:invalid-claims');
    await expect(refusal(client.verifyIdToken(await idToken('common', { iss: `${origin}/common/v2.0` }), NONCE))).resolves.toBe('UNAUTHENTICATED:wrong-issuer');
    // Still every other check: the nonce.
    await expect(refusal(client.verifyIdToken(await idToken(TENANT_A), 'another-nonce'))).resolves.toBe('UNAUTHENTICATED:wrong-nonce');
  });

  it('is refused (the discovery document names another issuer) for a provider not configured as multi-tenant', async () => {
    const client = new OidcClient(settings(false), new OidcProviderRepository(5000));
    await expect(refusal(client.verifyIdToken(await idToken(TENANT_A), NONCE))).resolves.toBe('UNAVAILABLE:provider-unreachable');
    await expect(refusal(client.start())).resolves.toBe('UNAVAILABLE:provider-unreachable');
    await expect(new OidcClient(settings(true), new OidcProviderRepository(5000)).start()).resolves.toMatchObject({ authorizationUrl: `${origin}/common/oauth2/v2.0/authorize` });
  });
});

describe('the issuer template', () => {
  it('must be the configured issuer with its tenant segment replaced', () => {
    expect(isIssuerTemplateFor('https://login.microsoftonline.com/{tenantid}/v2.0', 'https://login.microsoftonline.com/common/v2.0')).toBe(true);
    expect(isIssuerTemplateFor('https://login.microsoftonline.com/{tenantid}/v2.0', 'https://login.microsoftonline.com/organizations/v2.0')).toBe(true);
    expect(isIssuerTemplateFor('https://evil.example/{tenantid}/v2.0', 'https://login.microsoftonline.com/common/v2.0')).toBe(false);
    expect(isIssuerTemplateFor('https://login.microsoftonline.com/{tenantid}/v1.0', 'https://login.microsoftonline.com/common/v2.0')).toBe(false);
    expect(isIssuerTemplateFor('https://login.microsoftonline.com/{tenantid}/{tenantid}', 'https://login.microsoftonline.com/common/v2.0')).toBe(false);
    expect(isIssuerTemplateFor('https://login.microsoftonline.com{tenantid}/v2.0', 'https://login.microsoftonline.com/common/v2.0')).toBe(false);
    expect(isIssuerTemplateFor('https://login.microsoftonline.com/{tenantid}/v2.0', 'https://login.microsoftonline.com/a/b/v2.0')).toBe(false);
  });

  it('takes a tenant GUID only', () => {
    expect(tenantIssuer('https://login.microsoftonline.com/{tenantid}/v2.0', TENANT_A)).toBe(`https://login.microsoftonline.com/${TENANT_A}/v2.0`);
    expect(tenantIssuer('https://login.microsoftonline.com/{tenantid}/v2.0', 'common')).toBeUndefined();
    expect(tenantIssuer('https://login.microsoftonline.com/{tenantid}/v2.0', `${TENANT_A}/x`)).toBeUndefined();
    expect(tenantIssuer('https://login.microsoftonline.com/{tenantid}/v2.0', 7)).toBeUndefined();
  });
});
