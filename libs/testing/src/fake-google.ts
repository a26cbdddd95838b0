import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type GenerateKeyPairResult, type JWK, SignJWT } from 'jose';


/** The shape of identity's Google sign-in settings (kept structural: libraries never import apps). */
export interface GoogleSignInSettings {
  clientIds: string[];
  jwksUrl: string;
  userinfoUrl: string;
  tokeninfoUrl?: string;
  issuers: string[];
  timeoutMs: number;
}

/** The OpenID Connect profile claims Google puts in ID tokens and userinfo answers. */
export interface FakeGoogleProfile {
  sub: string;
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  picture?: string;
}

export interface FakeAccessTokenOptions extends Partial<FakeGoogleProfile> {
  /** Client id the token was issued to (tokeninfo `aud`/`azp`); default: the fake's own client id. */
  clientId?: string;
  /** Remaining lifetime; zero or less makes an expired token that Google no longer accepts. */
  expiresInSeconds?: number;
}

/** 'error': every endpoint answers 503. 'hang': requests are accepted and never answered. */
export type FakeGoogleOutage = 'none' | 'error' | 'hang';

const PATHS = { jwks: '/oauth2/v3/certs', userinfo: '/v1/userinfo', tokeninfo: '/tokeninfo', authorize: '/o/oauth2/v2/auth' } as const;
type Endpoint = keyof typeof PATHS;

export const FAKE_GOOGLE_CLIENT_ID = 'medfolio-test.apps.googleusercontent.com';

/**
 * A stand-in for Google's sign-in endpoints on a loopback port, for unit and system tests (there is
 * no internet in CI, and real Google tokens cannot be minted). It holds an RS256 key pair, publishes
 * the public half as a JWKS, signs ID tokens with the private half, and answers userinfo and
 * tokeninfo for the opaque access tokens it handed out. Only `node:` modules and `jose`.
 *
 * ```ts
 * const google = await FakeGoogle.start();
 * const verifier = new GoogleIdentityVerifier(google.settings());
 * await verifier.verify(await google.idToken({ email: 'a@example.com' }));
 * await google.stop();
 * ```
 */
export class FakeGoogle {
  /** How many requests each endpoint received (e.g. to see that the key set is cached). */
  readonly requests: Record<Endpoint, number> = { jwks: 0, userinfo: 0, tokeninfo: 0, authorize: 0 };
  private readonly accessTokens = new Map<
    string,
    { profile: FakeGoogleProfile; clientId: string; expiresAt: number }
  >();
  private outageMode: FakeGoogleOutage = 'none';
  private nextBrowserProfile: Partial<FakeGoogleProfile> | null = null;
  private nextSubject = 100_000_000_000_000_000_001n;
  private stopped = false;

  private constructor(
    private readonly server: Server,
    private readonly privateKey: GenerateKeyPairResult['privateKey'],
    private readonly publicJwk: JWK,
    readonly clientId: string,
  ) {}

