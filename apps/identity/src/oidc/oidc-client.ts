import { errors, importPKCS8, jwtVerify, SignJWT } from 'jose';
import type { OidcProviderRepository } from '../repositories/oidc-provider.repository';
import { OidcSignInError, type OidcRejectionReason } from './oidc-errors';
import { isAllowedUrl, type OidcProviderSettings, type OidcResponseMode } from './oidc-settings';

/** What a verified ID token says about its user; built only from a verified token with a verified e-mail. */
export interface OidcIdentity {
  /** The configured provider's name. */
  provider: string;
  /** The ID token's `iss`: for a multi-tenant provider, its tenant's issuer. With `subject`, the account at the provider. */
  issuer: string;
  /** The ID token's `sub`: stable at the provider, unlike the e-mail address. */
  subject: string;
  email: string;
  givenName: string;
  familyName: string;
}

/** What the browser needs to start the flow: public values only. */
export interface OidcProviderStart {
  name: string;
  label: string;
  authorizationUrl: string;
  clientId: string;
  scope: string;
  responseMode: OidcResponseMode;
}

interface Discovery {
  /** The issuer the document names; for a multi-tenant provider a template holding {@link TENANT_PLACEHOLDER}. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUri: string;
}

/** Asymmetric algorithms only: `none` and HS* (signed with something the client knows) are refused. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const CLOCK_TOLERANCE_SECONDS = 30;
/** What Microsoft's `common` and `organizations` discovery documents put in their issuer in place of the tenant id. */
export const TENANT_PLACEHOLDER = '{tenantid}';
/** A Microsoft Entra tenant id (`tid`): a GUID. */
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long a discovery document is kept before it is read again. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;

export interface OidcClientOptions {
  /** The clock used for exp/iat/nbf; tests move it. */
  now?: () => Date;
}

/**
 * One configured OpenID Connect provider: discovery, the authorization code exchange (with the
 * browser's PKCE verifier and our client secret) and the ID token check (signature against the
 * provider's JWKS, issuer, audience, nonce, expiry, a verified e-mail). The requests themselves
 * are {@link OidcProviderRepository}'s.
 */
export class OidcClient {
  private discovery: { value: Discovery; at: number } | undefined;

  constructor(
    readonly settings: OidcProviderSettings,
    private readonly provider: OidcProviderRepository,
    private readonly options: OidcClientOptions = {},
  ) {}

  async start(): Promise<OidcProviderStart> {
    const discovery = await this.discover();
    return { name: this.settings.name, label: this.settings.label, authorizationUrl: discovery.authorizationEndpoint, clientId: this.settings.clientId, scope: this.settings.scope, responseMode: this.settings.responseMode };
  }

  /** Exchanges the code and verifies the ID token it brings. */
  async signIn(input: { code: string; codeVerifier: string; nonce: string; redirectUri: string }): Promise<OidcIdentity> {
    const idToken = await this.exchange(input.code, input.codeVerifier, input.redirectUri);
    return this.verifyIdToken(idToken, input.nonce);
  }

  async exchange(code: string, codeVerifier: string, redirectUri: string): Promise<string> {
    const discovery = await this.discover();
    const form = new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: codeVerifier, redirect_uri: redirectUri, client_id: this.settings.clientId });
    if (this.settings.clientSecret !== undefined) form.set('client_secret', this.settings.clientSecret);
    if (this.settings.appleClientSecret !== undefined) form.set('client_secret', await appleClientSecret(this.settings.appleClientSecret, this.settings.clientId, discovery.issuer));
    const { status, body } = await this.provider.tokenRequest(discovery.tokenEndpoint, form);
    if (status >= 400 || body === undefined) throw new OidcSignInError('exchange-refused');
    const idToken = body['id_token'];
    if (typeof idToken !== 'string' || idToken.length === 0) throw new OidcSignInError('no-id-token');
    return idToken;
  }

  async verifyIdToken(idToken: string, nonce: string): Promise<OidcIdentity> {
    const discovery = await this.discover();
    const templated = this.settings.multiTenant && discovery.issuer.includes(TENANT_PLACEHOLDER);
    let claims: Record<string, unknown>;
    try {
      ({ payload: claims } = await jwtVerify(idToken, this.provider.keySet(discovery.jwksUri), {
        algorithms: ALGORITHMS,
        // A templated issuer is checked below, against the token's own tenant.
        ...(templated ? {} : { issuer: discovery.issuer }),
        audience: this.settings.clientId,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'iss', 'sub', 'nonce', ...(templated ? ['tid'] : [])],
        ...(this.options.now ? { currentDate: this.options.now() } : {}),
      }));
    } catch (error) {
      throw new OidcSignInError(rejectionReason(error));
    }
    if (templated && claims['iss'] !== tenantIssuer(discovery.issuer, claims['tid'])) throw new OidcSignInError('wrong-issuer');
    if (claims['nonce'] !== nonce) throw new OidcSignInError('wrong-nonce');
    return identityFromClaims(this.settings.name, claims, this.settings.verifiedEmailClaim);
  }

  private async discover(): Promise<Discovery> {
    const now = Date.now();
    if (this.discovery && now - this.discovery.at < DISCOVERY_TTL_MS) return this.discovery.value;
    const body = await this.provider.discoveryDocument(this.settings.issuer);
    const url = (key: string): string => {
      const value = body[key];
      if (typeof value !== 'string' || !isAllowedUrl(value)) throw new OidcSignInError('provider-unreachable');
      return value;
    };
    // The document must be about the configured issuer (OpenID Connect Discovery 1.0, 4.3), or, for a
    // provider configured as multi-tenant, name it as a template (Microsoft's `common`).
    const named = body['issuer'];
    const same = named === this.settings.issuer || named === `${this.settings.issuer}/`;
    if (!same && !(this.settings.multiTenant && typeof named === 'string' && isIssuerTemplateFor(named, this.settings.issuer))) throw new OidcSignInError('provider-unreachable');
    const value = { issuer: body['issuer'] as string, authorizationEndpoint: url('authorization_endpoint'), tokenEndpoint: url('token_endpoint'), jwksUri: url('jwks_uri') };
    this.discovery = { value, at: now };
    return value;
  }
}

