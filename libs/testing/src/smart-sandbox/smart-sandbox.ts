import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Resource } from '@medplum/fhirtypes';
import { createLocalJWKSet, createRemoteJWKSet, exportJWK, generateKeyPair, type JSONWebKeySet, jwtVerify, SignJWT } from 'jose';
import { type FhirAnswer, operationOutcome, SandboxFhirStore } from './fhir-store';
import { grantScopes, scopesAllow, type SmartScopeVersions } from './scopes';

/** A client registered at the sandbox: public (PKCE only), confidential with a secret, or with `private_key_jwt`. */
export interface SandboxClient {
  client_id: string;
  redirect_uris: string[];
  /** client_secret_basic / client_secret_post. */
  client_secret?: string;
  /** private_key_jwt: the client's public keys, inline or at a URL. */
  jwks?: JSONWebKeySet;
  jwks_uri?: string;
}

/** A patient who signs in at the sandbox (auto-approved): who they are and which Patient they see. */
export interface SandboxUser {
  username: string;
  patientId: string;
}

export interface SmartSandboxOptions {
  clients: SandboxClient[];
  /** Default: one user, "homer", who sees @medplum/mock's Homer Simpson (Patient/123). */
  users?: SandboxUser[];
  /** The scope grammar spoken (default both: SMART 2.x). */
  scopeVersions?: SmartScopeVersions;
  /** Access token life in seconds (default 3600). */
  accessTokenSeconds?: number;
  /** Refresh token life in seconds (default 90 days). */
  refreshTokenSeconds?: number;
  /** Whether a refresh answers a new refresh token and retires the old one (default true). */
  rotateRefreshTokens?: boolean;
  /** Seed @medplum/mock's sample data (default true). */
  seedMockData?: boolean;
  port?: number;
}

/** One request the sandbox answered (no bodies, no tokens): to count requests per resource type in tests. */
export interface SandboxRequest {
  method: string;
  path: string;
  query: string;
  status: number;
}

type Where = 'fhir' | 'token' | 'all';
interface Fault {
  where: Where;
  status: 429 | 500 | 502 | 503;
  retryAfter?: number;
  remaining: number;
}

interface Grant {
  id: string;
  clientId: string;
  user: SandboxUser;
  scopes: string[];
  refreshExpiresAt: number;
  revoked: boolean;
}

interface PendingCode {
  grant: Grant;
  redirectUri: string;
  challenge: string;
  nonce?: string;
  expiresAt: number;
  used: boolean;
}

interface AccessToken {
  grant: Grant;
  scopes: string[];
  expiresAt: number;
  revoked: boolean;
}

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const CODE_SECONDS = 60;
const MAX_FORM_BYTES = 64 * 1024;

/**
 * A local SMART on FHIR server made of real parts, for tests: a FHIR R4 base (`${fhirBaseUrl}`,
 * Medplum's FhirRouter and in-memory repository with @medplum/mock's data; see SandboxFhirStore)
 * behind an authorization server written to SMART App Launch 2.2: discovery at
 * `${fhirBaseUrl}/.well-known/smart-configuration` (and the oauth-uris in `/metadata`),
 * standalone launch with `launch/patient`, authorization code with PKCE S256 only (plain refused),
 * `aud` checked against the FHIR base, refresh tokens (rotated), `patient` and an ES256 `id_token`
 * (with `fhirUser`) in the token response, RFC 7009 revocation, expired and revoked grants answering
 * `invalid_grant`, and v1/v2 scopes checked on every FHIR request (403 otherwise). Sign-in is
 * auto-approved for the user named by `login_hint` (or the first user); `denyNextAuthorization()`
 * makes the next one answer `access_denied`. Faults for tests: `rateLimit()`, `failNext()`,
 * `expireAccessTokens()`, `expireGrants()`, `revokeAll()`. Every answer is recorded in `requests`.
 */
export class SmartSandbox {
  readonly requests: SandboxRequest[] = [];
  private readonly codes = new Map<string, PendingCode>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Map<string, Grant>();
  private readonly grants: Grant[] = [];
  private readonly usedAssertions = new Set<string>();
  private faults: Fault[] = [];
  private denyNext = false;
  private foreignNext: { resourceType: string; origin: string } | undefined;
  private url = '';

  private constructor(
    private readonly server: Server,
    readonly fhir: SandboxFhirStore,
    private readonly options: Required<Omit<SmartSandboxOptions, 'port' | 'seedMockData'>>,
    private readonly signingKey: SigningKey,
    private readonly publicJwk: Record<string, unknown>,
  ) {}