  /** Generates a key pair and listens on 127.0.0.1 on a free port. */
  static async start(options: { clientId?: string } = {}): Promise<FakeGoogle> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid: randomUUID(), alg: 'RS256', use: 'sig' };
    const server = createServer();
    const google = new FakeGoogle(server, privateKey, publicJwk, options.clientId ?? FAKE_GOOGLE_CLIENT_ID);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => google.handle(request, response));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return google;
  }

  get baseUrl(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Key id of the signing key, for tests that forge a token under the same `kid`. */
  get keyId(): string {
    return this.publicJwk.kid as string;
  }

  /** Settings that point a verifier at this fake, accepting its client id. */
  settings(): GoogleSignInSettings {
    return {
      clientIds: [this.clientId],
      jwksUrl: `${this.baseUrl}${PATHS.jwks}`,
      userinfoUrl: `${this.baseUrl}${PATHS.userinfo}`,
      tokeninfoUrl: `${this.baseUrl}${PATHS.tokeninfo}`,
      issuers: ['https://accounts.google.com', 'accounts.google.com'],
      timeoutMs: 2000,
    };
  }

  /**
   * The claims of a valid ID token for a new user of our client id, with `overrides` applied; an
   * override of `undefined` removes the claim (e.g. `{ exp: undefined }`).
   */
  idTokenClaims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: 'https://accounts.google.com',
      azp: this.clientId,
      aud: this.clientId,
      ...this.defaultProfile(),
      iat: now,
      exp: now + 3600,
      ...overrides,
    };
    return Object.fromEntries(Object.entries(claims).filter(([, value]) => value !== undefined));
  }

  /** An ID token signed with this fake's key (RS256, its `kid`): see {@link idTokenClaims}. */
  async idToken(overrides: Record<string, unknown> = {}): Promise<string> {
    return new SignJWT(this.idTokenClaims(overrides))
      .setProtectedHeader({ alg: 'RS256', kid: this.keyId, typ: 'JWT' })
      .sign(this.privateKey);
  }

  /** Registers and returns an opaque access token that userinfo and tokeninfo accept. */
  accessToken(options: FakeAccessTokenOptions = {}): string {
    const { clientId = this.clientId, expiresInSeconds = 3600, ...profile } = options;
    const token = `ya29.${randomBytes(48).toString('base64url')}`;
    this.accessTokens.set(token, {
      profile: { ...this.defaultProfile(), ...profile },
      clientId,
      expiresAt: Date.now() + expiresInSeconds * 1000,
    });
    return token;
  }

  /** Where a browser is sent to sign in (the OAuth authorization endpoint of this fake). */
  get authorizationUrl(): string {
    return `${this.baseUrl}${PATHS.authorize}`;
  }

  /**
   * The Google account the next browser sign-in at {@link authorizationUrl} picks (as if the user
   * chose it on Google's page); unset: a new account each time.
   */
  signInAs(profile: Partial<FakeGoogleProfile> | null): void {
    this.nextBrowserProfile = profile;
  }

  /** Makes the endpoints fail (see {@link FakeGoogleOutage}) until called again with 'none'. */
  outage(mode: FakeGoogleOutage): void {
    this.outageMode = mode;
  }

  /** Closes the server, cutting any hanging request. Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private defaultProfile(): FakeGoogleProfile {
    const sub = String(this.nextSubject++);
    return {
      sub,
      email: `user${sub.slice(-6)}@example.com`,
      email_verified: true,
      given_name: 'Test',
      family_name: 'Patient',
      name: 'Test Patient',
      picture: 'https://lh3.googleusercontent.com/a/test-picture',
    };
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.baseUrl);
    const endpoint = (Object.keys(PATHS) as Endpoint[]).find((name) => PATHS[name] === url.pathname);
    if (endpoint === undefined || request.method !== 'GET') return send(response, 404, { error: 'not_found' });
    this.requests[endpoint] += 1;
    if (this.outageMode === 'hang') return;
    if (this.outageMode === 'error') return send(response, 503, { error: 'backend_error' });
    switch (endpoint) {
      case 'jwks':
        return send(response, 200, { keys: [this.publicJwk] });
      case 'userinfo':
        return this.userinfo(request, response);
      case 'tokeninfo':
        return this.tokeninfo(url, response);
      case 'authorize':
        return this.authorize(url, response);
    }
  }

  /**
   * The browser flow of OAuth 2.0 for client-side apps (response_type=token): the user "picks" the
   * account set by signInAs and is sent back to redirect_uri with an access token and the state in
   * the fragment. An unknown client id gets Google's error page instead.
   */
  private authorize(url: URL, response: ServerResponse): void {
    const redirectUri = url.searchParams.get('redirect_uri');
    if (url.searchParams.get('client_id') !== this.clientId || !redirectUri || url.searchParams.get('response_type') !== 'token') {
      response.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><title>Error 400: invalid_request</title><h1>Access blocked: invalid request</h1>');
      return;
    }
    const token = this.accessToken({ ...(this.nextBrowserProfile ?? {}) });
    const fragment = new URLSearchParams({
      access_token: token,
      token_type: 'Bearer',
      expires_in: '3599',
      scope: 'email profile openid',
      state: url.searchParams.get('state') ?? '',
    });
    response.writeHead(302, { location: `${redirectUri}#${fragment.toString()}` });
    response.end();
  }

  /** Like Google: 401 without a live token, else the profile (email_verified as a boolean). */
  private userinfo(request: IncomingMessage, response: ServerResponse): void {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const entry = token === undefined ? undefined : this.liveToken(token);
    if (entry === undefined) {
      return send(response, 401, { error: 'invalid_request', error_description: 'Invalid Credentials' });
    }
    return send(response, 200, entry.profile);
  }

  /** Like Google: 400 "invalid_token" for unknown or expired tokens; values as strings. */
  private tokeninfo(url: URL, response: ServerResponse): void {
    const entry = this.liveToken(url.searchParams.get('access_token') ?? '');
    if (entry === undefined) return send(response, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
    return send(response, 200, {
      azp: entry.clientId,
      aud: entry.clientId,
      sub: entry.profile.sub,
      scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
      exp: String(Math.floor(entry.expiresAt / 1000)),
      expires_in: String(Math.floor((entry.expiresAt - Date.now()) / 1000)),
      email: entry.profile.email,
      email_verified: String(entry.profile.email_verified),
      access_type: 'online',
    });
  }

  private liveToken(token: string) {
    const entry = this.accessTokens.get(token);
    return entry !== undefined && entry.expiresAt > Date.now() ? entry : undefined;
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify(body));
}
