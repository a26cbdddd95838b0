import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { SmartSandbox } from './smart-sandbox';
import { sandboxDirectory } from './directory';
import { addSyntheticRecord } from './synthetic-record';

const REDIRECT = 'https://app.example/api/connections/callback/';
const SCOPE = 'launch/patient openid fhirUser offline_access patient/*.rs';

interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  scope: string;
  patient: string;
  expires_in: number;
  id_token?: string;
  token_type: string;
}

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The authorization request as the browser makes it; answers the redirect's URL (or the error page's status). */
async function authorize(sandbox: SmartSandbox, overrides: Record<string, string> = {}): Promise<{ location?: URL; status: number; verifier: string; state: string }> {
  const { verifier, challenge } = pkce();
  const state = randomBytes(16).toString('base64url');
  const params = new URLSearchParams({ response_type: 'code', client_id: 'medfolio', redirect_uri: REDIRECT, scope: SCOPE, state, aud: sandbox.fhirBaseUrl, code_challenge: challenge, code_challenge_method: 'S256', ...overrides });
  const config = (await (await fetch(`${sandbox.fhirBaseUrl}/.well-known/smart-configuration`)).json()) as { authorization_endpoint: string };
  const answer = await fetch(`${config.authorization_endpoint}?${params.toString()}`, { redirect: 'manual' });
  const location = answer.headers.get('location');
  return { location: location ? new URL(location) : undefined, status: answer.status, verifier, state };
}