  static async start(options: SmartSandboxOptions): Promise<SmartSandbox> {
    const fhir = await SandboxFhirStore.create({ seedMockData: options.seedMockData });
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const publicJwk = { ...(await exportJWK(publicKey)), kid: 'sandbox-1', alg: 'ES256', use: 'sig' };
    const holder: { sandbox?: SmartSandbox } = {};
    const server = createServer((req, res) => {
      void holder.sandbox?.handle(req, res);
    });
    const settings = {
      clients: options.clients,
      users: options.users ?? [{ username: 'homer', patientId: '123' }],
      scopeVersions: options.scopeVersions ?? 'both',
      accessTokenSeconds: options.accessTokenSeconds ?? 3600,
      refreshTokenSeconds: options.refreshTokenSeconds ?? 90 * 24 * 3600,
      rotateRefreshTokens: options.rotateRefreshTokens ?? true,
    };
    const sandbox = new SmartSandbox(server, fhir, settings, privateKey, publicJwk);
    holder.sandbox = sandbox;
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
    sandbox.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return sandbox;
  }

  /** The FHIR base URL (also the `aud` a client must send, and where discovery starts). */
  get fhirBaseUrl(): string {
    return `${this.url}/fhir`;
  }

  get issuer(): string {
    return `${this.url}/auth`;
  }

  /** The next `count` requests (FHIR, token or both) answer 429 with `Retry-After: seconds`. */
  rateLimit(count: number, retryAfterSeconds = 1, where: Where = 'fhir'): void {
    this.faults.push({ where, status: 429, retryAfter: retryAfterSeconds, remaining: count });
  }

  /** The next `count` requests (FHIR, token or both) answer `status` (500, 502 or 503). */
  failNext(count: number, status: 500 | 502 | 503 = 503, where: Where = 'fhir'): void {
    this.faults.push({ where, status, remaining: count });
  }

  /** Every access token handed out so far expires now (FHIR requests with them answer 401). */
  expireAccessTokens(): void {
    for (const token of this.accessTokens.values()) token.expiresAt = 0;
  }

  /** Every grant's refresh token expires now (a refresh answers `invalid_grant`): "sign in again". */
  expireGrants(): void {
    for (const grant of this.grants) grant.refreshExpiresAt = 0;
    this.expireAccessTokens();
  }

  /** Every grant is revoked, as a patient does in the EHR's portal. */
  revokeAll(): void {
    for (const grant of this.grants) grant.revoked = true;
  }

  /**
   * The next search of `resourceType` that has a next page names that page on `origin` instead of
   * this server (a server pointing its client at another host: a client must not follow it).
   */
  foreignNextLink(resourceType: string, origin: string): void {
    this.foreignNext = { resourceType, origin };
  }

  /** The next authorization request is refused by the user (`error=access_denied`). */
  denyNextAuthorization(): void {
    this.denyNext = true;
  }

  /** Grants not revoked (to check that a disconnect revoked its grant). */
  activeGrants(): number {
    return this.grants.filter((g) => !g.revoked).length;
  }