/**
 * Whether `template` (Microsoft's `https://login.microsoftonline.com/{tenantid}/v2.0`) is the
 * configured `issuer` (`https://login.microsoftonline.com/common/v2.0`) with one path segment, the
 * tenant, replaced by {@link TENANT_PLACEHOLDER}: same origin, same path around it.
 */
export function isIssuerTemplateFor(template: string, issuer: string): boolean {
  const parts = template.replace(/\/+$/, '').split(TENANT_PLACEHOLDER);
  if (parts.length !== 2) return false;
  const [before, after] = parts as [string, string];
  if (!before.endsWith('/') || (after !== '' && !after.startsWith('/'))) return false;
  if (!issuer.startsWith(before) || !issuer.endsWith(after)) return false;
  const tenant = issuer.slice(before.length, issuer.length - after.length);
  return /^[A-Za-z0-9.-]+$/.test(tenant) && isAllowedUrl(`${before}tenant${after}`);
}

/** The issuer a templated provider's tenant signs as; undefined for a `tid` that is not a tenant id. */
export function tenantIssuer(template: string, tid: unknown): string | undefined {
  if (typeof tid !== 'string' || !TENANT_ID.test(tid)) return undefined;
  return template.replace(TENANT_PLACEHOLDER, tid);
}

/**
 * Apple's client secret: an ES256 JWT from the team (iss) for our client id (sub), to Apple (aud),
 * valid 5 minutes (Apple accepts up to 6 months; short keeps a leaked one useless).
 */
export async function appleClientSecret(apple: { teamId: string; keyId: string; privateKey: string }, clientId: string, audience: string): Promise<string> {
  let key: Awaited<ReturnType<typeof importPKCS8>>;
  try {
    key = await importPKCS8(apple.privateKey, 'ES256');
  } catch {
    throw new OidcSignInError('provider-unreachable');
  }
  return new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: apple.keyId }).setIssuer(apple.teamId).setSubject(clientId).setAudience(audience).setIssuedAt().setExpirationTime('5m').sign(key);
}

/**
 * A new provider account is linked to an account by e-mail, so only an address the provider says it verified is used. Apple
 * sends `email_verified` as the string "true"; others as a boolean. A provider without that claim
 * names another one (`verifiedEmailClaim`, e.g. Microsoft's `xms_edov`).
 */
export function identityFromClaims(provider: string, claims: Readonly<Record<string, unknown>>, verifiedEmailClaim = 'email_verified'): OidcIdentity {
  const issuer = claims['iss'];
  const subject = claims['sub'];
  const email = claims['email'];
  if (typeof issuer !== 'string' || issuer === '' || typeof subject !== 'string' || subject === '' || typeof email !== 'string' || email === '') throw new OidcSignInError('invalid-claims');
  const verified = claims[verifiedEmailClaim];
  if (verified !== true && verified !== 'true') throw new OidcSignInError('email-not-verified');
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { provider, issuer, subject, email: email.toLowerCase(), givenName: text(claims['given_name']), familyName: text(claims['family_name']) };
}

function rejectionReason(error: unknown): OidcRejectionReason {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'wrong-issuer';
    if (error.claim === 'aud') return 'wrong-audience';
    return 'invalid-claims';
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return 'provider-unreachable';
  if (error instanceof errors.JOSEError && error.code !== errors.JOSEError.code) return 'invalid-token';
  return 'provider-unreachable';
}
