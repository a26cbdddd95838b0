import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { DomainError } from '@medfolio/contracts';
import { LocalOidcProvider, pkcePair } from '@medfolio/testing';
import { OidcClient, type OidcProviderSettings, type OidcSignInError } from '../oidc';
import { OidcProviderRepository } from '../repositories/oidc-provider.repository';
import { caller, IdentityHarness } from '../testing/identity-harness';
import { AccountService } from './account.service';
import { OidcSignInService } from './oidc-sign-in.service';
import { ProfileService } from './profile.service';
import { SessionService } from './session.service';

const h = new IdentityHarness();
const REDIRECT = 'http://127.0.0.1:4200/auth/oidc/apple/callback';
const CLIENT = { client_id: 'medfolio-web', client_secret: 'local-test-secret-not-real', redirect_uris: [REDIRECT] };
// A provider that answers by form POST (as Apple does when the e-mail or name is asked for), to the gateway's callback route.
const FORM_REDIRECT = 'http://127.0.0.1:4200/api/login-with-oidc/apple-post/callback/';
const FORM_CLIENT = { client_id: 'medfolio-web-form-post', client_secret: 'local-test-secret-not-real-2', redirect_uris: [FORM_REDIRECT, 'http://127.0.0.1:4200/auth/oidc/apple-post/callback'] };
const suffix = randomUUID().slice(0, 8);
const ACCOUNTS = {
  ada: { email: `ada-${suffix}@example.com`, email_verified: 'true', given_name: 'Ada', family_name: 'Byron' },
  unverified: { email: `unverified-${suffix}@example.com`, email_verified: false },
  linked: { email: `linked-${suffix}@example.com`, email_verified: true },
  // One account at the provider (one sub) before and after its address changed, once to another user's.
  mover: { email: `mover-${suffix}@example.com`, email_verified: true },
  'mover-renamed': { as: 'mover', email: `mover-new-${suffix}@example.com`, email_verified: true },
  'mover-hijack': { as: 'mover', email: `victim-${suffix}@example.com`, email_verified: true },
  // Another account at the provider with the address of an account already linked to one.
  'ada-twin': { email: `ada-${suffix}@example.com`, email_verified: true },
  poster: { email: `poster-${suffix}@example.com`, email_verified: 'true', given_name: 'Grace', family_name: 'Hopper' },
};
let idp: LocalOidcProvider;
let oidc: OidcSignInService;
let settings: OidcProviderSettings;

beforeAll(async () => {
  idp = await LocalOidcProvider.start({ clients: [CLIENT, FORM_CLIENT], accounts: ACCOUNTS });
  settings = { name: 'apple', label: 'Apple', issuer: idp.issuer, clientId: CLIENT.client_id, clientSecret: CLIENT.client_secret, scope: 'openid email profile', verifiedEmailClaim: 'email_verified', multiTenant: false, responseMode: 'query' };
  await h.start({
    OIDC_PROVIDERS: JSON.stringify([
      { name: 'apple', label: 'Apple', issuer: idp.issuer, client_id: CLIENT.client_id, client_secret: CLIENT.client_secret },
      { name: 'apple-post', label: 'Apple (form post)', issuer: idp.issuer, client_id: FORM_CLIENT.client_id, client_secret: FORM_CLIENT.client_secret, response_mode: 'form_post' },
    ]),
  });
  oidc = h.get(OidcSignInService);
}, 60_000);

afterAll(async () => {
  await h.stop();
  await idp.stop();
});

/** The browser's part: PKCE and nonce, the authorization request, the code from the redirect back. */
async function authorize(loginHint: string): Promise<{ code: string; code_verifier: string; nonce: string }> {
  const pkce = pkcePair();
  const nonce = randomBytes(16).toString('base64url');
  const back = await idp.authorize({ clientId: CLIENT.client_id, redirectUri: REDIRECT, loginHint, nonce, codeChallenge: pkce.challenge });
  const code = back.searchParams.get('code');
  if (!code) throw new Error(`no code in the redirect: ${back.searchParams.get('error') ?? ''}`);
  return { code, code_verifier: pkce.verifier, nonce };
}

const refusal = (p: Promise<unknown>) => p.then(() => 'accepted', (e: OidcSignInError | DomainError) => `${e.code}${'reason' in e ? `:${e.reason}` : ''}`);