  /** FHIR requests answered for a resource type (searches and reads), e.g. to count an incremental sync's cost. */
  fhirRequestsFor(resourceType: string): SandboxRequest[] {
    return this.requests.filter((r) => r.path === `/fhir/${resourceType}` || r.path.startsWith(`/fhir/${resourceType}/`));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    res.on('finish', () => this.requests.push({ method: req.method ?? '', path: url.pathname, query: url.search, status: res.statusCode }));
    try {
      await this.route(req, res, url);
    } catch {
      if (!res.headersSent) json(res, 500, operationOutcome('exception', 'The sandbox failed on this request'));
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const path = url.pathname;
    if (path === '/fhir/.well-known/smart-configuration' && req.method === 'GET') return json(res, 200, this.smartConfiguration());
    if (path === '/auth/jwks' && req.method === 'GET') return json(res, 200, { keys: [this.publicJwk] });
    if (path === '/auth/authorize' && req.method === 'GET') return this.authorize(res, url.searchParams);
    if (path === '/auth/token') {
      if (this.fault('token', res)) return;
      if (req.method !== 'POST') return json(res, 405, { error: 'invalid_request', error_description: 'Use POST' });
      return this.token(req, res);
    }
    if (path === '/auth/revoke' && req.method === 'POST') return this.revoke(req, res);
    if (path === '/fhir/metadata' && req.method === 'GET') return json(res, 200, this.capabilityStatement());
    if (path.startsWith('/fhir/')) {
      if (this.fault('fhir', res)) return;
      return this.fhirRequest(req, res, url);
    }
    json(res, 404, operationOutcome('not-found', 'No such endpoint'));
  }

  private fault(where: 'fhir' | 'token', res: ServerResponse): boolean {
    const fault = this.faults.find((f) => f.remaining > 0 && (f.where === where || f.where === 'all'));
    if (!fault) return false;
    fault.remaining -= 1;
    this.faults = this.faults.filter((f) => f.remaining > 0);
    if (fault.retryAfter !== undefined) res.setHeader('Retry-After', String(fault.retryAfter));
    json(res, fault.status, operationOutcome(fault.status === 429 ? 'throttled' : 'transient', fault.status === 429 ? 'Too many requests' : 'The server is unavailable'));
    return true;
  }

  private smartConfiguration(): Record<string, unknown> {
    const versions = this.options.scopeVersions;
    const permissions = versions === 'both' ? ['permission-v1', 'permission-v2'] : [`permission-${versions}`];
    const resourceScopes = versions === 'v1' ? ['patient/*.read'] : versions === 'v2' ? ['patient/*.rs'] : ['patient/*.rs', 'patient/*.read'];
    return {
      issuer: this.issuer,
      jwks_uri: `${this.issuer}/jwks`,
      authorization_endpoint: `${this.issuer}/authorize`,
      token_endpoint: `${this.issuer}/token`,
      revocation_endpoint: `${this.issuer}/revoke`,
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['ES256', 'ES384', 'RS384'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      scopes_supported: ['openid', 'fhirUser', 'launch/patient', 'offline_access', 'online_access', ...resourceScopes],
      code_challenge_methods_supported: ['S256'],
      capabilities: ['launch-standalone', 'client-public', 'client-confidential-symmetric', 'client-confidential-asymmetric', 'context-standalone-patient', 'sso-openid-connect', 'permission-offline', 'permission-online', 'permission-patient', ...permissions],
    };
  }

  private capabilityStatement(): Resource {
    const oauth = { url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris', extension: [{ url: 'authorize', valueUri: `${this.issuer}/authorize` }, { url: 'token', valueUri: `${this.issuer}/token` }, { url: 'revoke', valueUri: `${this.issuer}/revoke` }] };
    return {
      resourceType: 'CapabilityStatement',
      status: 'active',
      date: '2026-01-01',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['json'],
      rest: [{ mode: 'server', security: { extension: [oauth], service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] }] } }],
    };
  }

