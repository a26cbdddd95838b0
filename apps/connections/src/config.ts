import { IsBoolean, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { CommonConfig, Env, KeyList, WholeNumber, WithInternalHttp, WithPublicUrl } from '@medfolio/config';

/** The connections service's settings: the common ones (database, NATS, logs) and its own, one variable each. */
export class ConnectionsConfig extends WithInternalHttp(WithPublicUrl(CommonConfig)) {
  /**
   * The documents service's internal HTTP base: each sync hands it the connection's records as one
   * FHIR Bundle document of the patient's (with INTERNAL_API_TOKEN; unset token: nothing is handed over).
   */
  @Env('DOCUMENTS_INTERNAL_URL')
  @Matches(/^https?:\/\/[^\s"'<>]+$/, { message: 'must be an http(s) URL' })
  documentsInternalUrl = 'http://127.0.0.1:3002';

  /**
   * The endpoint directory: a JSON file in the SMART App Launch 2.2 User-access Brands Bundle format
   * (Organizations naming their Endpoints). Unset: the sample directory (Epic's, Oracle Health's and
   * the SMART launcher's public sandboxes). Only endpoints listed there are ever contacted.
   */
  @Env('FHIR_ENDPOINTS_FILE')
  @IsOptional()
  @IsString({ message: 'must be a file path' })
  endpointsFile?: string;

  /** The public client id registered with the EHR vendors, for endpoints without a registration of their own. */
  @Env('SMART_DEFAULT_CLIENT_ID')
  @Matches(/^[\x21-\x7e]{1,200}$/, { message: 'must be a client id (printable characters, no spaces)' })
  defaultClientId = 'medfolio';

  /**
   * Client registrations per endpoint: a JSON file mapping a directory endpoint id to
   * `{"client_id": "…", "auth": "public" | "private_key_jwt"}`. `public`: PKCE only (the client id in
   * the requests); `private_key_jwt`: a confidential asymmetric client that also signs a client
   * assertion with SMART_CLIENT_JWK, whose public half the product publishes at
   * GET /api/connections/.well-known/jwks.json. An endpoint without an entry uses SMART_DEFAULT_CLIENT_ID
   * as a public client. A bad file stops the start, naming the entry.
   */
  @Env('SMART_CLIENT_REGISTRATIONS_FILE')
  @IsOptional()
  @IsString({ message: 'must be a file path' })
  clientRegistrationsFile?: string;

  /**
   * The private key(s) that sign private_key_jwt client assertions: a JWK (EC P-384 for ES384, or RSA
   * of 2048 bits or more for RS384), or a JWK Set `{"keys": [current, previous…]}` to rotate (the first
   * signs; all are published). Unset in embedded mode: an ES384 key generated into
   * DATA_DIR/keys/connections-client-jwk.json. Unset in service mode: no key, and a private_key_jwt
   * registration stops the start.
   */
  @Env('SMART_CLIENT_JWK', { sensitive: true })
  @IsOptional()
  @IsString({ message: 'must be a private JWK or JWK Set as JSON' })
  clientJwk?: string;

  /**
   * The redirect URI registered with the EHR vendors: the web app's page that hands the code and state
   * to GET /api/connections/callback/ with the signed-in user's token. Unset: PUBLIC_BASE_URL + /connections/callback.
   */
  @Env('CONNECTIONS_REDIRECT_URL')
  @IsOptional()
  @Matches(/^https?:\/\/[^\s"'<>]+$/, { message: 'must be an http(s) URL' })
  redirectUrl?: string;

  /**
   * AES-256-GCM key(s) for the tokens at rest: 32 random bytes in base64, or to rotate "new:base64,old:base64".
   * Required in service mode; in embedded mode, when unset, one is generated into DATA_DIR/keys/connections.key.
   */
  @Env('CONNECTIONS_TOKEN_KEY', { sensitive: true, serviceSecret: { how: '32 random bytes in base64, the same in every connections replica (openssl rand -base64 32)' } })
  @ValidateIf((config: ConnectionsConfig) => config.mode === 'service' || config.tokenKey !== undefined)
  @KeyList('must be 32 random bytes in base64, or to rotate a list "new:base64,old:base64" of them (current first)')
  tokenKey?: string;

  /** The longest wait for an EHR's discovery, token or revocation endpoint, in milliseconds. */
  @Env('SMART_HTTP_TIMEOUT_MS')
  @WholeNumber(500, 120_000)
  httpTimeoutMs = 10_000;

  /** Minutes a started sign-in (its state and PKCE verifier) stays usable. */
  @Env('CONNECTIONS_AUTHORIZE_MINUTES')
  @WholeNumber(1, 60)
  authorizeMinutes = 10;

  /**
   * true: http:// endpoints on loopback addresses (127.0.0.1, localhost) are allowed, for the local
   * SMART sandbox in tests and development. Otherwise every EHR URL must be https.
   */
  @Env('SMART_ALLOW_LOOPBACK_HTTP')
  @IsBoolean({ message: 'must be true or false' })
  allowLoopbackHttp = false;

  /** Most connections one user may have. */
  @Env('CONNECTIONS_PER_USER')
  @WholeNumber(1, 1000)
  perUserLimit = 50;

  /** Minutes between scheduled syncs of each connection (0: no schedule; syncs run after connecting and on demand only). */
  @Env('CONNECTIONS_SYNC_INTERVAL_MINUTES')
  @WholeNumber(0, 10_080)
  syncIntervalMinutes = 360;

  /** Resources asked for per page of a FHIR search (`_count`). */
  @Env('CONNECTIONS_SYNC_PAGE_SIZE')
  @WholeNumber(10, 1000)
  syncPageSize = 100;

  /** Most pages followed (Bundle.link next) per resource type in one sync. */
  @Env('CONNECTIONS_SYNC_MAX_PAGES')
  @WholeNumber(1, 10_000)
  syncMaxPages = 100;

  /** Most resources kept from one sync (all types together); the rest waits for the next sync. */
  @Env('CONNECTIONS_SYNC_MAX_RESOURCES')
  @WholeNumber(10, 1_000_000)
  syncMaxResources = 20_000;

  /** Tries per FHIR request when the server answers 429 or 5xx or cannot be reached (1: no retry). */
  @Env('CONNECTIONS_SYNC_ATTEMPTS')
  @WholeNumber(1, 10)
  syncAttempts = 4;

  /** The first retry's wait in milliseconds (doubled each retry; a 429's Retry-After wins, capped at 60 s). */
  @Env('CONNECTIONS_SYNC_BACKOFF_MS')
  @WholeNumber(10, 60_000)
  syncBackoffMs = 500;

  /** Largest FHIR answer read (one search page or one Binary), in bytes. */
  @Env('CONNECTIONS_SYNC_MAX_ANSWER_BYTES')
  @WholeNumber(65_536, 104_857_600)
  syncMaxAnswerBytes = 16 * 1024 * 1024;

  /** The redirect URI this deployment uses. */
  get callbackUrl(): string {
    return this.redirectUrl ?? `${this.publicBaseUrl.replace(/\/$/, '')}/connections/callback`;
  }
}