describe('sign-in with an OpenID Connect provider (a real local oidc-provider)', () => {
  it('lists the provider with its authorization endpoint from discovery, and nothing secret', async () => {
    const reply = await oidc.list();
    expect(reply).toEqual({
      providers: [
        { name: 'apple', label: 'Apple', authorization_url: `${idp.issuer}/auth`, client_id: 'medfolio-web', scope: 'openid email profile', response_mode: 'query' },
        { name: 'apple-post', label: 'Apple (form post)', authorization_url: `${idp.issuer}/auth`, client_id: FORM_CLIENT.client_id, scope: 'openid email profile', response_mode: 'form_post' },
      ],
    });
    expect(JSON.stringify(reply)).not.toContain(CLIENT.client_secret);
    expect(JSON.stringify(reply)).not.toContain(FORM_CLIENT.client_secret);
  });

  it('creates a verified account through the full code flow (Apple-style "true" string) and signs in to it again', async () => {
    const first = await oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('ada')) });
    const userId = decodeJwt(first.access).sub!;
    const profile = await h.get(ProfileService).get(caller('203.0.113.9', { userId }));
    expect(profile).toMatchObject({ email: ACCOUNTS.ada.email, first_name: 'Ada', last_name: 'Byron', email_verified: true });
    const again = await oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('ada')) });
    expect(decodeJwt(again.access).sub).toBe(userId);
  });

  it('links an existing password account with the same verified e-mail', async () => {
    await h.get(AccountService).register(caller(), { first_name: 'Lee', phone: '+1 202 555 0143', email: ACCOUNTS.linked.email, password: 'correct horse battery', date_of_birth: '1980-01-01' });
    const [row] = await h.sql<{ id: string }>(`SELECT id FROM identity.users WHERE email = $1`, [ACCOUNTS.linked.email]);
    const tokens = await oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('linked')) });
    expect(decodeJwt(tokens.access).sub).toBe(row!.id);
    // Nobody had verified that address: the password its unproven owner set no longer signs in.
    await expect(h.get(SessionService).login(caller(), { email: ACCOUNTS.linked.email, password: 'correct horse battery' })).rejects.toThrow();
  });

  it("stores the provider's issuer and subject with the account, and signs in by them when the provider's address changes", async () => {
    const first = await oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('mover')) });
    const userId = decodeJwt(first.access).sub!;
    expect(await h.sql(`SELECT issuer, subject, provider FROM identity.provider_accounts WHERE user_id = $1`, [userId])).toEqual([{ issuer: idp.issuer, subject: 'mover', provider: 'apple' }]);

    // A new address at the provider: the same account, not a new one.
    const renamed = await oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('mover-renamed')) });
    expect(decodeJwt(renamed.access).sub).toBe(userId);
    const [count] = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM identity.users WHERE email = $1`, [ACCOUNTS['mover-renamed'].email]);
    expect(count!.n).toBe(0);

    // The address of another, verified, user: still the same account; the other user's is not entered.
    await h.get(AccountService).register(caller(), { first_name: 'Vic', phone: '+1 202 555 0199', email: ACCOUNTS['mover-hijack'].email, password: 'correct horse battery', date_of_birth: '1980-01-01' });
    const [victim] = await h.sql<{ id: string }>(`UPDATE identity.users SET email_verified = true WHERE email = $1 RETURNING id`, [ACCOUNTS['mover-hijack'].email]);
    const moved = await oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('mover-hijack')) });
    expect(decodeJwt(moved.access).sub).toBe(userId);
    expect(decodeJwt(moved.access).sub).not.toBe(victim!.id);
    expect(await h.sql(`SELECT 1 FROM identity.provider_accounts WHERE user_id = $1`, [victim!.id])).toHaveLength(0);
  });

  it("links by e-mail only a provider the account has no account of yet: another account of the same provider with that address is refused", async () => {
    const ada = await oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('ada')) });
    const adaId = decodeJwt(ada.access).sub!;
    await expect(refusal(oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('ada-twin')) }))).resolves.toBe('CONFLICT');
    expect(await h.sql(`SELECT subject FROM identity.provider_accounts WHERE user_id = $1`, [adaId])).toEqual([{ subject: 'ada' }]);
  });

  it('refuses an unverified e-mail, a wrong nonce, a replayed code, a wrong PKCE verifier, an unknown provider and another redirect', async () => {
    await expect(refusal(oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...(await authorize('unverified')) }))).resolves.toBe('UNAUTHENTICATED:email-not-verified');
    const [row] = await h.sql<{ n: number }>(`SELECT count(*)::int AS n FROM identity.users WHERE email = $1`, [ACCOUNTS.unverified.email]);
    expect(row!.n).toBe(0);

    const flow = await authorize('ada');
    await expect(refusal(oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...flow, nonce: randomBytes(16).toString('base64url') }))).resolves.toBe('UNAUTHENTICATED:wrong-nonce');
    // The code was used by that attempt: the provider refuses it a second time.
    await expect(refusal(oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...flow }))).resolves.toBe('UNAUTHENTICATED:exchange-refused');

    const stolen = await authorize('ada');
    await expect(refusal(oidc.signIn(caller(), { provider: 'apple', redirect_uri: REDIRECT, ...stolen, code_verifier: pkcePair().verifier }))).resolves.toBe('UNAUTHENTICATED:exchange-refused');
    await expect(refusal(oidc.signIn(caller(), { provider: 'microsoft', redirect_uri: REDIRECT, ...(await authorize('ada')) }))).resolves.toBe('NOT_FOUND:unknown-provider');
    await expect(refusal(oidc.signIn(caller(), { provider: 'apple', redirect_uri: 'https://evil.example/auth/oidc/apple/callback?x=1', ...(await authorize('ada')) }))).resolves.toBe('UNAUTHENTICATED:bad-redirect');
  });

  it("refuses the provider's real ID token for another audience and once it has expired", async () => {
    const flow = await authorize('ada');
    const ours = new OidcClient(settings, new OidcProviderRepository(5000));
    const idToken = await ours.exchange(flow.code, flow.code_verifier, REDIRECT);
    await expect(ours.verifyIdToken(idToken, flow.nonce)).resolves.toMatchObject({ provider: 'apple', email: ACCOUNTS.ada.email });

    const otherApp = new OidcClient({ ...settings, clientId: 'someone-elses-app' }, new OidcProviderRepository(5000));
    await expect(refusal(otherApp.verifyIdToken(idToken, flow.nonce))).resolves.toBe('UNAUTHENTICATED:wrong-audience');
    const later = new OidcClient(settings, new OidcProviderRepository(5000), { now: () => new Date(Date.now() + 2 * 3600_000) });
    await expect(refusal(later.verifyIdToken(idToken, flow.nonce))).resolves.toBe('UNAUTHENTICATED:expired');
    const [header, payload] = idToken.split('.');
    await expect(refusal(ours.verifyIdToken(`${header}.${payload}.${'A'.repeat(342)}`, flow.nonce))).resolves.toBe('UNAUTHENTICATED:invalid-token');
  });

  describe('a provider that answers by form POST (response_mode=form_post)', () => {
    /** The browser's part with response_mode=form_post: the fields of the form the provider posts back. */
    async function authorizeByForm(loginHint: string, redirectUri = FORM_REDIRECT): Promise<{ fields: URLSearchParams; action: string; code_verifier: string; nonce: string; state: string }> {
      const pkce = pkcePair();
      const nonce = randomBytes(16).toString('base64url');
      const state = randomBytes(16).toString('base64url');
      const { action, fields } = await idp.authorizeFormPost({ clientId: FORM_CLIENT.client_id, redirectUri, loginHint, nonce, state, codeChallenge: pkce.challenge });
      return { fields, action, code_verifier: pkce.verifier, nonce, state };
    }

    it("posts the code and state to the gateway's callback route, and the code exchange with that same redirect_uri creates the account", async () => {
      const flow = await authorizeByForm('poster');
      expect(flow.action).toBe(FORM_REDIRECT);
      expect(flow.fields.get('state')).toBe(flow.state);
      const code = flow.fields.get('code');
      expect(code).toBeTruthy();
      const tokens = await oidc.signIn(caller(), { provider: 'apple-post', code: code!, code_verifier: flow.code_verifier, nonce: flow.nonce, redirect_uri: FORM_REDIRECT });
      const userId = decodeJwt(tokens.access).sub!;
      expect(await h.get(ProfileService).get(caller('203.0.113.9', { userId }))).toMatchObject({ email: ACCOUNTS.poster.email, first_name: 'Grace', last_name: 'Hopper', email_verified: true });
      expect(await h.sql(`SELECT provider, subject FROM identity.provider_accounts WHERE user_id = $1`, [userId])).toEqual([{ provider: 'apple-post', subject: 'poster' }]);
    });

    it('refuses a code exchanged with another redirect_uri than the authorization request used, and the gateway route for a query provider', async () => {
      // Identity allows the web page's address for this provider too, but the provider compares it with the request's.
      const flow = await authorizeByForm('poster');
      await expect(
        refusal(oidc.signIn(caller(), { provider: 'apple-post', code: flow.fields.get('code')!, code_verifier: flow.code_verifier, nonce: flow.nonce, redirect_uri: 'http://127.0.0.1:4200/auth/oidc/apple-post/callback' })),
      ).resolves.toBe('UNAUTHENTICATED:exchange-refused');
      await expect(refusal(oidc.signIn(caller(), { provider: 'apple', redirect_uri: 'http://127.0.0.1:4200/api/login-with-oidc/apple/callback/', ...(await authorize('ada')) }))).resolves.toBe('UNAUTHENTICATED:bad-redirect');
      await expect(refusal(oidc.signIn(caller(), { provider: 'apple-post', code: 'x', code_verifier: pkcePair().verifier, nonce: flow.nonce, redirect_uri: 'http://127.0.0.1:4200/api/login-with-oidc/apple/callback/' }))).resolves.toBe('UNAUTHENTICATED:bad-redirect');
    });
  });
});