  /** The authorization endpoint: checks the request, "signs in" and approves, and redirects back with a code. */
  private authorize(res: ServerResponse, params: URLSearchParams): void {
    const client = this.options.clients.find((c) => c.client_id === params.get('client_id'));
    const redirectUri = params.get('redirect_uri') ?? '';
    // An unknown client or redirect URI is shown to the user, never redirected to (RFC 6749 4.1.2.1).
    if (!client) return text(res, 400, 'Unknown client_id');
    if (!client.redirect_uris.includes(redirectUri)) return text(res, 400, 'redirect_uri is not registered for this client');
    const state = params.get('state');
    const back = (query: Record<string, string>): void => {
      const target = new URL(redirectUri);
      for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
      if (state !== null) target.searchParams.set('state', state);
      res.writeHead(302, { Location: target.toString(), 'Cache-Control': 'no-store' }).end();
    };
    const refuse = (error: string, description: string): void => back({ error, error_description: description });
    if (params.get('response_type') !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
    if (!state) return refuse('invalid_request', 'state is required');
    const challenge = params.get('code_challenge');
    if (params.get('code_challenge_method') !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)');
    if (!challenge || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return refuse('invalid_request', 'code_challenge must be a base64url SHA-256');
    if (params.get('aud') !== this.fhirBaseUrl) return refuse('invalid_request', 'aud must be this server\'s FHIR base URL');
    const scopes = grantScopes(params.get('scope') ?? '', this.options.scopeVersions);
    if (!scopes.some((s) => s.startsWith('patient/'))) return refuse('invalid_scope', 'No patient-level read scope that this server grants was requested');
    if (this.denyNext) {
      this.denyNext = false;
      return refuse('access_denied', 'The user refused');
    }
    const hint = params.get('login_hint');
    const user = this.options.users.find((u) => u.username === hint) ?? (this.options.users[0] as SandboxUser);
    const grant: Grant = { id: randomToken(), clientId: client.client_id, user, scopes, refreshExpiresAt: Date.now() + this.options.refreshTokenSeconds * 1000, revoked: false };
    this.grants.push(grant);
    const code = randomToken();
    const nonce = params.get('nonce') ?? undefined;
    this.codes.set(code, { grant, redirectUri, challenge, nonce, expiresAt: Date.now() + CODE_SECONDS * 1000, used: false });
    back({ code });
  }

  private async token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    if (!form) return oauthError(res, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded, at most 64 KB');
    const client = await this.authenticateClient(req, form);
    if (typeof client === 'string') return oauthError(res, 401, 'invalid_client', client);
    const grantType = form.get('grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(res, form, client);
    if (grantType === 'refresh_token') return this.refresh(res, form, client);
    oauthError(res, 400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }

  private async exchangeCode(res: ServerResponse, form: URLSearchParams, client: SandboxClient): Promise<void> {
    const pending = this.codes.get(form.get('code') ?? '');
    if (!pending || pending.grant.clientId !== client.client_id) return oauthError(res, 400, 'invalid_grant', 'The code is unknown');
    if (pending.used) {
      // A code used twice: the grant it made is revoked (RFC 6749 4.1.2).
      pending.grant.revoked = true;
      return oauthError(res, 400, 'invalid_grant', 'The code was already used');
    }
    pending.used = true;
    if (pending.expiresAt < Date.now()) return oauthError(res, 400, 'invalid_grant', 'The code has expired');
    if (form.get('redirect_uri') !== pending.redirectUri) return oauthError(res, 400, 'invalid_grant', 'redirect_uri differs from the authorization request\'s');
    const verifier = form.get('code_verifier') ?? '';
    if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) return oauthError(res, 400, 'invalid_grant', 'code_verifier does not match the code_challenge');
    json(res, 200, await this.tokenResponse(pending.grant, pending.grant.scopes, true, pending.nonce), { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  }

  private async refresh(res: ServerResponse, form: URLSearchParams, client: SandboxClient): Promise<void> {
    const presented = form.get('refresh_token') ?? '';
    const grant = this.refreshTokens.get(presented);
    if (!grant || grant.clientId !== client.client_id) return oauthError(res, 400, 'invalid_grant', 'The refresh token is unknown');
    if (grant.revoked) return oauthError(res, 400, 'invalid_grant', 'The grant was revoked');
    if (grant.refreshExpiresAt <= Date.now()) return oauthError(res, 400, 'invalid_grant', 'The refresh token has expired');
    const asked = form.get('scope');
    const scopes = asked === null ? grant.scopes : asked.split(/\s+/).filter((s) => grant.scopes.includes(s));
    if (asked !== null && scopes.length === 0) return oauthError(res, 400, 'invalid_scope', 'The scope asked is not within the grant');
    if (this.options.rotateRefreshTokens) this.refreshTokens.delete(presented);
    json(res, 200, await this.tokenResponse(grant, scopes, this.options.rotateRefreshTokens), { 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  }

  private async tokenResponse(grant: Grant, scopes: string[], newRefreshToken: boolean, nonce?: string): Promise<Record<string, unknown>> {
    const accessToken = randomToken();
    this.accessTokens.set(accessToken, { grant, scopes, expiresAt: Date.now() + this.options.accessTokenSeconds * 1000, revoked: false });
    const answer: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: this.options.accessTokenSeconds, scope: scopes.join(' '), patient: grant.user.patientId };
    if (newRefreshToken && (scopes.includes('offline_access') || scopes.includes('online_access'))) {
      const refreshToken = randomToken();
      this.refreshTokens.set(refreshToken, grant);
      answer.refresh_token = refreshToken;
    }
    if (scopes.includes('openid')) {
      answer.id_token = await new SignJWT({ ...(scopes.includes('fhirUser') ? { fhirUser: `${this.fhirBaseUrl}/Patient/${grant.user.patientId}` } : {}), ...(nonce ? { nonce } : {}) })
        .setProtectedHeader({ alg: 'ES256', kid: 'sandbox-1' })
        .setIssuer(this.issuer)
        .setSubject(grant.user.username)
        .setAudience(grant.clientId)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(this.signingKey);
    }
    return answer;
  }

  /** RFC 7009: revoking a refresh token revokes its grant (and its access tokens); an access token only itself. Always 200. */
  private async revoke(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    if (!form) return oauthError(res, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
    const client = await this.authenticateClient(req, form);
    if (typeof client === 'string') return oauthError(res, 401, 'invalid_client', client);
    const token = form.get('token') ?? '';
    const grant = this.refreshTokens.get(token);
    if (grant?.clientId === client.client_id) grant.revoked = true;
    const access = this.accessTokens.get(token);
    if (access?.grant.clientId === client.client_id) access.revoked = true;
    res.writeHead(200, { 'Cache-Control': 'no-store' }).end();
  }

  /** The client by its authentication: none (public, client_id in the form), a secret (basic or post), or private_key_jwt. */
  private async authenticateClient(req: IncomingMessage, form: URLSearchParams): Promise<SandboxClient | string> {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1] as string, 'base64').toString().split(':').map((part) => decodeURIComponent(part));
      const client = this.options.clients.find((c) => c.client_id === id);
      return client?.client_secret && client.client_secret === secret ? client : 'Client authentication failed';
    }
    if (form.get('client_assertion_type') === 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') return this.verifyAssertion(form.get('client_assertion') ?? '');
    const client = this.options.clients.find((c) => c.client_id === form.get('client_id'));
    if (!client) return 'Unknown client_id';
    if (client.client_secret) return form.get('client_secret') === client.client_secret ? client : 'Client authentication failed';
    if (client.jwks || client.jwks_uri) return 'This client must authenticate with private_key_jwt';
    return client;
  }

  private async verifyAssertion(assertion: string): Promise<SandboxClient | string> {
    const [, payload] = assertion.split('.');
    let issuer: unknown;
    try {
      issuer = (JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()) as { iss?: unknown }).iss;
    } catch {
      return 'client_assertion is not a JWT';
    }
    const client = this.options.clients.find((c) => c.client_id === issuer);
    if (!client || !(client.jwks || client.jwks_uri)) return 'client_assertion names no client with keys';
    const keys = client.jwks ? createLocalJWKSet(client.jwks) : createRemoteJWKSet(new URL(client.jwks_uri as string));
    try {
      const { payload: claims } = await jwtVerify(assertion, keys, { issuer: client.client_id, subject: client.client_id, audience: `${this.issuer}/token`, maxTokenAge: '5m' });
      if (!claims.jti || this.usedAssertions.has(claims.jti)) return 'client_assertion has no jti, or was used before';
      this.usedAssertions.add(claims.jti);
      return client;
    } catch (error) {
      return `client_assertion refused: ${(error as Error).message}`;
    }
  }

  private async fhirRequest(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? this.accessTokens.get(bearer) : undefined;
    if (!token || token.revoked || token.grant.revoked || token.expiresAt <= Date.now()) {
      res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
      return json(res, 401, operationOutcome('login', 'The access token is missing, expired or revoked'));
    }
    if (req.method !== 'GET') return json(res, 405, operationOutcome('not-supported', 'This server is read-only'));
    const match = /^\/fhir\/([A-Z][A-Za-z]+)(?:\/([A-Za-z0-9.-]{1,64}))?$/.exec(url.pathname);
    if (!match) return json(res, 404, operationOutcome('not-found', 'No such FHIR endpoint'));
    const [, resourceType, id] = match as unknown as [string, string, string | undefined];
    const interaction = id ? 'read' : 'search';
    if (!scopesAllow(token.scopes, resourceType, interaction)) {
      res.setHeader('WWW-Authenticate', 'Bearer error="insufficient_scope"');
      return json(res, 403, operationOutcome('forbidden', `The token's scopes do not allow ${interaction} of ${resourceType}`));
    }
    const patientId = token.grant.user.patientId;
    const accept = req.headers.accept ?? '';
    const answer: FhirAnswer = id
      ? await this.fhir.read(resourceType, id, patientId, resourceType === 'Binary' && !/json/.test(accept))
      : await this.fhir.search(resourceType, url.searchParams, patientId, this.fhirBaseUrl);
    const foreign = this.foreignNext;
    if (!id && foreign?.resourceType === resourceType && 'resource' in answer && answer.resource.resourceType === 'Bundle') {
      const next = answer.resource.link?.find((link) => link.relation === 'next');
      if (next?.url) {
        const url = new URL(next.url);
        next.url = `${foreign.origin}${url.pathname}${url.search}`;
        this.foreignNext = undefined;
      }
    }
    if ('raw' in answer) {
      res.writeHead(answer.status, { 'Content-Type': answer.contentType, 'Content-Length': answer.raw.length }).end(answer.raw);
      return;
    }
    json(res, answer.status, answer.resource, {}, 'application/fhir+json');
  }
}

function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString());
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json'): void {
  res.writeHead(status, { 'Content-Type': `${type}; charset=utf-8`, ...headers }).end(JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(body);
}

function oauthError(res: ServerResponse, status: number, error: string, description: string): void {
  json(res, status, { error, error_description: description }, { 'Cache-Control': 'no-store' });
}