async function tokenRequest(sandbox: SmartSandbox, form: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${sandbox.issuer}/token`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(form) });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** A whole standalone launch: authorize, then exchange the code with its verifier. */
async function connect(sandbox: SmartSandbox, overrides: Record<string, string> = {}): Promise<TokenAnswer> {
  const { location, verifier } = await authorize(sandbox, overrides);
  const code = location?.searchParams.get('code');
  if (!code) throw new Error(`no code: ${location?.toString()}`);
  const { status, body } = await tokenRequest(sandbox, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: overrides.client_id ?? 'medfolio', code_verifier: verifier });
  if (status !== 200) throw new Error(`token exchange answered ${status}: ${JSON.stringify(body)}`);
  return body as unknown as TokenAnswer;
}

async function fhirGet(sandbox: SmartSandbox, token: string, path: string, accept = 'application/fhir+json'): Promise<{ status: number; body: Resource & Record<string, unknown>; headers: Headers }> {
  const url = path.startsWith('http') ? path : `${sandbox.fhirBaseUrl}/${path}`;
  const answer = await fetch(url, { headers: { Authorization: `Bearer ${token}`, Accept: accept } });
  return { status: answer.status, body: (await answer.json()) as Resource & Record<string, unknown>, headers: answer.headers };
}

describe('SmartSandbox', () => {
  let sandbox: SmartSandbox;

  beforeAll(async () => {
    sandbox = await SmartSandbox.start({
      clients: [
        { client_id: 'medfolio', redirect_uris: [REDIRECT] },
        { client_id: 'confidential', redirect_uris: [REDIRECT], client_secret: 'a-test-secret' },
      ],
      users: [
        { username: 'homer', patientId: '123' },
        { username: 'bart', patientId: '555' },
      ],
    });
  }, 30_000);

  afterAll(() => sandbox.stop());

  it('publishes its SMART configuration (S256 only) and the oauth-uris in its CapabilityStatement', async () => {
    const config = (await (await fetch(`${sandbox.fhirBaseUrl}/.well-known/smart-configuration`)).json()) as Record<string, unknown>;
    expect(config).toMatchObject({ issuer: sandbox.issuer, code_challenge_methods_supported: ['S256'], grant_types_supported: ['authorization_code', 'refresh_token'] });
    expect(config.capabilities).toEqual(expect.arrayContaining(['launch-standalone', 'client-public', 'context-standalone-patient', 'permission-offline', 'permission-v1', 'permission-v2']));
    const metadata = (await (await fetch(`${sandbox.fhirBaseUrl}/metadata`)).json()) as { rest: { security: { extension: { extension: { url: string; valueUri: string }[] }[] } }[] };
    const uris = metadata.rest[0]?.security.extension[0]?.extension ?? [];
    expect(uris).toContainEqual({ url: 'token', valueUri: `${sandbox.issuer}/token` });
  });

  it('runs a standalone launch with PKCE: code, tokens with the patient and an id_token, then the patient\'s data', async () => {
    const { location, state, verifier } = await authorize(sandbox, { nonce: 'n-1' });
    expect(location?.origin + (location?.pathname ?? '')).toBe(REDIRECT);
    expect(location?.searchParams.get('state')).toBe(state);
    const code = location?.searchParams.get('code') as string;
    const { status, body } = await tokenRequest(sandbox, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'medfolio', code_verifier: verifier });
    expect(status).toBe(200);
    const tokens = body as unknown as TokenAnswer;
    expect(tokens).toMatchObject({ token_type: 'Bearer', patient: '123', expires_in: 3600, scope: SCOPE });
    expect(tokens.refresh_token).toEqual(expect.any(String));
    const { payload } = await jwtVerify(tokens.id_token as string, createRemoteJWKSet(new URL(`${sandbox.issuer}/jwks`)), { issuer: sandbox.issuer, audience: 'medfolio' });
    expect(payload).toMatchObject({ sub: 'homer', nonce: 'n-1', fhirUser: `${sandbox.fhirBaseUrl}/Patient/123` });

    const patient = await fhirGet(sandbox, tokens.access_token, 'Patient/123');
    expect(patient.status).toBe(200);
    expect(patient.body).toMatchObject({ resourceType: 'Patient', id: '123', name: [expect.objectContaining({ given: ['Homer'] })] });
    const observations = await fhirGet(sandbox, tokens.access_token, 'Observation');
    expect(observations.status).toBe(200);
    expect((observations.body as unknown as Bundle).total).toBe(8);
  });

  it('refuses PKCE plain, a missing challenge, a wrong audience and an unregistered redirect URI', async () => {
    const plain = await authorize(sandbox, { code_challenge_method: 'plain', code_challenge: 'x'.repeat(43) });
    expect(plain.location?.searchParams.get('error')).toBe('invalid_request');
    expect(plain.location?.searchParams.get('error_description')).toMatch(/S256/);
    expect(plain.location?.searchParams.get('state')).toBe(plain.state);
    const none = await authorize(sandbox, { code_challenge: '' });
    expect(none.location?.searchParams.get('error')).toBe('invalid_request');
    const aud = await authorize(sandbox, { aud: 'https://elsewhere.example/fhir' });
    expect(aud.location?.searchParams.get('error_description')).toMatch(/aud/);
    const redirect = await authorize(sandbox, { redirect_uri: 'https://evil.example/cb' });
    expect(redirect.status).toBe(400);
    expect(redirect.location).toBeUndefined();
  });

  it('answers invalid_grant to a wrong verifier, another redirect URI, and a code used twice (which revokes its grant)', async () => {
    const first = await authorize(sandbox);
    const code = first.location?.searchParams.get('code') as string;
    const wrong = await tokenRequest(sandbox, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'medfolio', code_verifier: pkce().verifier });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The code was spent by the failed attempt; a new one for the redirect URI check.
    const second = await authorize(sandbox);
    const otherRedirect = await tokenRequest(sandbox, { grant_type: 'authorization_code', code: second.location?.searchParams.get('code') as string, redirect_uri: 'https://app.example/other', client_id: 'medfolio', code_verifier: second.verifier });
    expect(otherRedirect).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const third = await authorize(sandbox);
    const thirdCode = third.location?.searchParams.get('code') as string;
    const exchange = { grant_type: 'authorization_code', code: thirdCode, redirect_uri: REDIRECT, client_id: 'medfolio', code_verifier: third.verifier };
    const ok = await tokenRequest(sandbox, exchange);
    expect(ok.status).toBe(200);
    expect(await tokenRequest(sandbox, exchange)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await fhirGet(sandbox, ok.body.access_token as string, 'Patient/123')).status).toBe(401);
  });

  it('refreshes (rotating the refresh token), and answers invalid_grant once the grant has expired or been revoked', async () => {
    const tokens = await connect(sandbox);
    const refreshed = await tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: 'medfolio' });
    expect(refreshed).toMatchObject({ status: 200, body: { patient: '123', scope: SCOPE } });
    expect(refreshed.body.access_token).not.toBe(tokens.access_token);
    expect((await fhirGet(sandbox, refreshed.body.access_token as string, 'Patient/123')).status).toBe(200);
    const reused = await tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string, client_id: 'medfolio' });
    expect(reused).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    const revokedGrant = await connect(sandbox);
    const revocation = await fetch(`${sandbox.issuer}/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: revokedGrant.refresh_token as string, token_type_hint: 'refresh_token', client_id: 'medfolio' }) });
    expect(revocation.status).toBe(200);
    expect(await tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: revokedGrant.refresh_token as string, client_id: 'medfolio' })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await fhirGet(sandbox, revokedGrant.access_token, 'Patient/123')).status).toBe(401);

    const expiring = await connect(sandbox);
    sandbox.expireAccessTokens();
    const expired = await fhirGet(sandbox, expiring.access_token, 'Patient/123');
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    const again = await tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: expiring.refresh_token as string, client_id: 'medfolio' });
    expect(again.status).toBe(200);
    sandbox.expireGrants();
    const refused = await tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: again.body.refresh_token as string, client_id: 'medfolio' });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/expired/) } });
  });

  it('checks scopes on every FHIR request, v1 and v2, and refuses a launch with no patient read scope', async () => {
    const observationsOnly = await connect(sandbox, { scope: 'launch/patient patient/Observation.rs' });
    expect(observationsOnly.scope).toBe('launch/patient patient/Observation.rs');
    expect(observationsOnly.refresh_token).toBeUndefined();
    expect((await fhirGet(sandbox, observationsOnly.access_token, 'Observation')).status).toBe(200);
    const refused = await fhirGet(sandbox, observationsOnly.access_token, 'Patient/123');
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope"');

    const readOnly = await connect(sandbox, { scope: 'launch/patient patient/Patient.r' });
    expect((await fhirGet(sandbox, readOnly.access_token, 'Patient/123')).status).toBe(200);
    expect((await fhirGet(sandbox, readOnly.access_token, 'Patient')).status).toBe(403);

    const v1 = await connect(sandbox, { scope: 'launch/patient patient/*.read' });
    expect((await fhirGet(sandbox, v1.access_token, 'Condition')).status).toBe(200);

    const userLevel = await authorize(sandbox, { scope: 'launch/patient user/*.rs' });
    expect(userLevel.location?.searchParams.get('error')).toBe('invalid_scope');
  });

  it('shows a token only its patient\'s compartment', async () => {
    const homer = await connect(sandbox);
    expect((await fhirGet(sandbox, homer.access_token, 'Patient/555')).status).toBe(404);
    const patients = await fhirGet(sandbox, homer.access_token, 'Patient');
    expect(((patients.body as unknown as Bundle).entry ?? []).map((e) => e.resource?.id)).toEqual(['123']);
    const bart = await connect(sandbox, { login_hint: 'bart' });
    expect(bart.patient).toBe('555');
    const observations = await fhirGet(sandbox, bart.access_token, 'Observation');
    expect((observations.body as unknown as Bundle).total).toBe(0);
    const homersObservation = ((await fhirGet(sandbox, homer.access_token, 'Observation')).body as unknown as Bundle).entry?.[0]?.resource?.id as string;
    expect((await fhirGet(sandbox, bart.access_token, `Observation/${homersObservation}`)).status).toBe(404);
  });

  it('pages searches through Bundle.link next and searches by _lastUpdated', async () => {
    const made = await addSyntheticRecord(sandbox.fhir, '123', 160, 'paging');
    const madeObservations = made.filter((r) => r.resourceType === 'Observation').map((r) => r.id);
    const homer = await connect(sandbox);
    const seen: string[] = [];
    let next: string | undefined = 'Observation?_count=7';
    let pages = 0;
    while (next) {
      const page = await fhirGet(sandbox, homer.access_token, next);
      expect(page.status).toBe(200);
      const bundle = page.body as unknown as Bundle;
      expect(bundle.entry?.length ?? 0).toBeLessThanOrEqual(7);
      seen.push(...(bundle.entry ?? []).map((e) => e.resource?.id as string));
      next = bundle.link?.find((l) => l.relation === 'next')?.url;
      pages += 1;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(8 + madeObservations.length);
    expect(seen).toEqual(expect.arrayContaining(madeObservations));
    expect(pages).toBe(Math.ceil(seen.length / 7));
    const capped = (await fhirGet(sandbox, homer.access_token, 'Observation?_count=5000')).body as unknown as Bundle;
    expect(capped.link?.find((l) => l.relation === 'self')?.url).toContain('_count=200');

    const checkpoint = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = await addSyntheticRecord(sandbox.fhir, '123', 3, 'later');
    const changed = (await fhirGet(sandbox, homer.access_token, `Observation?_lastUpdated=gt${checkpoint}`)).body as unknown as Bundle;
    expect((changed.entry ?? []).map((e) => e.resource?.id)).toEqual(later.filter((r) => r.resourceType === 'Observation').map((r) => r.id));
    const bad = await fhirGet(sandbox, homer.access_token, 'Observation?_lastUpdated=gtyesterday');
    expect(bad.status).toBe(400);
  });

  it('serves a DocumentReference\'s Binary as bytes, or as a resource when JSON is asked for', async () => {
    const binary = (await addSyntheticRecord(sandbox.fhir, '123', 9, 'binary')).find((r) => r.resourceType === 'Binary');
    expect(binary).toBeDefined();
    const homer = await connect(sandbox);
    const raw = await fetch(`${sandbox.fhirBaseUrl}/Binary/${binary?.id}`, { headers: { Authorization: `Bearer ${homer.access_token}`, Accept: '*/*' } });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain');
    expect(await raw.text()).toMatch(/^binary clinic note/);
    expect((await fhirGet(sandbox, homer.access_token, `Binary/${binary?.id}`)).body).toMatchObject({ resourceType: 'Binary', contentType: 'text/plain' });
    const bart = await connect(sandbox, { login_hint: 'bart' });
    expect((await fhirGet(sandbox, bart.access_token, `Binary/${binary?.id}`)).status).toBe(404);
    expect((await fhirGet(sandbox, homer.access_token, 'Binary')).status).toBe(403);
  });

  it('answers 429 with Retry-After and 5xx for the next requests when told to, then recovers', async () => {
    const homer = await connect(sandbox);
    sandbox.rateLimit(2, 3);
    for (let i = 0; i < 2; i += 1) {
      const limited = await fhirGet(sandbox, homer.access_token, 'Patient/123');
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('3');
    }
    sandbox.failNext(1, 500);
    sandbox.failNext(1, 503);
    expect((await fhirGet(sandbox, homer.access_token, 'Patient/123')).status).toBe(500);
    expect((await fhirGet(sandbox, homer.access_token, 'Patient/123')).status).toBe(503);
    expect((await fhirGet(sandbox, homer.access_token, 'Patient/123')).status).toBe(200);
    sandbox.failNext(1, 503, 'token');
    expect((await tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: homer.refresh_token as string, client_id: 'medfolio' })).status).toBe(503);
    expect((await tokenRequest(sandbox, { grant_type: 'refresh_token', refresh_token: homer.refresh_token as string, client_id: 'medfolio' })).status).toBe(200);
    expect(sandbox.fhirRequestsFor('Patient').slice(-5).map((r) => r.status)).toEqual([429, 429, 500, 503, 200]);
  });

  it('answers access_denied when the user refuses', async () => {
    sandbox.denyNextAuthorization();
    const denied = await authorize(sandbox);
    expect(denied.location?.searchParams.get('error')).toBe('access_denied');
    expect((await authorize(sandbox)).location?.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('authenticates confidential clients by secret or private_key_jwt, refusing a replayed assertion', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES384');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES384' };
    const keyed = await SmartSandbox.start({ clients: [{ client_id: 'keyed', redirect_uris: [REDIRECT], jwks: { keys: [jwk] } }, { client_id: 'confidential', redirect_uris: [REDIRECT], client_secret: 'a-test-secret' }], seedMockData: false });
    try {
      const assertion = await new SignJWT({ jti: randomUUID() }).setProtectedHeader({ alg: 'ES384', kid: 'k1' }).setIssuer('keyed').setSubject('keyed').setAudience(`${keyed.issuer}/token`).setIssuedAt().setExpirationTime('5m').sign(privateKey);
      const start = await authorize(keyed, { client_id: 'keyed', scope: 'launch/patient patient/*.rs' });
      const form = { grant_type: 'authorization_code', code: start.location?.searchParams.get('code') as string, redirect_uri: REDIRECT, code_verifier: start.verifier, client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion };
      expect((await tokenRequest(keyed, form)).status).toBe(200);
      const replay = await authorize(keyed, { client_id: 'keyed', scope: 'launch/patient patient/*.rs' });
      expect(await tokenRequest(keyed, { ...form, code: replay.location?.searchParams.get('code') as string, code_verifier: replay.verifier })).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
      const withoutKey = await authorize(keyed, { client_id: 'keyed', scope: 'launch/patient patient/*.rs' });
      expect(await tokenRequest(keyed, { grant_type: 'authorization_code', code: withoutKey.location?.searchParams.get('code') as string, redirect_uri: REDIRECT, code_verifier: withoutKey.verifier, client_id: 'keyed' })).toMatchObject({ status: 401 });

      const secret = await authorize(keyed, { client_id: 'confidential', scope: 'launch/patient patient/*.rs' });
      const basic = (password: string): Record<string, string> => ({ Authorization: `Basic ${Buffer.from(`confidential:${password}`).toString('base64')}` });
      const secretForm = { grant_type: 'authorization_code', code: secret.location?.searchParams.get('code') as string, redirect_uri: REDIRECT, code_verifier: secret.verifier };
      expect((await tokenRequest(keyed, secretForm, basic('wrong'))).status).toBe(401);
      expect((await tokenRequest(keyed, secretForm, basic('a-test-secret'))).status).toBe(200);
    } finally {
      await keyed.stop();
    }
  });

  it('describes itself as a one-endpoint User-access Brands directory', () => {
    const bundle = sandboxDirectory(sandbox, 'springfield', 'Springfield General') as { entry: { resource: Record<string, unknown> }[] };
    expect(bundle.entry.map((e) => e.resource['resourceType'])).toEqual(['Organization', 'Endpoint']);
    expect(bundle.entry[0]?.resource).toMatchObject({ name: 'Springfield General', endpoint: [{ reference: 'Endpoint/springfield' }] });
    expect(bundle.entry[1]?.resource).toMatchObject({ id: 'springfield', status: 'active', address: sandbox.fhirBaseUrl });
  });
});
